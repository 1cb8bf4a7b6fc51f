// endpoint_thread (endpoint_thread.hpp) on POSIX systems: sigwait.

#include "endpoint_thread.hpp"

#include <pthread.h>

#include <csignal>

namespace {

sigset_t stop_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  return signals;
}

}  // namespace

bool endpoint_thread::prepare_for_stop_signal() {
  const sigset_t signals = stop_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return true;
}

void endpoint_thread::wait_for_stop_signal() const {
  const sigset_t signals = stop_signals();
  int signal = 0;
  sigwait(&signals, &signal);
}
