#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <system_error>
#include <thread>

namespace loadgen {

namespace {

std::system_error last_error(const char* what) { return {errno, std::generic_category(), what}; }

}  // namespace

child_process::child_process(asio::any_io_executor ex, const std::vector<std::string>& command)
    : input_(ex), output_(ex) {
  if (command.empty()) throw std::invalid_argument("no command to start");
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) throw last_error("pipe2");
  if (pipe2(from_child, O_CLOEXEC) != 0) throw last_error("pipe2");
  std::vector<char*> argv;  // built before fork: the child must not allocate
  for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) throw last_error("fork");
  if (pid_ == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the generator died before prctl
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  input_.assign(to_child[1]);
  output_.assign(from_child[0]);
}

child_process::~child_process() { stop(std::chrono::milliseconds(0)); }

void child_process::kill() {
  if (pid_ > 0) ::kill(pid_, SIGKILL);
}

void child_process::stop(std::chrono::milliseconds grace) {
  boost::system::error_code ignored;
  input_.close(ignored);
  if (pid_ <= 0) return;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pid_ = -1;
  output_.close(ignored);
}

}  // namespace loadgen
