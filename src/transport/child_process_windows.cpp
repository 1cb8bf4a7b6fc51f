// child_process.hpp on Windows.
//
// The pipes are named pipes: our ends opened for overlapped I/O (the
// io_context's completion port), the child's ends plain and inheritable, and
// only those three inherited (PROC_THREAD_ATTRIBUTE_HANDLE_LIST), so that no
// other handle of ours (another child's pipe) keeps a pipe open. The program
// is found as cmd.exe would find it (PATH, and PATHEXT's extensions); a .cmd
// or .bat file runs through cmd.exe, its arguments quoted so that cmd.exe
// passes them on as they are. The child starts suspended, is put in a Job
// Object of its own that ends with us (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE),
// then runs. It gets a process group of its own (a console's Ctrl-C stays
// with us), and our console, or none when we have no console window: then
// no window appears for it.

#include "child_process.hpp"

#include <mcp/error.hpp>

#include "utf16_windows.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cwchar>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

struct child_process::native {
  HANDLE process = nullptr;
  HANDLE job = nullptr;  // null when the child could not be put in one
  DWORD id = 0;
  bool shares_console = false;
  native() = default;
  native(const native&) = delete;
  native& operator=(const native&) = delete;
  ~native() {
    if (job) CloseHandle(job);  // ends what is left in it
    if (process) CloseHandle(process);
  }
};

