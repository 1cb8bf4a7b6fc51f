// byte_stream.hpp on Windows.
//
// Two kinds of stream. Our ends of a child's pipes are opened for overlapped
// I/O (child_process_windows.cpp) and go through the io_context's completion
// port (asio::windows::stream_handle). Our own stdin and stdout cannot: they
// are whatever we were given (an anonymous pipe, a console, a file), usually
// not opened for overlapped I/O, on which Asio's reads would block the
// io_context's thread (chriskohlhoff/asio#522). Each of those gets a thread
// of its own that makes the blocking ReadFile or WriteFile calls, one at a
// time, and wakes the stream's executor when one is done.

#include "byte_stream.hpp"

#include <mcp/error.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/windows/stream_handle.hpp>
#include <boost/asio/write.hpp>

#include "utf16_windows.hpp"

#include <fcntl.h>
#include <io.h>

#include <algorithm>
#include <condition_variable>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <mutex>
#include <thread>
#include <vector>

namespace mcp::detail {

namespace {

boost::system::error_code last_windows_error() {
  return boost::system::error_code(static_cast<int>(GetLastError()), boost::system::system_category());
}

// An end of a pipe opened for overlapped I/O.
class overlapped_pipe_stream final : public byte_stream {
 public:
  overlapped_pipe_stream(asio::any_io_executor ex, HANDLE handle) : handle_(std::move(ex)) {
    boost::system::error_code ec;
    handle_.assign(handle, ec);
    if (ec) {
      CloseHandle(handle);
      throw mcp::error(ec, "pipe");
    }
  }
  ~overlapped_pipe_stream() override { close(); }
  overlapped_pipe_stream(const overlapped_pipe_stream&) = delete;
  overlapped_pipe_stream& operator=(const overlapped_pipe_stream&) = delete;

  asio::awaitable<std::size_t> read_some(char* data, std::size_t size) override {
    boost::system::error_code ec;
    const auto n = co_await handle_.async_read_some(asio::buffer(data, size),
                                                    asio::redirect_error(asio::use_awaitable, ec));
    // A pipe whose writer closed reports ERROR_BROKEN_PIPE: its end.
    if (ec == asio::error::eof || ec == asio::error::broken_pipe) co_return 0;
    if (ec) throw mcp::error(ec, "read");
    co_return n;
  }

  asio::awaitable<void> write_all(std::string_view data) override {
    if (!handle_.is_open()) throw mcp::error(asio::error::bad_descriptor, "write");
    co_await asio::async_write(handle_, asio::buffer(data), asio::use_awaitable);
  }

  void close() noexcept override {
    boost::system::error_code ignored;
    if (handle_.is_open()) handle_.close(ignored);
  }

  bool is_open() const noexcept override { return handle_.is_open(); }

 private:
  asio::windows::stream_handle handle_;
};

// What a blocking_stream shares with its thread, which may outlive it (when
// closing could not cancel the call it was blocked in).
struct blocking_stream_state {
  HANDLE handle = INVALID_HANDLE_VALUE;  // closed by the thread as it ends
  bool reading = false;
  bool console = false;  // a console: UTF-16 through ReadConsoleW and WriteConsoleW
  asio::any_io_executor ex;

