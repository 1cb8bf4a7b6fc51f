#pragma once
// The client's side of opening a connection and of a modern request, as
// decisions without I/O: which version to probe server/discover with and
// which to ask initialize for, what a discover result or a -32022 refusal
// says, and the rounds of a multi-round request (the server asks for input,
// the client answers and asks again). client/session.cpp and
// client/modern.cpp send what these say and hand back what came.

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mcp::detail {

namespace json = boost::json;

/// The versions a client speaks, and what it makes of a server's answers.
class version_choice {
 public:
  explicit version_choice(std::span<const protocol_version> ours) noexcept : ours_(ours) {}

  /// The newest modern version we speak: server/discover probes with it.
  /// None: the connection goes straight to initialize.
  std::optional<protocol_version> newest_modern() const noexcept;
  /// The newest legacy version we speak: initialize asks for it.
  std::optional<protocol_version> newest_legacy() const noexcept;

  /// What a server/discover result opens: the newest modern version both
  /// sides speak, with the server's capabilities, info and instructions.
  /// None when no version is shared (the client falls back to initialize).
  std::optional<initialize_result> read_discover_result(const json::object& result) const;

  /// The newest modern version, of those we speak, that a -32022 refusal
  /// names instead (`data.supported`; over HTTP `data.serverData.supported`).
  /// None for another error or when no version is shared.
  std::optional<protocol_version> offered_instead(const rpc_error& refusal) const;

 private:
  std::optional<protocol_version> newest_shared(const std::vector<std::string>& offered) const;

  std::span<const protocol_version> ours_;
};

/// One input request of a round, with the key the server gave it.
struct asked_input {
  std::string key;
  request req;  ///< id 0: it travels inside a result, not as a message
};

/// What one input_required result asks: the requests in the server's
/// order, and the state to send back with their answers.
struct asked_round {
  std::vector<asked_input> requests;
  std::optional<std::string> request_state;
};

/// The rounds of one modern request. Each result either completes it or
/// (resultType "input_required") asks for input; the answers go into the
/// next round's params with the server's requestState, byte for byte.
class request_rounds {
 public:
  /// A server that keeps asking is refused after this many rounds.
  static constexpr int max_rounds = 16;

  explicit request_rounds(std::string method) : method_(std::move(method)) {}

  /// What `result` asks for, in the order asked; none when it is complete
  /// (a result without resultType comes from a server before it existed).
  /// Throws protocol_error(-32603) at the last round and (-32602) for a
  /// malformed inputRequests entry, before anything is answered.
  std::optional<asked_round> input_asked(const json::object& result);

  /// Makes `params` the next round's: the answers by key and the state the
  /// server sent; nothing of an earlier round stays behind.
  static void next_round(json::object& params, json::object answers, std::optional<std::string> request_state);

 private:
  std::string method_;
  int round_ = 0;
};

}  // namespace mcp::detail