namespace {

boost::system::error_code child_error(DWORD code) {
  return boost::system::error_code(static_cast<int>(code), boost::system::system_category());
}

// A handle closed when it goes out of scope, unless released.
class owned_handle {
 public:
  owned_handle() = default;
  explicit owned_handle(HANDLE h) : h_(h == INVALID_HANDLE_VALUE ? nullptr : h) {}
  ~owned_handle() {
    if (h_) CloseHandle(h_);
  }
  owned_handle(const owned_handle&) = delete;
  owned_handle& operator=(const owned_handle&) = delete;
  owned_handle(owned_handle&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  owned_handle& operator=(owned_handle&& other) noexcept {
    std::swap(h_, other.h_);
    return *this;
  }
  HANDLE get() const noexcept { return h_; }
  HANDLE release() noexcept { return std::exchange(h_, nullptr); }
  explicit operator bool() const noexcept { return h_ != nullptr; }

 private:
  HANDLE h_ = nullptr;
};

bool same_text_ignoring_case(std::wstring_view a, std::wstring_view b) {
  return CompareStringOrdinal(a.data(), static_cast<int>(a.size()), b.data(), static_cast<int>(b.size()), TRUE) ==
         CSTR_EQUAL;
}

std::wstring read_environment_variable(const wchar_t* name) {
  std::wstring value(256, L'\0');
  for (;;) {
    const DWORD n = GetEnvironmentVariableW(name, value.data(), static_cast<DWORD>(value.size()));
    if (n == 0) return {};
    if (n < value.size()) {
      value.resize(n);
      return value;
    }
    value.resize(n);  // n: the size needed, with its NUL
  }
}

std::vector<std::wstring> split_path_list(std::wstring_view list) {
  std::vector<std::wstring> items;
  while (!list.empty()) {
    const auto end = list.find(L';');
    auto item = list.substr(0, end);
    if (item.size() >= 2 && item.front() == L'"' && item.back() == L'"') item = item.substr(1, item.size() - 2);
    if (!item.empty()) items.emplace_back(item);
    if (end == std::wstring_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return items;
}

// The extension of a path's last part, with its dot; empty when it has none.
std::wstring_view extension_of(std::wstring_view path) {
  const auto name_start = path.find_last_of(L"\\/:");
  const auto name = name_start == std::wstring_view::npos ? path : path.substr(name_start + 1);
  const auto dot = name.find_last_of(L'.');
  return dot == std::wstring_view::npos || dot == 0 ? std::wstring_view() : name.substr(dot);
}

bool is_batch_file(std::wstring_view path) {
  const auto extension = extension_of(path);
  return same_text_ignoring_case(extension, L".cmd") || same_text_ignoring_case(extension, L".bat");
}

// What CreateProcessW can start: an executable, or (through cmd.exe) a batch file.
bool is_runnable_extension(std::wstring_view extension) {
  for (const wchar_t* known : {L".exe", L".com", L".cmd", L".bat"})
    if (same_text_ignoring_case(extension, known)) return true;
  return false;
}

bool is_program_file(const std::wstring& path) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
}

// `base` as it is when it has an extension, then with each runnable
// extension of PATHEXT: the first that is a file.
std::wstring first_program_file(const std::wstring& base, const std::vector<std::wstring>& extensions) {
  if (!extension_of(base).empty() && is_program_file(base)) return base;
  for (const auto& extension : extensions) {
    if (!is_runnable_extension(extension)) continue;
    auto candidate = base + extension;
    if (is_program_file(candidate)) return candidate;
  }
  return {};
}

// The program's file, looked up as cmd.exe would (but never in the current
// directory unless PATH says so, as on POSIX systems).
std::wstring find_program(const child_spec& spec) {
  const auto name = utf8_to_utf16(spec.command, "the command");
  auto extensions = split_path_list(read_environment_variable(L"PATHEXT"));
  if (extensions.empty()) extensions = {L".COM", L".EXE", L".BAT", L".CMD"};
  if (name.find_first_of(L"\\/:") != std::wstring::npos) {
    // A path: relative to the child's working directory, as after a chdir.
    const bool relative = !(name.size() >= 2 && name[1] == L':') && name.front() != L'\\' && name.front() != L'/';
    if (relative && spec.working_directory)
      return first_program_file(utf8_to_utf16(*spec.working_directory, "the working directory") + L"\\" + name, extensions);
    return first_program_file(name, extensions);
  }
  for (const auto& directory : split_path_list(read_environment_variable(L"PATH"))) {
    const bool separated = directory.back() == L'\\' || directory.back() == L'/';
    auto found = first_program_file(separated ? directory + name : directory + L"\\" + name, extensions);
    if (!found.empty()) return found;
  }
  return {};
}

// One argument as the Microsoft C runtime (and CommandLineToArgvW) splits a
// command line: quoted when it holds a blank or a quote or is empty; a quote
// escaped with a backslash, and the backslashes before it (or before the
// closing quote) doubled.
void append_program_argument(std::wstring& line, std::wstring_view argument) {
  line += L' ';
  if (!argument.empty() && argument.find_first_of(L" \t\n\v\"") == std::wstring_view::npos) {
    line += argument;
    return;
  }
  line += L'"';
  std::size_t backslashes = 0;
  for (const wchar_t c : argument) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    line.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
    backslashes = 0;
    line += c;
  }
  line.append(backslashes * 2, L'\\');
  line += L'"';
}

// One argument to a batch file, for cmd.exe and then the C runtime's rules
// (as Rust's standard library does it since CVE-2024-24576): quoted unless
// it holds only letters, digits and #$*+-./:?@\_ ; a quote doubled; and each
// % written %%cd:~,% (an empty piece of %cd%) so that no %NAME% is expanded.
void append_batch_argument(std::wstring& line, std::wstring_view argument) {
  if (argument.find_first_of(L"\r\n") != std::wstring_view::npos)
    throw mcp::invalid_argument("an argument to a batch file cannot hold a line break");
  bool quote = argument.empty() || argument.back() == L'\\';
  for (const wchar_t c : argument) {
    const bool plain = (c >= L'a' && c <= L'z') || (c >= L'A' && c <= L'Z') || (c >= L'0' && c <= L'9') ||
                       std::wstring_view(L"#$*+-./:?@\\_").find(c) != std::wstring_view::npos;
    if ((c < 0x80 && !plain) || (c >= 0x80 && c < 0xA0)) quote = true;
  }
  line += L' ';
  if (quote) line += L'"';
  std::size_t backslashes = 0;
  for (const wchar_t c : argument) {
    if (c == L'\\') {
      ++backslashes;
    } else {
      if (c == L'"') {
        line.append(backslashes, L'\\');
        line += L'"';
      } else if (c == L'%') {
        line += L"%%cd:~,";
      }
      backslashes = 0;
    }
    line += c;
  }
  if (quote) {
    line.append(backslashes, L'\\');
    line += L'"';
  }
}

struct child_command_line {
  std::wstring application;  // the file CreateProcessW starts
  std::wstring line;         // what it gets as its command line
};

child_command_line build_command_line(const child_spec& spec, const std::wstring& program) {
  child_command_line command;
  if (is_batch_file(program)) {
    // cmd.exe /s /c "X": runs X, the quotes around it taken away.
    wchar_t system[MAX_PATH];
    const UINT n = GetSystemDirectoryW(system, MAX_PATH);
    if (n == 0 || n >= MAX_PATH) throw mcp::error(child_error(GetLastError()), "spawn " + spec.command);
    command.application = std::wstring(system, n) + L"\\cmd.exe";
    command.line = L"cmd.exe /d /e:ON /v:OFF /s /c \"\"" + program + L"\"";
    for (const auto& argument : spec.args) append_batch_argument(command.line, utf8_to_utf16(argument, "an argument"));
    command.line += L'"';
    return command;
  }
  command.application = program;
  // The program's name first, as given; the C runtime takes it up to the
  // next blank or quote, without escapes.
  const auto name = utf8_to_utf16(spec.command, "the command");
  if (name.find(L'"') != std::wstring::npos) throw mcp::invalid_argument("a program's name cannot hold a quote");
  command.line = name.find_first_of(L" \t") == std::wstring::npos ? name : L"\"" + name + L"\"";
  for (const auto& argument : spec.args) append_program_argument(command.line, utf8_to_utf16(argument, "an argument"));
  return command;
}

// The child's environment block (UTF-16, sorted by name without regard to
// case, as CreateProcessW expects), or an empty one for ours as it is.
std::wstring build_environment(const child_spec& spec) {
  if (spec.inherit_environment && spec.environment.empty()) return {};
  std::vector<std::pair<std::wstring, std::wstring>> variables;
  if (spec.inherit_environment) {
    if (wchar_t* block = GetEnvironmentStringsW()) {
      for (const wchar_t* entry = block; *entry; entry += std::wcslen(entry) + 1) {
        const std::wstring_view text(entry);
        const auto eq = text.find(L'=', 1);  // "=C:=C:\dir" is named "=C:"
        if (eq != std::wstring_view::npos) variables.emplace_back(text.substr(0, eq), text.substr(eq + 1));
      }
      FreeEnvironmentStringsW(block);
    }
  }
  for (const auto& [key, value] : spec.environment) {
    auto name = utf8_to_utf16(key, "an environment variable's name");
    if (name.empty() || name.find(L'=', 1) != std::wstring::npos)
      throw mcp::invalid_argument("bad environment variable name: " + key);
    auto text = utf8_to_utf16(value, "an environment variable's value");
    bool replaced = false;
    for (auto& variable : variables)
      if (same_text_ignoring_case(variable.first, name)) {
        variable.second = text;
        replaced = true;
      }
    if (!replaced) variables.emplace_back(std::move(name), std::move(text));
  }
  std::stable_sort(variables.begin(), variables.end(), [](const auto& a, const auto& b) {
    return CompareStringOrdinal(a.first.data(), static_cast<int>(a.first.size()), b.first.data(),
                                static_cast<int>(b.first.size()), TRUE) == CSTR_LESS_THAN;
  });
  std::wstring block;
  for (const auto& [name, value] : variables) {
    block += name;
    block += L'=';
    block += value;
    block += L'\0';
  }
  if (block.empty()) block += L'\0';
  block += L'\0';
  return block;
}

struct pipe_ends {
  owned_handle ours;    // overlapped
  owned_handle childs;  // inheritable
};

// A pipe with a name no one else has (FILE_FLAG_FIRST_PIPE_INSTANCE), which
// no other machine may open; `inbound`: we read, the child writes.
pipe_ends make_child_pipe(bool inbound) {
  static std::atomic<unsigned long> pipes{0};
  const std::wstring name = L"\\\\.\\pipe\\caduceus-" + std::to_wstring(GetCurrentProcessId()) + L"-" +
                            std::to_wstring(++pipes) + L"-" + std::to_wstring(GetTickCount64());
  pipe_ends ends;
  ends.ours = owned_handle(CreateNamedPipeW(
      name.c_str(), (inbound ? PIPE_ACCESS_INBOUND : PIPE_ACCESS_OUTBOUND) | FILE_FLAG_OVERLAPPED | FILE_FLAG_FIRST_PIPE_INSTANCE,
      PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, 1, 64 * 1024, 64 * 1024, 0,
      nullptr));
  if (!ends.ours) throw mcp::error(child_error(GetLastError()), "pipe");
  SECURITY_ATTRIBUTES inheritable{};
  inheritable.nLength = sizeof inheritable;
  inheritable.bInheritHandle = TRUE;
  // FILE_*_ATTRIBUTES: a child may ask about its end, or set its mode.
  const DWORD access = inbound ? GENERIC_WRITE | FILE_READ_ATTRIBUTES : GENERIC_READ | FILE_WRITE_ATTRIBUTES;
  ends.childs = owned_handle(CreateFileW(name.c_str(), access, 0, &inheritable, OPEN_EXISTING, 0, nullptr));
  if (!ends.childs) throw mcp::error(child_error(GetLastError()), "pipe");
  return ends;
}

// Our stderr for the child (an inheritable copy), or NUL when we have none.
owned_handle inheritable_stderr() {
  HANDLE copy = nullptr;
  const HANDLE ours = GetStdHandle(STD_ERROR_HANDLE);
  if (ours && ours != INVALID_HANDLE_VALUE &&
      DuplicateHandle(GetCurrentProcess(), ours, GetCurrentProcess(), &copy, 0, TRUE, DUPLICATE_SAME_ACCESS))
    return owned_handle(copy);
  SECURITY_ATTRIBUTES inheritable{};
  inheritable.nLength = sizeof inheritable;
  inheritable.bInheritHandle = TRUE;
  owned_handle nul(CreateFileW(L"NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &inheritable, OPEN_EXISTING,
                               0, nullptr));
  if (!nul) throw mcp::error(child_error(GetLastError()), "open NUL");
  return nul;
}

// PROC_THREAD_ATTRIBUTE_HANDLE_LIST: the handles the child inherits, no other.
class inherited_handles {
 public:
  inherited_handles(HANDLE* handles, std::size_t count) {
    SIZE_T size = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &size);
    storage_.resize(size);
    list_ = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(storage_.data());
    if (!InitializeProcThreadAttributeList(list_, 1, 0, &size)) {
      list_ = nullptr;
      throw mcp::error(child_error(GetLastError()), "spawn");
    }
    if (!UpdateProcThreadAttribute(list_, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles, count * sizeof(HANDLE),
                                   nullptr, nullptr))
      throw mcp::error(child_error(GetLastError()), "spawn");
  }
  ~inherited_handles() {
    if (list_) DeleteProcThreadAttributeList(list_);
  }
  inherited_handles(const inherited_handles&) = delete;
  inherited_handles& operator=(const inherited_handles&) = delete;
  LPPROC_THREAD_ATTRIBUTE_LIST get() const noexcept { return list_; }

