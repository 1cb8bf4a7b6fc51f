// console.hpp on Windows. stdin is a console, a pipe or a file (NUL is a
// character device that is not a console). A console is read with
// ReadConsoleW (the text in UTF-16, whatever the console's code page), which
// waits for a whole line while the console echoes it; interrupt_stdin()
// cancels that wait (CancelSynchronousIo). A pipe is read only once
// PeekNamedPipe shows bytes (or its end), so that no read waits.

// <winsock2.h> (which Asio's headers include) must come before <windows.h>.
#include <winsock2.h>
#include <windows.h>

#include "console.hpp"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

namespace caduceus {

namespace {

HANDLE standard_input() { return GetStdHandle(STD_INPUT_HANDLE); }

bool is_console(HANDLE handle) {
  DWORD mode = 0;
  return handle && handle != INVALID_HANDLE_VALUE && GetConsoleMode(handle, &mode) != 0;
}

// The thread in read_stdin(), for interrupt_stdin().
std::mutex stdin_reading_mutex;
HANDLE stdin_reading_thread = nullptr;  // a handle of its own, while it reads
bool stdin_interrupted = false;         // the next read_stdin() returns -1 at once

// A high surrogate that ended the last console read, for the next one.
wchar_t stdin_pending_surrogate = 0;

long read_console(HANDLE in, char* buffer, std::size_t size) {
  // At most 3 bytes of UTF-8 per UTF-16 unit (a pair: 4 bytes for 2 units).
  wchar_t wide[1024];
  const std::size_t room = (std::min)(sizeof wide / sizeof wide[0], size / 3);
  if (room < 2) return -1;
  std::size_t start = 0;
  if (stdin_pending_surrogate) wide[start++] = std::exchange(stdin_pending_surrogate, L'\0');
  DWORD got = 0;
  if (!ReadConsoleW(in, wide + start, static_cast<DWORD>(room - start), &got, nullptr) || got == 0)
    return -1;  // cancelled, or Ctrl-C
  if (wide[start] == 0x1A) return 0;  // Ctrl-Z (then Enter): the end of input
  std::size_t count = start + got;
  if (wide[count - 1] >= 0xD800 && wide[count - 1] <= 0xDBFF) stdin_pending_surrogate = wide[--count];
  if (count == 0) return -1;
  const int n = WideCharToMultiByte(CP_UTF8, 0, wide, static_cast<int>(count), buffer, static_cast<int>(size),
                                    nullptr, nullptr);
  return n > 0 ? n : -1;
}

}  // namespace

bool stdin_is_terminal() { return is_console(standard_input()); }

bool stderr_is_terminal() {
  const HANDLE err = GetStdHandle(STD_ERROR_HANDLE);
  DWORD mode = 0;
  if (!err || err == INVALID_HANDLE_VALUE || !GetConsoleMode(err, &mode)) return false;
  return (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0 ||
         SetConsoleMode(err, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

std::size_t stderr_columns() {
  CONSOLE_SCREEN_BUFFER_INFO info{};
  if (!GetConsoleScreenBufferInfo(GetStdHandle(STD_ERROR_HANDLE), &info)) return 0;
  const int columns = info.srWindow.Right - info.srWindow.Left + 1;
  return columns > 0 ? static_cast<std::size_t>(columns) : 0;
}

bool wait_for_stdin(std::chrono::milliseconds slice) {
  const HANDLE in = standard_input();
  if (is_console(in)) return true;  // read_stdin() waits for a line (interrupt_stdin() ends it)
  if (GetFileType(in) != FILE_TYPE_PIPE) return true;  // a file, NUL: a read never waits long
  const auto deadline = std::chrono::steady_clock::now() + slice;
  for (;;) {
    DWORD available = 0;
    if (!PeekNamedPipe(in, nullptr, 0, nullptr, &available, nullptr) || available > 0)
      return true;  // bytes, or the end (the writer closed the pipe), to be read
    if (std::chrono::steady_clock::now() >= deadline) return false;
    Sleep(10);
  }
}

long read_stdin(char* buffer, std::size_t size) {
  const HANDLE in = standard_input();
  HANDLE self = nullptr;
  {
    const std::lock_guard lock(stdin_reading_mutex);
    if (std::exchange(stdin_interrupted, false)) return -1;
    if (DuplicateHandle(GetCurrentProcess(), GetCurrentThread(), GetCurrentProcess(), &self, 0, FALSE,
                        DUPLICATE_SAME_ACCESS))
      stdin_reading_thread = self;
  }
  long n = 0;
  if (is_console(in)) {
    n = read_console(in, buffer, size);
  } else {
    DWORD got = 0;
    if (ReadFile(in, buffer, static_cast<DWORD>((std::min<std::size_t>)(size, 1u << 30)), &got, nullptr))
      n = static_cast<long>(got);  // 0: the end of a file
    else
      n = GetLastError() == ERROR_OPERATION_ABORTED ? -1 : 0;  // a broken pipe (its end), or an error: the end
  }
  {
    const std::lock_guard lock(stdin_reading_mutex);
    stdin_reading_thread = nullptr;
    if (self) CloseHandle(self);
  }
  return n;
}

void interrupt_stdin() {
  // The reader may be about to start its read: cancel until something was
  // cancelled, for a while.
  for (int attempt = 0; attempt < 50; ++attempt) {
    {
      const std::lock_guard lock(stdin_reading_mutex);
      if (!stdin_reading_thread) {
        stdin_interrupted = attempt == 0;  // none reading now: the next read is cancelled
        return;
      }
      if (CancelSynchronousIo(stdin_reading_thread)) return;
    }
    Sleep(10);
  }
}

}  // namespace caduceus
