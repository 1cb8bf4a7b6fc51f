#pragma once
// The HTTP client transport behind connect_http, told what its frames hold
// by a message_binding.

#include "message_binding.hpp"

#include <mcp/transport/http_client.hpp>

#include <memory>
#include <string>

namespace mcp::detail::http_client {

/// A transport to the server at `url`, as connect_http documents it, which
/// asks `messages` what the frames it carries hold. Throws as connect_http does.
std::unique_ptr<message_transport> make_transport(asio::any_io_executor ex, std::string url,
                                                  http_client_options options,
                                                  std::shared_ptr<const message_binding> messages);

}  // namespace mcp::detail::http_client
