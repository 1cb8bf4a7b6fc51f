// endpoint_thread (endpoint_thread.hpp) on Windows: a console control
// handler (Ctrl-C, Ctrl-Break, the console closing, logoff, shutdown), which
// Windows calls on a thread of its own.

#include "endpoint_thread.hpp"

#include <windows.h>

#include <condition_variable>
#include <mutex>

namespace {

std::mutex stop_mutex;
std::condition_variable stop_changed;
bool stop_requested = false;

BOOL WINAPI on_console_control(DWORD) {
  {
    const std::lock_guard lock(stop_mutex);
    stop_requested = true;
  }
  stop_changed.notify_all();
  return TRUE;  // handled: the process is not ended here (for a closing console, soon after)
}

}  // namespace

bool endpoint_thread::prepare_for_stop_signal() { return SetConsoleCtrlHandler(on_console_control, TRUE) != 0; }

void endpoint_thread::wait_for_stop_signal() const {
  std::unique_lock lock(stop_mutex);
  stop_changed.wait(lock, [] { return stop_requested; });
}