  std::mutex mutex;
  std::condition_variable changed;
  // Guarded by the mutex:
  bool closing = false;
  bool call_due = false;  // the thread has a call to make
  std::string bytes;      // reading: read, not yet taken; writing: what the due call writes
  boost::system::error_code read_end;  // reading: eof, or the error that ended reading
  std::uint64_t writes_done = 0;
  boost::system::error_code write_failure;  // of the last write done
  asio::steady_timer* waker = nullptr;      // the stream's; null once it is closed
  HANDLE thread = nullptr;                  // the thread, for CancelSynchronousIo
};

// One read: bytes, or why there are none (eof at the end; none at all for a
// console read that Ctrl-C cut short, to be made again).
boost::system::error_code read_blocking(blocking_stream_state& s, std::string& out, wchar_t& pending_surrogate) {
  if (s.console) {
    wchar_t wide[4096];
    std::size_t start = 0;
    if (pending_surrogate) wide[start++] = pending_surrogate;
    pending_surrogate = 0;
    DWORD got = 0;
    if (!ReadConsoleW(s.handle, wide + start, static_cast<DWORD>(sizeof wide / sizeof wide[0] - start), &got, nullptr)) {
      const DWORD error = GetLastError();
      return error == ERROR_OPERATION_ABORTED ? boost::system::error_code()
                                              : boost::system::error_code(static_cast<int>(error),
                                                                          boost::system::system_category());
    }
    std::size_t count = start + got;
    if (got > 0 && wide[start] == 0x1A) return asio::error::eof;  // Ctrl-Z: the end of input
    if (count > 0 && wide[count - 1] >= 0xD800 && wide[count - 1] <= 0xDBFF) pending_surrogate = wide[--count];
    out = utf16_to_utf8(std::wstring_view(wide, count));
    return {};
  }
  char buffer[64 * 1024];
  DWORD got = 0;
  if (!ReadFile(s.handle, buffer, sizeof buffer, &got, nullptr)) {
    const DWORD error = GetLastError();
    if (error == ERROR_BROKEN_PIPE || error == ERROR_HANDLE_EOF) return asio::error::eof;
    return boost::system::error_code(static_cast<int>(error), boost::system::system_category());
  }
  if (got == 0) return asio::error::eof;
  out.assign(buffer, got);
  return {};
}

boost::system::error_code write_blocking(blocking_stream_state& s, const std::string& bytes) {
  if (s.console) {
    std::wstring wide;
    try {
      wide = utf8_to_utf16(bytes, "output");
    } catch (const mcp::error&) {  // not UTF-8 (or a NUL): each byte as a code point
      for (const char c : bytes) wide.push_back(static_cast<wchar_t>(static_cast<unsigned char>(c)));
    }
    std::wstring_view rest(wide);
    while (!rest.empty()) {
      DWORD put = 0;
      const auto chunk = static_cast<DWORD>((std::min<std::size_t>)(rest.size(), 16 * 1024));
      if (!WriteConsoleW(s.handle, rest.data(), chunk, &put, nullptr)) return last_windows_error();
      rest.remove_prefix(put);
    }
    return {};
  }
  std::string_view rest(bytes);
  while (!rest.empty()) {
    DWORD put = 0;
    const auto chunk = static_cast<DWORD>((std::min<std::size_t>)(rest.size(), 1u << 30));
    if (!WriteFile(s.handle, rest.data(), chunk, &put, nullptr)) return last_windows_error();
    rest.remove_prefix(put);
  }
  return {};
}

void run_blocking_stream(std::shared_ptr<blocking_stream_state> s) {
  HANDLE self = nullptr;
  DuplicateHandle(GetCurrentProcess(), GetCurrentThread(), GetCurrentProcess(), &self, 0, FALSE,
                  DUPLICATE_SAME_ACCESS);
  wchar_t pending_surrogate = 0;
  std::unique_lock lock(s->mutex);
  s->thread = self;
  for (;;) {
    s->changed.wait(lock, [&] { return s->call_due || s->closing; });
    if (s->closing) break;
    if (s->reading) {
      lock.unlock();
      std::string got;
      const auto ec = read_blocking(*s, got, pending_surrogate);
      lock.lock();
      if (s->closing) break;
      s->bytes += got;
      if (ec) s->read_end = ec;
    } else {
      const std::string bytes = std::move(s->bytes);
      s->bytes.clear();
      lock.unlock();
      const auto ec = write_blocking(*s, bytes);
      lock.lock();
      if (s->closing) break;
      s->write_failure = ec;
      ++s->writes_done;
    }
    s->call_due = false;
    // Posted while the mutex is held and the stream open: its executor is
    // still there.
    asio::post(s->ex, [s] {
      const std::lock_guard woken(s->mutex);
      if (s->waker) s->waker->cancel();
    });
  }
  s->thread = nullptr;
  lock.unlock();
  if (self) CloseHandle(self);
  CloseHandle(s->handle);
}

// Our own stdin or stdout: blocking calls on a thread of the stream's own.
class blocking_stream final : public byte_stream {
 public:
  blocking_stream(asio::any_io_executor ex, HANDLE handle, bool reading)
      : waker_(ex), state_(std::make_shared<blocking_stream_state>()) {
    DWORD mode = 0;
    state_->handle = handle;
    state_->reading = reading;
    state_->console = GetConsoleMode(handle, &mode) != 0;
    state_->ex = std::move(ex);
    state_->waker = &waker_;
    std::thread(run_blocking_stream, state_).detach();
  }
  ~blocking_stream() override { close(); }
  blocking_stream(const blocking_stream&) = delete;
  blocking_stream& operator=(const blocking_stream&) = delete;

