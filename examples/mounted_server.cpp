// serve_mounted (mounted_server.hpp): the server by its name.

#include "mounted_server.hpp"

#include <iostream>

int serve_mounted(std::string_view kind, mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                  std::uint16_t port) {
  options.threads = 1;  // each runs the endpoint on one thread of its own
  if (kind == "beast") return serve_mounted_in_beast(behaviour, std::move(options), port);
#ifdef CADUCEUS_WITH_HTTPLIB
  if (kind == "httplib") return serve_mounted_in_httplib(behaviour, std::move(options), port);
#endif
#ifdef CADUCEUS_WITH_CIVETWEB
  if (kind == "civetweb") return serve_mounted_in_civetweb(behaviour, std::move(options), port);
#endif
  std::cerr << "no " << kind << " server in this build\n";
  return 2;
}
