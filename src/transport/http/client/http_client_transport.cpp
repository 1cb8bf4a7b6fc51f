// The message_transport over HTTP. It reads from the shared inbound queue
// and writes through the engine of the mode: Streamable HTTP, HTTP+SSE, or
// Streamable HTTP that switches to HTTP+SSE when the server refuses the
// initialize POST (the spec's backwards-compatibility rule).

#include "http_client_transport.hpp"

#include "core.hpp"
#include "legacy.hpp"
#include "streamable.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <stdexcept>

namespace mcp::detail::http_client {

namespace {

// The least the inbound queue holds before producers wait.
constexpr std::size_t min_inbound_bytes = 16 * 1024 * 1024;

class http_client_transport final : public message_transport {
 public:
  explicit http_client_transport(std::shared_ptr<client_core> core) : core_(std::move(core)) {
    const auto mode = core_->options.mode;
    if (mode == http_mode::legacy_sse)
      legacy_ = std::make_shared<legacy_engine>(core_);
    else
      streamable_ = std::make_shared<streamable_engine>(core_, mode == http_mode::automatic);
  }

  ~http_client_transport() override {
    if (streamable_) streamable_->abort();
    if (legacy_) legacy_->abort();
    core_->inbound->close();
    core_->pool->close_all();
  }

  asio::any_io_executor get_executor() override { return core_->executor; }

  asio::awaitable<std::optional<inbound_frame>> read_frame() override {
    auto inbound = core_->inbound;  // the transport may go while we wait
    co_return co_await inbound->pop();
  }

  asio::awaitable<void> write_frame(std::string frame) override {
    frame_context plain;
    co_await write_routed(std::move(frame), std::move(plain));
  }

  asio::awaitable<void> write_routed(std::string frame, frame_context context) override {
    if (closed_) throw mcp::error(asio::error::not_connected, "HTTP transport closed");
    if (legacy_) {
      auto legacy = legacy_;
      co_await legacy->write(std::move(frame), std::move(context.request));
      co_return;
    }
    auto streamable = streamable_;
    // Kept for a fall back: only an initialize (before any session) may need it.
    std::string again;
    if (streamable->may_fall_back()) again = frame;
    const auto outcome = co_await streamable->write(std::move(frame), std::move(context));
    if (outcome == streamable_engine::outcome::fall_back) co_await fall_back(std::move(again));
  }

  asio::awaitable<void> close() override {
    if (closed_) co_return;
    closed_ = true;
    if (auto streamable = streamable_) co_await streamable->close();
    if (auto legacy = legacy_) co_await legacy->close();
    core_->inbound->close();
    core_->pool->close_all();
  }

  void set_protocol_version(std::string_view version) override {
    if (streamable_) streamable_->set_protocol_version(version);
  }

  transport_metadata metadata() const override {
    transport_metadata metadata;
    metadata.kind = "http";
    metadata.peer = core_->endpoint.url;
    if (streamable_) metadata.session_id = streamable_->session_id();
    return metadata;
  }

 private:
  // The server refused the initialize POST with 400, 404 or 405: GET the URL
  // expecting an HTTP+SSE stream whose first event is `endpoint`, and send
  // the initialize there.
  asio::awaitable<void> fall_back(std::string initialize) {
    const auto status = streamable_->fallback_status();
    sdk_log(log_category::transport, log_level::info,
            "the POST of initialize was refused; trying the HTTP+SSE transport (2024-11-05)",
            {{"url", core_->endpoint.url}, {"status", status}});
    auto legacy = std::make_shared<legacy_engine>(core_);
    std::string failure;
    try {
      co_await legacy->start();
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (!failure.empty()) {
      legacy->abort();
      const auto frame = core_->messages->inspect_outgoing(initialize);
      std::string message = "POST " + core_->endpoint.url + " of initialize answered HTTP " +
                            std::to_string(status) + " and the HTTP+SSE transport failed too: " + failure;
      sdk_log(log_category::transport, log_level::info, "no HTTP transport the server speaks", {{"error", message}});
      for (const auto& request : frame.requests) {
        auto answer = core_->messages->failure_answer(request, message);
        co_await core_->inbound->push(std::move(answer));
      }
      co_return;
    }
    // The Streamable HTTP engine did nothing else yet: no stream, no task.
    streamable_.reset();
    legacy_ = legacy;
    std::optional<sent_request> unknown;  // parsed: it was written before the fall back
    co_await legacy->write(std::move(initialize), std::move(unknown));
  }

  std::shared_ptr<client_core> core_;
  std::shared_ptr<streamable_engine> streamable_;
  std::shared_ptr<legacy_engine> legacy_;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<message_transport> make_transport(asio::any_io_executor ex, std::string url,
                                                  http_client_options options,
                                                  std::shared_ptr<const message_binding> messages) {
  if (options.max_message_size == 0) throw mcp::invalid_argument("http_client_options: max_message_size is 0");
  if (options.max_reconnects < 0) options.max_reconnects = 0;
  // A header must not smuggle another header (or a second request) in.
  for (const auto& [name, value] : options.headers) {
    const bool bad_name = name.empty() || name.find_first_of(":\r\n \t") != std::string::npos;
    if (bad_name || value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos)
      throw mcp::invalid_argument("http_client_options: the header " + name + " is not a valid HTTP header");
  }
  auto core = std::make_shared<client_core>();
  core->executor = ex;
  core->endpoint = parse_endpoint(url);
  core->options = std::move(options);
  core->messages = std::move(messages);
  core->pool = std::make_shared<connection_pool>(ex, core->options, core->endpoint.tls);
  core->inbound = std::make_shared<inbound_queue>(
      ex, std::max(min_inbound_bytes, 4 * core->options.max_message_size));
  return std::make_unique<http_client_transport>(std::move(core));
}

}  // namespace mcp::detail::http_client
