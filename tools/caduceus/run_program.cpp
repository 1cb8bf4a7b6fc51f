#include "run_program.hpp"

// The library's child-process part, compiled into the tool since the library
// exports no internals (CMakeLists.txt: child_process_posix.cpp or
// _windows.cpp, and the byte_stream file beside it).
#include "../../src/transport/child_process.hpp"

#include <mcp/error.hpp>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <memory>
#include <stdexcept>

namespace caduceus {

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;
using mcp::detail::byte_stream;
using mcp::detail::child_process;

asio::awaitable<void> feed_program(byte_stream& to, const std::string& input) {
  try {
    co_await to.write_all(input);
  } catch (const std::exception&) {
    // a program that does not read its input may exit before it took it all
  }
  to.close();  // end of its input
}

// Reads to the end, or until more than `max_output` bytes came (then stops
// the writer too: the program will be killed).
asio::awaitable<void> collect_program_output(byte_stream& from, byte_stream& to, std::string& out,
                                             std::size_t max_output) {
  std::vector<char> chunk(16 * 1024);
  for (;;) {
    std::size_t n = 0;
    bool failed = false;
    try {
      n = co_await from.read_some(chunk.data(), chunk.size());
    } catch (const std::exception&) {
      failed = true;
    }
    if (failed || n == 0) co_return;
    out.append(chunk.data(), n);
    if (out.size() > max_output) {
      to.close();
      co_return;
    }
  }
}

// Its exit, polled: SIGCHLD belongs to whoever else starts children here.
asio::awaitable<void> reap_program(child_process& child) {
  asio::steady_timer pause(co_await asio::this_coro::executor);
  while (!child.try_wait()) {
    pause.expires_after(10ms);
    co_await pause.async_wait(asio::use_awaitable);
  }
}

asio::awaitable<void> communicate(byte_stream& to, byte_stream& from, const std::string& input, std::string& out,
                                  std::size_t max_output, child_process& child) {
  using namespace asio::experimental::awaitable_operators;
  auto writing = feed_program(to, input);
  auto reading = collect_program_output(from, to, out, max_output);
  co_await (std::move(writing) && std::move(reading));
  if (out.size() > max_output) co_return;  // killed by child_process's destructor
  co_await reap_program(child);
}

std::unique_ptr<child_process> start_program(const asio::any_io_executor& ex, const std::vector<std::string>& argv) {
  mcp::detail::child_spec spec;
  spec.command = argv.front();
  spec.args.assign(argv.begin() + 1, argv.end());
  spec.pipe_stderr = false;  // its stderr is ours
  spec.signal_group = true;  // killed with whatever it started
  try {
    return std::make_unique<child_process>(ex, spec);
  } catch (const mcp::error& e) {
    throw std::runtime_error("cannot start " + argv.front() + ": " + e.code().message());
  }
}

}  // namespace

asio::awaitable<program_output> run_program(std::vector<std::string> argv, std::string input,
                                            std::chrono::milliseconds limit, std::size_t max_output) {
  using namespace asio::experimental::awaitable_operators;
  if (argv.empty()) throw std::runtime_error("no program to run");
  auto ex = co_await asio::this_coro::executor;
  // Killed and reaped however we leave, unless it has ended.
  const auto child = start_program(ex, argv);
  const auto to = child->take_stdin();
  const auto from = child->take_stdout();

  program_output result;
  asio::steady_timer deadline(ex);
  deadline.expires_after(limit);
  auto work = communicate(*to, *from, input, result.out, max_output, *child);
  auto expiry = deadline.async_wait(asio::use_awaitable);
  const auto outcome = co_await (std::move(work) || std::move(expiry));
  if (outcome.index() == 1)
    throw std::runtime_error(argv.front() + " did not finish within " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) + " s");
  if (result.out.size() > max_output)
    throw std::runtime_error(argv.front() + " printed more than " + std::to_string(max_output) + " bytes");
  if (!child->exit_status()) throw std::runtime_error("lost track of " + argv.front());
  result.exit_status = *child->exit_status();
  co_return result;
}

}  // namespace caduceus