  asio::awaitable<std::size_t> read_some(char* data, std::size_t size) override {
    for (;;) {
      std::size_t n = 0;
      boost::system::error_code ec;
      if (take_read(data, size, n, ec)) {
        if (ec == asio::error::eof) co_return 0;
        if (ec) throw mcp::error(ec, "read");
        co_return n;
      }
      co_await wait("read");
    }
  }

  asio::awaitable<void> write_all(std::string_view data) override {
    // A write that was cancelled may still be under way: this one follows it.
    std::uint64_t done = 0;
    while (!start_write(data, done)) co_await wait("write");
    boost::system::error_code ec;
    while (!write_finished(done, ec)) co_await wait("write");
    if (ec) throw mcp::error(ec, "write");
  }

  void close() noexcept override {
    {
      const std::lock_guard lock(state_->mutex);
      if (state_->closing) return;
      state_->closing = true;
      state_->waker = nullptr;
      // A call the thread is blocked in ends (ERROR_OPERATION_ABORTED); the
      // thread then closes the handle.
      if (state_->thread) CancelSynchronousIo(state_->thread);
      state_->changed.notify_one();
    }
    waker_.cancel();
  }

  bool is_open() const noexcept override {
    const std::lock_guard lock(state_->mutex);
    return !state_->closing;
  }

 private:
  // True when the read is done: `n` bytes taken, or `ec` (eof at the end).
  // Else asks the thread for more.
  bool take_read(char* data, std::size_t size, std::size_t& n, boost::system::error_code& ec) {
    const std::lock_guard lock(state_->mutex);
    auto& s = *state_;
    if (!s.bytes.empty()) {
      n = (std::min)(size, s.bytes.size());
      std::memcpy(data, s.bytes.data(), n);
      s.bytes.erase(0, n);
      return true;
    }
    if (s.read_end || s.closing) {
      ec = s.closing ? boost::system::error_code(asio::error::operation_aborted) : s.read_end;
      return true;
    }
    if (!s.call_due) {
      s.call_due = true;
      s.changed.notify_one();
    }
    return false;
  }

  // Hands `data` to the thread when it is free (true); `done` is then the
  // count of writes done once this one is.
  bool start_write(std::string_view data, std::uint64_t& done) {
    const std::lock_guard lock(state_->mutex);
    auto& s = *state_;
    if (s.closing) throw mcp::error(asio::error::operation_aborted, "write");
    if (s.call_due) return false;
    s.bytes.assign(data);
    s.call_due = true;
    done = s.writes_done + 1;
    s.changed.notify_one();
    return true;
  }

  bool write_finished(std::uint64_t done, boost::system::error_code& ec) {
    const std::lock_guard lock(state_->mutex);
    if (state_->writes_done >= done) {
      ec = state_->write_failure;
      return true;
    }
    if (state_->closing) throw mcp::error(asio::error::operation_aborted, "write");
    return false;
  }

