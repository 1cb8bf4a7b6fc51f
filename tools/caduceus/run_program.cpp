#include "run_program.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <stdexcept>

extern char** environ;

namespace caduceus {

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using descriptor = asio::posix::stream_descriptor;

// Writing to a program that has exited must fail, not kill us.
void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

// The child, killed with its process group and reaped however we leave.
struct child_guard {
  pid_t pid = -1;
  bool reaped = false;
  int status = 0;
  ~child_guard() {
    if (pid <= 0 || reaped) return;
    ::kill(-pid, SIGKILL);
    int ignored;
    while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
    }
  }
};

struct pipe_pair {
  int read_end = -1, write_end = -1;
  pipe_pair() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) < 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    read_end = fds[0];
    write_end = fds[1];
  }
  ~pipe_pair() {
    if (read_end >= 0) ::close(read_end);
    if (write_end >= 0) ::close(write_end);
  }
  int take_read() { return std::exchange(read_end, -1); }
  int take_write() { return std::exchange(write_end, -1); }
};

pid_t spawn(const std::vector<std::string>& argv, int child_in, int child_out) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  posix_spawn_file_actions_adddup2(&actions, child_in, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child_out, STDOUT_FILENO);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &empty);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  std::vector<std::string> words = argv;
  std::vector<char*> pointers;
  for (auto& word : words) pointers.push_back(word.data());
  pointers.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, words.front().c_str(), &actions, &attributes, pointers.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) throw std::runtime_error("cannot start " + argv.front() + ": " + std::strerror(rc));
  return pid;
}

asio::awaitable<void> write_all(descriptor& to, const std::string& input) {
  const auto [ec, n] = co_await asio::async_write(to, asio::buffer(input), asio::as_tuple(asio::use_awaitable));
  (void)ec;  // a program that does not read its input may exit before it took it all
  (void)n;
  boost::system::error_code ignored;
  to.close(ignored);  // end of its input
}

// Reads to the end, or until more than `max_output` bytes came (then stops
// the writer too: the program will be killed).
asio::awaitable<void> read_all(descriptor& from, descriptor& to, std::string& out, std::size_t max_output) {
  std::vector<char> chunk(16 * 1024);
  for (;;) {
    const auto [ec, n] = co_await from.async_read_some(asio::buffer(chunk), asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
    out.append(chunk.data(), n);
    if (out.size() > max_output) {
      boost::system::error_code ignored;
      to.close(ignored);
      co_return;
    }
  }
}

// Its exit, polled: SIGCHLD belongs to whoever else starts children here.
asio::awaitable<void> reap(child_guard& child) {
  asio::steady_timer pause(co_await asio::this_coro::executor);
  for (;;) {
    const pid_t r = ::waitpid(child.pid, &child.status, WNOHANG);
    if (r == child.pid || (r < 0 && errno != EINTR)) {
      child.reaped = r == child.pid;
      co_return;
    }
    pause.expires_after(10ms);
    co_await pause.async_wait(asio::use_awaitable);
  }
}

asio::awaitable<void> communicate(descriptor& to, descriptor& from, const std::string& input, std::string& out,
                                  std::size_t max_output, child_guard& child) {
  using namespace asio::experimental::awaitable_operators;
  auto writing = write_all(to, input);
  auto reading = read_all(from, to, out, max_output);
  co_await (std::move(writing) && std::move(reading));
  if (out.size() > max_output) co_return;  // killed by the guard
  co_await reap(child);
}

}  // namespace

asio::awaitable<program_output> run_program(std::vector<std::string> argv, std::string input,
                                            std::chrono::milliseconds limit, std::size_t max_output) {
  using namespace asio::experimental::awaitable_operators;
  if (argv.empty()) throw std::runtime_error("no program to run");
  ignore_sigpipe();
  auto ex = co_await asio::this_coro::executor;
  pipe_pair in, out;
  child_guard child;
  child.pid = spawn(argv, in.read_end, out.write_end);
  ::close(in.take_read());
  ::close(out.take_write());
  descriptor to(ex, in.take_write());
  descriptor from(ex, out.take_read());

  program_output result;
  asio::steady_timer deadline(ex);
  deadline.expires_after(limit);
  auto work = communicate(to, from, input, result.out, max_output, child);
  auto expiry = deadline.async_wait(asio::use_awaitable);
  const auto outcome = co_await (std::move(work) || std::move(expiry));
  if (outcome.index() == 1)
    throw std::runtime_error(argv.front() + " did not finish within " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) + " s");
  if (result.out.size() > max_output)
    throw std::runtime_error(argv.front() + " printed more than " + std::to_string(max_output) + " bytes");
  if (!child.reaped) throw std::runtime_error("lost track of " + argv.front());
  if (WIFEXITED(child.status)) result.exit_status = WEXITSTATUS(child.status);
  else if (WIFSIGNALED(child.status)) result.exit_status = 128 + WTERMSIG(child.status);
  co_return result;
}

}  // namespace caduceus
