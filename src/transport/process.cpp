#include <mcp/transport/process.hpp>
#include <mcp/error.hpp>

#include "child_process.hpp"
#include "line_transport.hpp"

#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>
#include <stdexcept>


namespace mcp {

namespace {

constexpr std::size_t max_stderr_line = 64 * 1024;
constexpr std::chrono::milliseconds kill_grace{2000};

asio::awaitable<void> forward_stderr(std::shared_ptr<detail::byte_stream> stream,
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
  process_transport(asio::any_io_executor ex, std::unique_ptr<detail::child_process> child,
                    process_options options)
      : line_transport(ex, child->take_stdout(), child->take_stdin(), options.max_frame_size),
        child_(std::move(child)), stderr_(child_->take_stderr()), options_(std::move(options)) {
    auto sink = options_.on_stderr;
    if (!sink)
      sink = [](std::string_view line) {
        std::fprintf(stderr, "%.*s\n", int(line.size()), line.data());
      };
    asio::co_spawn(ex, forward_stderr(stderr_, std::move(sink)), asio::detached);
  }

  // The client's side of stdio.
  transport_metadata metadata() const override {
    transport_metadata m;
    m.kind = "stdio";
    return m;
  }

  // The child is killed and reaped (child_process's destructor) unless it
  // has ended.
  ~process_transport() override { stderr_->close(); }

  asio::awaitable<void> close() override {
    if (closing_) co_return;
    closing_ = true;
    close_output();  // the child reads end of stream on stdin
    bool exited = co_await wait_exit(options_.exit_grace);
    if (!exited) {
      sdk_log(log_category::transport, log_level::info, "child did not exit; sending SIGTERM", {{"command", options_.command}});
      child_->request_exit();
      exited = co_await wait_exit(options_.terminate_grace);
    }
    if (!exited) {
      sdk_log(log_category::transport, log_level::warn, "child ignored SIGTERM; sending SIGKILL", {{"command", options_.command}});
      child_->kill();
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
      if (child_->try_wait()) co_return true;
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) co_return false;
      timer.expires_at(std::min(deadline, now + step));
      co_await timer.async_wait(asio::use_awaitable);
      step = std::min(step * 2, std::chrono::milliseconds{50});
    }
  }

  std::unique_ptr<detail::child_process> child_;
  bool closing_ = false;
  std::shared_ptr<detail::byte_stream> stderr_;
  process_options options_;
};

}  // namespace

std::unique_ptr<message_transport> spawn_process(asio::any_io_executor ex,
                                                 process_options options) {
  detail::child_spec spec;
  spec.command = options.command;
  spec.args = options.args;
  spec.inherit_environment = options.inherit_environment;
  spec.environment = options.env;
  spec.working_directory = options.working_directory;
  // (child_process_posix.cpp, child_process_windows.cpp)
  auto child = std::make_unique<detail::child_process>(ex, spec);
  return std::make_unique<process_transport>(ex, std::move(child), std::move(options));
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
