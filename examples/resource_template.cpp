// resource-template: a static resource, an RFC 6570 template whose variables
// reach the handler, and completion of the template's variable.
//
//   build/bin/resource-template     (MCP over stdio)

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <boost/json/serialize.hpp>

namespace asio = boost::asio;
using contents = std::vector<mcp::resource_contents>;

int main() {
  mcp::server srv({"notes", "1.0.0"});
  srv.add_resource({"notes://index", "index", std::nullopt, "All notes", "text/plain"},
                   [](const std::string& uri, mcp::request_context&) -> asio::awaitable<contents> {
                     co_return contents{mcp::resource_contents::from_text(uri, "groceries\ntodo")};
                   });
  srv.add_resource_template(
      {"notes://{name}", "note", std::nullopt, "One note by name", "application/json"},
      [](const std::string& uri, const mcp::uri_variables& vars,
         mcp::request_context&) -> asio::awaitable<contents> {
        boost::json::object note{{"name", vars.at("name")}, {"text", "contents of " + vars.at("name")}};
        co_return contents{mcp::resource_contents::from_text(uri, boost::json::serialize(note))};
      });
  srv.add_template_completion("notes://{name}", "name",
                              [](const mcp::completion_request& req,
                                 mcp::request_context&) -> asio::awaitable<std::vector<std::string>> {
                                std::vector<std::string> names;
                                for (std::string n : {"groceries", "todo"})
                                  if (n.starts_with(req.value)) names.push_back(n);
                                co_return names;
                              });
  return mcp::run_stdio_server(srv);
}
