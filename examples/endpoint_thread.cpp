// endpoint_thread (endpoint_thread.hpp).

#include "endpoint_thread.hpp"

#include <pthread.h>

namespace {

sigset_t blocked_stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

}  // namespace

endpoint_thread::endpoint_thread()
    : stop_signals_(blocked_stop_signals()), work_(io_.get_executor()), thread_([this] { io_.run(); }) {}

endpoint_thread::~endpoint_thread() {
  work_.reset();
  thread_.join();
}

void endpoint_thread::wait_for_stop_signal() const {
  int signal = 0;
  sigwait(&stop_signals_, &signal);
}
