#pragma once
// What a server that runs each request on a worker thread of its own
// (cpp-httplib, CivetWeb) needs around a mounted endpoint (mounted_server.hpp):
// a way to wait for SIGINT and SIGTERM (on Windows Ctrl-C, Ctrl-Break and the
// console closing), and the endpoint's executor, an io_context run by one
// thread of its own (never the server's workers, which wait on it). The
// waiting differs: endpoint_thread_posix.cpp, endpoint_thread_windows.cpp.

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <thread>

class endpoint_thread {
 public:
  /// Prepares for the stop signals before any other thread starts (POSIX:
  /// blocks SIGINT and SIGTERM in this thread, so that every thread inherits
  /// that and sigwait() gets them), then starts the io_context's thread.
  endpoint_thread()
      : prepared_(prepare_for_stop_signal()), work_(io_.get_executor()), thread_([this] { io_.run(); }) {}
  /// Lets the thread end and joins it: stop the endpoint first.
  ~endpoint_thread() {
    work_.reset();
    thread_.join();
  }
  endpoint_thread(const endpoint_thread&) = delete;
  endpoint_thread& operator=(const endpoint_thread&) = delete;

  boost::asio::io_context::executor_type executor() { return io_.get_executor(); }
  /// Blocks the calling thread until SIGINT or SIGTERM (Windows: a console
  /// control event).
  void wait_for_stop_signal() const;

 private:
  static bool prepare_for_stop_signal();

  [[maybe_unused]] bool prepared_;  // set first: before the thread starts
  boost::asio::io_context io_{1};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
};
