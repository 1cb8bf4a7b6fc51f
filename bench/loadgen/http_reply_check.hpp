#pragma once
// The HTTP side of checking a reply: the status, the content type the mode
// asked for, and the one JSON-RPC message in the body (a JSON body, or the
// one data-carrying event of an SSE stream).

#include "http_connection.hpp"
#include "http_mode.hpp"

#include <optional>
#include <string>

namespace loadgen {

/// The JSON-RPC message answering a POST of one request; std::nullopt with
/// `problem` set when the reply is not what the mode asked for.
std::optional<std::string> message_of(http_reply& reply, reply_style style, std::string& problem);

/// std::nullopt when a POST of notifications only got its 202, else what is wrong.
std::optional<std::string> check_accepted(const http_reply& reply);

}  // namespace loadgen