  // Until the thread has done something, the stream is closed, or the
  // awaiting coroutine is cancelled (then throws operation_aborted).
  asio::awaitable<void> wait(const char* what) {
    waker_.expires_at(asio::steady_timer::time_point::max());
    const auto [ec] = co_await waker_.async_wait(asio::as_tuple(asio::use_awaitable));
    (void)ec;  // cancelled: by the thread, by close(), or by our caller
    const auto cancellation = co_await asio::this_coro::cancellation_state;
    if (cancellation.cancelled() != asio::cancellation_type::none)
      throw mcp::error(asio::error::operation_aborted, what);
  }

  asio::steady_timer waker_;
  std::shared_ptr<blocking_stream_state> state_;
};

// A copy of a standard handle that no child inherits.
HANDLE duplicate_standard_handle(DWORD which) {
  const HANDLE original = GetStdHandle(which);
  if (original == nullptr || original == INVALID_HANDLE_VALUE)
    throw mcp::error(boost::system::error_code(ERROR_INVALID_HANDLE, boost::system::system_category()), "dup stdio");
  HANDLE copy = nullptr;
  if (!DuplicateHandle(GetCurrentProcess(), original, GetCurrentProcess(), &copy, 0, FALSE, DUPLICATE_SAME_ACCESS))
    throw mcp::error(last_windows_error(), "dup stdio");
  return copy;
}

}  // namespace

std::unique_ptr<byte_stream> make_pipe_stream(asio::any_io_executor ex, native_handle handle) {
  return std::make_unique<overlapped_pipe_stream>(std::move(ex), static_cast<HANDLE>(handle));
}

standard_streams take_standard_streams(asio::any_io_executor ex) {
  const HANDLE in = duplicate_standard_handle(STD_INPUT_HANDLE);
  HANDLE out = nullptr;
  try {
    out = duplicate_standard_handle(STD_OUTPUT_HANDLE);
  } catch (...) {
    CloseHandle(in);
    throw;
  }
  // Our copy of stdout is now the only way to the client. What the C runtime
  // writes to its descriptor 1 (printf, std::cout) goes to stderr from here
  // on (to NUL when there is no stderr), and so does what is written to
  // Windows' standard output handle. The transport itself reads and writes
  // the handles, never through the C runtime: no text mode to turn off.
  std::fflush(stdout);
  if (_dup2(_fileno(stderr), _fileno(stdout)) != 0) {
    const HANDLE nul_handle = CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                                          OPEN_EXISTING, 0, nullptr);
    const int nul = nul_handle == INVALID_HANDLE_VALUE
                        ? -1
                        : _open_osfhandle(reinterpret_cast<std::intptr_t>(nul_handle), _O_WRONLY | _O_BINARY);
    if (nul < 0 && nul_handle != INVALID_HANDLE_VALUE) CloseHandle(nul_handle);
    const bool redirected = nul >= 0 && _dup2(nul, _fileno(stdout)) == 0;
    if (nul >= 0) _close(nul);
    if (!redirected) {
      CloseHandle(in);
      CloseHandle(out);
      throw mcp::error(boost::system::error_code(EBADF, boost::system::generic_category()), "redirect stdout");
    }
  }
  SetStdHandle(STD_OUTPUT_HANDLE, GetStdHandle(STD_ERROR_HANDLE));
  standard_streams streams;
  streams.in = std::make_unique<blocking_stream>(ex, in, true);
  streams.out = std::make_unique<blocking_stream>(ex, out, false);
  return streams;
}

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> variables;
  wchar_t* block = GetEnvironmentStringsW();
  if (!block) return variables;
  for (const wchar_t* entry = block; *entry; entry += std::wcslen(entry) + 1) {
    const std::wstring_view text(entry);
    // "=C:=C:\dir": the current directory of each drive, for cmd.exe; not a variable.
    if (text.front() == L'=') continue;
    if (const auto eq = text.find(L'='); eq != std::wstring_view::npos)
      variables.emplace(utf16_to_utf8(text.substr(0, eq)), utf16_to_utf8(text.substr(eq + 1)));
  }
  FreeEnvironmentStringsW(block);
  return variables;
}

void ignore_sigpipe() noexcept {}  // no SIGPIPE on Windows: such a write fails with ERROR_NO_DATA

}  // namespace mcp::detail
