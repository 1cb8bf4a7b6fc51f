#pragma once
// What a server that runs each request on a worker thread of its own
// (cpp-httplib, CivetWeb) needs around a mounted endpoint (mounted_server.hpp):
// SIGINT and SIGTERM waited for with sigwait, and the endpoint's executor, an
// io_context run by one thread of its own (never the server's workers, which
// wait on it).

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <csignal>
#include <thread>

class endpoint_thread {
 public:
  /// Blocks SIGINT and SIGTERM in this thread before any other starts (so
  /// that every thread inherits it and sigwait() gets them), then starts the
  /// io_context's thread.
  endpoint_thread();
  /// Lets the thread end and joins it: stop the endpoint first.
  ~endpoint_thread();
  endpoint_thread(const endpoint_thread&) = delete;
  endpoint_thread& operator=(const endpoint_thread&) = delete;

  boost::asio::io_context::executor_type executor() { return io_.get_executor(); }
  /// Blocks the calling thread until SIGINT or SIGTERM.
  void wait_for_stop_signal() const;

 private:
  sigset_t stop_signals_;
  boost::asio::io_context io_{1};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::thread thread_;
};
