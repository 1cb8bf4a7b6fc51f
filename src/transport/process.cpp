#include <mcp/transport/process.hpp>
#include <mcp/error.hpp>

#include "line_transport.hpp"

#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>


namespace mcp {

namespace {

constexpr std::size_t max_stderr_line = 64 * 1024;
constexpr std::chrono::milliseconds kill_grace{2000};

struct pipe_pair {
  int read_end = -1;
  int write_end = -1;
  pipe_pair() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) < 0) throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "pipe");
    read_end = fds[0];
    write_end = fds[1];
  }
};

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::vector<std::string> child_environment(const process_options& options) {
  std::map<std::string, std::string> merged;
  if (options.inherit_environment) merged = detail::current_environment();
  for (const auto& [key, value] : options.env) merged[key] = value;
  std::vector<std::string> out;
  out.reserve(merged.size());
  for (const auto& [key, value] : merged) out.push_back(key + "=" + value);
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
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
};

pid_t spawn_child(const process_options& options, int child_in, int child_out, int child_err) {
  spawn_setup setup;
  posix_spawn_file_actions_adddup2(&setup.actions, child_in, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, child_out, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&setup.actions, child_err, STDERR_FILENO);
  if (options.working_directory)
    posix_spawn_file_actions_addchdir_np(&setup.actions, options.working_directory->c_str());

  // We ignore SIGPIPE, and ignored signals survive exec: give the child the
  // default. Its own process group keeps a terminal's Ctrl-C with us: the
  // client decides when the server stops.
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&setup.attributes, &defaults);
  posix_spawnattr_setsigmask(&setup.attributes, &empty);
  posix_spawnattr_setpgroup(&setup.attributes, 0);
  posix_spawnattr_setflags(&setup.attributes,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);

  std::vector<std::string> argv_strings{options.command};
  argv_strings.insert(argv_strings.end(), options.args.begin(), options.args.end());
  auto env_strings = child_environment(options);
  auto argv = pointers(argv_strings);
  auto envp = pointers(env_strings);

  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, options.command.c_str(), &setup.actions, &setup.attributes,
                                argv.data(), envp.data());
  if (rc != 0)
    throw mcp::error(boost::system::error_code(rc, boost::system::generic_category()), "spawn " + options.command);
  return pid;
}

asio::awaitable<void> forward_stderr(std::shared_ptr<detail::fd_stream> stream,
                                     std::function<void(std::string_view)> sink) {
  detail::line_framer framer(max_stderr_line);
  std::vector<char> chunk(4096);
  auto emit = [&](const inbound_frame& line) {
    sink(line.oversized ? std::string_view("[stderr line too long, dropped]") : line.text);
  };
  try {
    for (;;) {
      const auto n = co_await stream->read_some(chunk.data(), chunk.size());
      if (n == 0) break;
      framer.feed({chunk.data(), n});
      while (auto line = framer.next()) emit(*line);
    }
    if (auto line = framer.finish()) emit(*line);
  } catch (const std::exception&) {
    // closed by the transport's shutdown: nothing more to forward
  }
}

class process_transport final : public detail::line_transport {
 public:
  process_transport(asio::any_io_executor ex, pid_t pid, int from_child, int to_child,
                    int child_stderr, process_options options)
      : line_transport(ex, from_child, to_child, options.max_frame_size), pid_(pid),
        stderr_(std::make_shared<detail::fd_stream>(ex, child_stderr)),
        options_(std::move(options)) {
    auto sink = options_.on_stderr;
    if (!sink)
      sink = [](std::string_view line) {
        std::fprintf(stderr, "%.*s\n", int(line.size()), line.data());
      };
    asio::co_spawn(ex, forward_stderr(stderr_, std::move(sink)), asio::detached);
  }

  ~process_transport() override {
    stderr_->close();
    if (reaped_) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }

  asio::awaitable<void> close() override {
    if (closing_) co_return;
    closing_ = true;
    close_output();  // the child reads end of stream on stdin
    bool exited = co_await wait_exit(options_.exit_grace);
    if (!exited) {
      sdk_log(log_category::transport, log_level::info, "child did not exit; sending SIGTERM", {{"command", options_.command}});
      ::kill(pid_, SIGTERM);
      exited = co_await wait_exit(options_.terminate_grace);
    }
    if (!exited) {
      sdk_log(log_category::transport, log_level::warn, "child ignored SIGTERM; sending SIGKILL", {{"command", options_.command}});
      ::kill(pid_, SIGKILL);
      co_await wait_exit(kill_grace);
    }
    close_input();
    stderr_->close();
  }

 private:
  // Polls for the child's exit until the deadline; true once it is reaped.
  asio::awaitable<bool> wait_exit(std::chrono::milliseconds grace) {
    const auto deadline = std::chrono::steady_clock::now() + grace;
    asio::steady_timer timer(get_executor());
    std::chrono::milliseconds step{1};
    for (;;) {
      int status = 0;
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == pid_ || (r < 0 && errno == ECHILD)) {
        reaped_ = true;
        co_return true;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) co_return false;
      timer.expires_at(std::min(deadline, now + step));
      co_await timer.async_wait(asio::use_awaitable);
      step = std::min(step * 2, std::chrono::milliseconds{50});
    }
  }

  pid_t pid_;
  bool reaped_ = false;
  bool closing_ = false;
  std::shared_ptr<detail::fd_stream> stderr_;
  process_options options_;
};

}  // namespace

std::unique_ptr<message_transport> spawn_process(asio::any_io_executor ex,
                                                 process_options options) {
  detail::ignore_sigpipe();
  pipe_pair to_child, from_child, errors;
  pid_t pid = -1;
  try {
    pid = spawn_child(options, to_child.read_end, from_child.write_end, errors.write_end);
  } catch (...) {
    for (int* fd : {&to_child.read_end, &to_child.write_end, &from_child.read_end,
                    &from_child.write_end, &errors.read_end, &errors.write_end})
      close_fd(*fd);
    throw;
  }
  close_fd(to_child.read_end);
  close_fd(from_child.write_end);
  close_fd(errors.write_end);
  return std::make_unique<process_transport>(ex, pid, from_child.read_end, to_child.write_end,
                                             errors.read_end, std::move(options));
}

std::vector<std::string> split_command_line(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < line.size()) {
        word.push_back(line[++i]);
      } else {
        word.push_back(c);
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word.push_back(line[++i]);
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word.push_back(c);
      in_word = true;
    }
  }
  if (quote) throw mcp::invalid_argument("unterminated quote in command line");
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace mcp
