#pragma once
// What a server handler sees of its session and of the request it serves.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeindex>

namespace mcp {

namespace asio = boost::asio;

namespace detail {
/// Implemented by the engine that owns a connection; handlers reach the
/// peer through it.
class connection_link {
 public:
  virtual asio::awaitable<void> send_notification(notification n) = 0;
  virtual asio::awaitable<json::object> send_request(std::string method, json::object params,
                                                     std::chrono::milliseconds timeout) = 0;

 protected:
  ~connection_link() = default;
};
}  // namespace detail

/// One client's session: what it negotiated, and state that lives as long as it.
///
/// @par Thread safety
/// Used from the connection's executor only, like everything of one connection.
class session {
 public:
  explicit session(std::string id) : id_(std::move(id)) {}

  const std::string& id() const noexcept { return id_; }
  protocol_version version() const noexcept { return version_; }
  const implementation& client_info() const noexcept { return client_info_; }
  const json::object& client_capabilities() const noexcept { return client_capabilities_; }

  /// Typed per-session state: one `T`, default-constructed on first use and
  /// destroyed with the session. Sessions never see each other's state.
  template <class T>
  T& state() {
    auto& slot = state_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_shared<T>();
    return *static_cast<T*>(slot.get());
  }

  /// Sends a notification that belongs to no request (e.g. list_changed).
  asio::awaitable<void> notify(std::string method, json::object params = {});

 private:
  friend class server_engine;
  friend class request_context;
  std::string id_;
  protocol_version version_ = latest_legacy_version;
  implementation client_info_;
  json::object client_capabilities_;
  std::map<std::type_index, std::shared_ptr<void>> state_;
  detail::connection_link* link_ = nullptr;
};

/// The request a handler serves, and its way back to the client.
///
/// Cancellation: the handler runs with an Asio cancellation slot that fires on
/// `notifications/cancelled` for this request and on shutdown, so every
/// operation it `co_await`s is aborted; `cancelled()` tells a CPU-bound loop
/// to stop. A cancelled request gets no reply, whatever the handler returns.
class request_context {
 public:
  request_context(const request& req, mcp::session& s, const bool& cancelled) noexcept;

  const request_id& id() const noexcept { return request_.id; }
  const std::string& method() const noexcept { return request_.method; }
  /// `params._meta`, or an empty object.
  const json::object& meta() const noexcept;
  mcp::session& session() noexcept { return session_; }
  protocol_version version() const noexcept { return session_.version(); }
  bool cancelled() const noexcept { return cancelled_; }

  /// Reports progress when the client asked for it (`_meta.progressToken`);
  /// otherwise does nothing. Values that do not increase are dropped, as the
  /// spec requires progress to increase; `message` is sent from 2025-03-26 on.
  asio::awaitable<void> progress(double progress, std::optional<double> total = std::nullopt,
                                 std::string_view message = {});

  /// Sends a notification to the client in the context of this request.
  asio::awaitable<void> notify(std::string method, json::object params = {});

  /// Sends a request to the client and waits for its result (throws
  /// protocol_error for an error reply, system_error on timeout).
  asio::awaitable<json::object> request(std::string method, json::object params = {},
                                        std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  const mcp::request& request_;
  mcp::session& session_;
  const bool& cancelled_;
  std::optional<double> last_progress_;
};

}  // namespace mcp
