#pragma once
// One unit of HTTP load on a worker's connection, as its mode says, every
// reply checked: one POST (tools/call echo of either era, server/discover),
// or the two POSTs of an input_required round trip (tools/call confirm,
// answered input_required; its retry with the user's answer and the
// requestState, answered with the tool's result).

#include "http_connection.hpp"
#include "http_mode.hpp"
#include "messages.hpp"
#include "reply_check.hpp"

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace loadgen {

class http_exchange {
 public:
  /// `session_id`: the session the POSTs go to (empty: none).
  http_exchange(http_connection& connection, const http_mode& mode, peer_kind peer, std::string session_id);

  /// Sends one unit and checks every reply: what was wrong, empty when
  /// nothing was. Throws boost::system::system_error when the connection fails.
  asio::awaitable<std::string> run(request_ids& ids);

 private:
  /// POSTs `body`: the JSON-RPC message of the reply, or std::nullopt with
  /// `problem` set.
  asio::awaitable<std::optional<std::string>> post(const std::string& body, std::string& problem);
  asio::awaitable<std::string> input_round_trip(request_ids& ids);

  http_connection& connection_;
  const http_mode& mode_;
  peer_kind peer_;
  std::string session_id_;
  // The Accept value, then (2026-07-28) the mode's request metadata headers:
  // http_connection writes the Accept value as it is, a CRLF after it.
  std::string accept_and_routing_;
};

}  // namespace loadgen
