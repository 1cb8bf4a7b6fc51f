// child_process.hpp on POSIX systems: pipes, posix_spawnp, signals, waitpid.

#include "child_process.hpp"

#include <mcp/error.hpp>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <optional>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace mcp::detail {

struct child_process::native {
  pid_t pid = -1;
  bool signal_group = false;
  void signal(int number) const noexcept { ::kill(signal_group ? -pid : pid, number); }
};

namespace {

// pipe2 makes both ends close-on-exec at once. macOS has only pipe(): its
// ends are marked just after, and a child another thread spawns in between
// inherits them (it holds a pipe end open until it execs or exits).
int close_on_exec_pipe(int fds[2]) {
#if defined(__APPLE__)
  if (::pipe(fds) < 0) return -1;
  for (int i = 0; i < 2; ++i) ::fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  return 0;
#else
  return ::pipe2(fds, O_CLOEXEC);
#endif
}

// A pipe whose ends no other child inherits; closes what it still holds.
struct spawn_pipe {
  int read_end = -1;
  int write_end = -1;
  spawn_pipe() {
    int fds[2];
    if (close_on_exec_pipe(fds) < 0)
      throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "pipe");
    read_end = fds[0];
    write_end = fds[1];
  }
  ~spawn_pipe() {
    if (read_end >= 0) ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
  spawn_pipe(const spawn_pipe&) = delete;
  spawn_pipe& operator=(const spawn_pipe&) = delete;
  int take_read() { return std::exchange(read_end, -1); }
  int take_write() { return std::exchange(write_end, -1); }
};

std::vector<std::string> spawn_environment(const child_spec& spec) {
  std::map<std::string, std::string> merged;
  if (spec.inherit_environment) merged = current_environment();
  for (const auto& [key, value] : spec.environment) merged[key] = value;
  std::vector<std::string> out;
  out.reserve(merged.size());
  for (const auto& [key, value] : merged) out.push_back(key + "=" + value);
  return out;
}

std::vector<char*> spawn_pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// RAII for the posix_spawn attribute objects.
struct spawn_setup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  spawn_setup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~spawn_setup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  spawn_setup(const spawn_setup&) = delete;
  spawn_setup& operator=(const spawn_setup&) = delete;
};

pid_t spawn_child(const child_spec& spec, int child_in, int child_out, int child_err) {
  spawn_setup setup;
  posix_spawn_file_actions_adddup2(&setup.actions, child_in, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, child_out, STDOUT_FILENO);
  if (child_err >= 0) posix_spawn_file_actions_adddup2(&setup.actions, child_err, STDERR_FILENO);
  if (spec.working_directory)
    posix_spawn_file_actions_addchdir_np(&setup.actions, spec.working_directory->c_str());

  // We ignore SIGPIPE, and ignored signals survive exec: give the child the
  // default. Its own process group keeps a terminal's Ctrl-C with us: the
  // parent decides when the child stops.
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&setup.attributes, &defaults);
  posix_spawnattr_setsigmask(&setup.attributes, &empty);
  posix_spawnattr_setpgroup(&setup.attributes, 0);
  posix_spawnattr_setflags(&setup.attributes,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);

  std::vector<std::string> argv_strings{spec.command};
  argv_strings.insert(argv_strings.end(), spec.args.begin(), spec.args.end());
  auto env_strings = spawn_environment(spec);
  auto argv = spawn_pointers(argv_strings);
  auto envp = spawn_pointers(env_strings);

  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, spec.command.c_str(), &setup.actions, &setup.attributes,
                                argv.data(), envp.data());
  if (rc != 0)
    throw mcp::error(boost::system::error_code(rc, boost::system::generic_category()), "spawn " + spec.command);
  return pid;
}

}  // namespace

child_process::child_process(asio::any_io_executor ex, const child_spec& spec) : native_(std::make_unique<native>()) {
  ignore_sigpipe();
  spawn_pipe to_child, from_child;
  std::optional<spawn_pipe> errors;
  if (spec.pipe_stderr) errors.emplace();
  native_->pid = spawn_child(spec, to_child.read_end, from_child.write_end, errors ? errors->write_end : -1);
  native_->signal_group = spec.signal_group;
  // The child's ends close here (spawn_pipe's destructor); ours become streams.
  stdin_ = make_pipe_stream(ex, to_child.take_write());
  stdout_ = make_pipe_stream(ex, from_child.take_read());
  if (errors) stderr_ = make_pipe_stream(ex, errors->take_read());
}

child_process::~child_process() {
  if (ended_) return;
  native_->signal(SIGKILL);
  int status = 0;
  while (::waitpid(native_->pid, &status, 0) < 0 && errno == EINTR) {
  }
}

void child_process::request_exit() noexcept {
  if (!ended_) native_->signal(SIGTERM);
}

void child_process::kill() noexcept {
  if (!ended_) native_->signal(SIGKILL);
}

bool child_process::try_wait() noexcept {
  if (ended_) return true;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(native_->pid, &status, WNOHANG);
    if (r == 0) return false;
    if (r < 0 && errno == EINTR) continue;
    ended_ = true;  // reaped, or no longer ours to wait for (ECHILD)
    if (r == native_->pid) {
      if (WIFEXITED(status)) exit_status_ = WEXITSTATUS(status);
      else if (WIFSIGNALED(status)) exit_status_ = 128 + WTERMSIG(status);
    }
    return true;
  }
}

}  // namespace mcp::detail