 private:
  std::vector<char> storage_;  // (aligned enough: operator new's alignment)
  LPPROC_THREAD_ATTRIBUTE_LIST list_ = nullptr;
};

// A Job Object that ends its processes when it is closed (we close it, or we
// end), and whose processes die at once on a crash (no error dialog waits).
// Null when Windows will not give one.
owned_handle make_kill_on_close_job() {
  owned_handle job(CreateJobObjectW(nullptr, nullptr));
  if (!job) return job;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE |
                                            JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION |
                                            JOB_OBJECT_LIMIT_BREAKAWAY_OK;
  if (!SetInformationJobObject(job.get(), JobObjectExtendedLimitInformation, &limits, sizeof limits))
    return owned_handle();
  return job;
}

}  // namespace

child_process::child_process(asio::any_io_executor ex, const child_spec& spec) : native_(std::make_unique<native>()) {
  const std::string context = "spawn " + spec.command;
  const auto program = find_program(spec);
  if (program.empty())
    throw mcp::error(boost::system::error_code(ENOENT, boost::system::generic_category()), context);
  auto command = build_command_line(spec, program);
  auto environment = build_environment(spec);
  const auto directory =
      spec.working_directory ? utf8_to_utf16(*spec.working_directory, "the working directory") : std::wstring();

  auto to_child = make_child_pipe(false);
  auto from_child = make_child_pipe(true);
  pipe_ends errors;
  if (spec.pipe_stderr) errors = make_child_pipe(true);
  else errors.childs = inheritable_stderr();
  HANDLE handles[] = {to_child.childs.get(), from_child.childs.get(), errors.childs.get()};
  inherited_handles inherited(handles, 3);

  STARTUPINFOEXW startup{};
  startup.StartupInfo.cb = sizeof startup;
  startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  startup.StartupInfo.hStdInput = handles[0];
  startup.StartupInfo.hStdOutput = handles[1];
  startup.StartupInfo.hStdError = handles[2];
  startup.lpAttributeList = inherited.get();
  // Our console when we have one with a window (then Ctrl-Break reaches the
  // child); else none of its own that would show a window.
  native_->shares_console = GetConsoleWindow() != nullptr;
  DWORD flags = EXTENDED_STARTUPINFO_PRESENT | CREATE_UNICODE_ENVIRONMENT | CREATE_NEW_PROCESS_GROUP | CREATE_SUSPENDED;
  if (!native_->shares_console) flags |= CREATE_NO_WINDOW;
  PROCESS_INFORMATION started{};
  if (!CreateProcessW(command.application.c_str(), command.line.data(), nullptr, nullptr, TRUE, flags,
                      environment.empty() ? nullptr : environment.data(), directory.empty() ? nullptr : directory.c_str(),
                      &startup.StartupInfo, &started))
    throw mcp::error(child_error(GetLastError()), context);
  native_->process = started.hProcess;
  native_->id = started.dwProcessId;
  // In its job before it runs, so that whatever it starts is in it too.
  auto job = make_kill_on_close_job();
  if (job && AssignProcessToJobObject(job.get(), started.hProcess)) native_->job = job.release();
  ResumeThread(started.hThread);
  CloseHandle(started.hThread);

  // The child's ends close as this returns; ours become streams.
  stdin_ = make_pipe_stream(ex, to_child.ours.release());
  stdout_ = make_pipe_stream(ex, from_child.ours.release());
  if (errors.ours) stderr_ = make_pipe_stream(ex, errors.ours.release());
}

child_process::~child_process() {
  if (ended_) return;
  kill();
  WaitForSingleObject(native_->process, 5000);
}

void child_process::request_exit() noexcept {
  // CTRL_BREAK_EVENT to its process group. It reaches only processes that
  // share our console; a child without one is killed after the grace.
  if (!ended_ && native_->shares_console) GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, native_->id);
}

void child_process::kill() noexcept {
  if (ended_) return;
  if (native_->job) TerminateJobObject(native_->job, 1);
  else TerminateProcess(native_->process, 1);
}

bool child_process::try_wait() noexcept {
  if (ended_) return true;
  const DWORD state = WaitForSingleObject(native_->process, 0);
  if (state == WAIT_TIMEOUT) return false;
  ended_ = true;
  DWORD code = 0;
  if (state == WAIT_OBJECT_0 && GetExitCodeProcess(native_->process, &code)) exit_status_ = static_cast<int>(code);
  return true;
}

}  // namespace mcp::detail
