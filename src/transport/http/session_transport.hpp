#pragma once
// One MCP session over Streamable HTTP, seen by the engine as an ordinary
// message transport: POST bodies are its inbound frames, and each outgoing
// frame is routed to the HTTP response that asked for it (a POST's stream)
// or to the session's standalone GET stream.

#include <mcp/log.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mcp::detail {

/// Frames on their way to one HTTP response.
struct response_stream {
  explicit response_stream(asio::any_io_executor ex) : wake(ex) {
    wake.expires_at(asio::steady_timer::time_point::max());
  }

  // A reader that stopped reading must not make us hold its frames forever.
  static constexpr std::size_t max_pending_frames = 10'000;

  void push(std::string frame) {
    if (frames.size() >= max_pending_frames) {
      if (dropped++ == 0) sdk_log(log_level::warn, "an SSE reader fell too far behind; dropping its frames");
      return;
    }
    frames.push_back(std::move(frame));
    wake.cancel();
  }
  void finish() {
    done = true;
    wake.cancel();
  }

  std::deque<std::string> frames;
  std::set<std::string> awaiting;  // ids of requests this stream still owes an answer
  asio::steady_timer wake;         // cancelled when frames arrive or the stream ends
  bool done = false;
  bool json_only = false;
  std::size_t dropped = 0;  // frames refused because the reader fell too far behind  // a JSON response: frames that merely serve a request go elsewhere
};

class http_session_transport final : public message_transport {
 public:
  http_session_transport(asio::any_io_executor ex, std::string id, transport_metadata metadata);

  const std::string& id() const noexcept { return id_; }
  bool closed() const noexcept { return closed_; }

  /// A frame from a POST body for the engine.
  void deliver(std::string frame);
  /// The stream that will carry the answers to `request_ids` (JSON texts).
  std::shared_ptr<response_stream> open_stream(const std::vector<std::string>& request_ids,
                                               bool json_only);
  /// The standalone stream of a GET; null when one is open already.
  std::shared_ptr<response_stream> open_standalone();
  void release_standalone(const std::shared_ptr<response_stream>& stream);

  asio::any_io_executor get_executor() override { return executor_; }
  asio::awaitable<std::optional<inbound_frame>> read_frame() override;
  asio::awaitable<void> write_frame(std::string frame) override;
  asio::awaitable<void> write_routed(std::string frame, frame_context context) override;
  asio::awaitable<void> close() override;
  void abandon(const std::string& request_id) override;
  transport_metadata metadata() const override { return metadata_; }

 private:
  void to_standalone(std::string frame);

  asio::any_io_executor executor_;
  std::string id_;
  transport_metadata metadata_;
  std::deque<std::string> inbound_;
  asio::steady_timer inbound_ready_;
  std::map<std::string, std::shared_ptr<response_stream>> streams_;  // by request id
  std::shared_ptr<response_stream> standalone_;
  bool closed_ = false;
};

}  // namespace mcp::detail
