#pragma once
// What caduceus answers when the server asks something of the person at the
// terminal: elicitation forms field by field and URL elicitations (both on
// the terminal), roots from --root, and sampling by --sampling-command or a
// refusal. In the 2026-07-28 era the client library brings the same
// questions from input_required results to the same handlers.

#include "arguments.hpp"
#include "terminal.hpp"

#include <mcp/client/client.hpp>

#include <map>
#include <memory>
#include <string>

namespace caduceus {

class server_requests : public std::enable_shared_from_this<server_requests> {
 public:
  server_requests(std::shared_ptr<terminal> term, const invocation& inv);

  /// Sets the client's handlers (before connect: they declare the
  /// capabilities). Elicitation (form and url) and sampling are always
  /// declared, roots only with --root.
  void install(mcp::client& client);
  /// Once connected: the server's name, for the questions.
  void connected(const mcp::client& client);
  /// A notification from the server: notifications/elicitation/complete of a
  /// URL the person agreed to open is printed; every other one is ignored.
  void notice(const mcp::notification& note);
  /// A -32042 error (URLElicitationRequiredError) lists the URLs the person
  /// must open before trying again: printed on stderr.
  void print_required_urls(const mcp::protocol_error& error);

  // The handlers' bodies (public for the free coroutines that run them).
  boost::asio::awaitable<json::object> elicit(json::object params);
  boost::asio::awaitable<json::object> sample(json::object params);

 private:
  boost::asio::awaitable<json::object> fill_in_form(const std::string& message, const json::object& schema);
  boost::asio::awaitable<json::object> open_url(const std::string& message, const std::string& url,
                                                const std::string& id);

  std::shared_ptr<terminal> term_;
  std::string server_ = "the server";
  std::vector<std::string> sampling_command_;
  std::chrono::milliseconds sampling_limit_;
  std::vector<mcp::root> roots_;
  std::map<std::string, std::string> open_urls_;  ///< URL elicitations accepted: id -> URL
};

}  // namespace caduceus
