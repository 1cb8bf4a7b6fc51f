#include "server_requests.hpp"

#include "ascii.hpp"
#include "form.hpp"
#include "json_output.hpp"
#include "run_program.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>

#include <iostream>

namespace caduceus {

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

// The spec's error for a sampling request the user rejected (client/sampling).
constexpr int user_rejected = -1;
constexpr std::size_t max_sampling_output = 1024 * 1024;
// The model named in a result made of a command's plain text.
constexpr std::string_view command_model = "caduceus-cli-command";

json::object action(std::string_view what) { return json::object{{"action", what}}; }

std::string string_param(const json::object& params, std::string_view key) {
  const auto* v = params.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// The handlers are plain lambdas that start these coroutines: a lambda that
// is itself a coroutine would read its captures from the std::function the
// client holds, for as long as the coroutine runs.
asio::awaitable<json::object> run_elicit(std::shared_ptr<server_requests> self, json::object params) {
  co_return co_await self->elicit(std::move(params));
}

asio::awaitable<json::object> run_sample(std::shared_ptr<server_requests> self, json::object params) {
  co_return co_await self->sample(std::move(params));
}

// What a program printed, as a CreateMessageResult: its JSON object when it
// printed one with content, else its text as one text block.
json::object sampling_result(const std::string& out) {
  std::string text = out;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw mcp::protocol_error(mcp::errc::internal_error, "the sampling command printed nothing");
  boost::system::error_code ec;
  auto value = json::parse(text, ec);
  if (!ec && value.is_object() && value.get_object().contains("content")) {
    auto& result = value.get_object();
    if (!result.contains("role")) result["role"] = "assistant";
    if (!result.contains("model")) result["model"] = command_model;
    return std::move(result);
  }
  return json::object{{"role", "assistant"},
                      {"content", json::object{{"type", "text"}, {"text", text}}},
                      {"model", command_model},
                      {"stopReason", "endTurn"}};
}

}  // namespace

server_requests::server_requests(std::shared_ptr<terminal> term, const invocation& inv)
    : term_(std::move(term)),
      sampling_command_(inv.sampling_command),
      sampling_limit_(inv.timeout.value_or(30s)),
      roots_(inv.roots) {}

void server_requests::install(mcp::client& client) {
  auto self = shared_from_this();
  client.on_elicitation([self](json::object params) { return run_elicit(self, std::move(params)); });
  client.on_sampling([self](json::object params) { return run_sample(self, std::move(params)); });
  if (!roots_.empty()) client.set_roots(roots_);  // without them, roots/list gets -32601
}

void server_requests::connected(const mcp::client& client) {
  const auto& info = client.server().server_info;
  server_ = info.name.empty() ? std::string("the server") : info.name;
}

void server_requests::notice(const mcp::notification& note) {
  if (note.method != mcp::methods::notifications_elicitation_complete) return;
  const auto id = string_param(note.params, "elicitationId");
  const auto it = open_urls_.find(id);
  if (it == open_urls_.end()) return;  // unknown or already complete: ignored (the spec's MUST)
  term_->say(server_ + " says the interaction at " + it->second + " is complete\n");
  open_urls_.erase(it);
}

void server_requests::print_required_urls(const mcp::protocol_error& error) {
  if (error.code() != mcp::errc::url_elicitation_required || !error.error().data.is_object()) return;
  const auto* list = error.error().data.get_object().if_contains("elicitations");
  if (!list || !list->is_array()) return;
  for (const auto& item : list->get_array()) {
    if (!item.is_object()) continue;
    const auto url = string_param(item.get_object(), "url");
    if (url.empty()) continue;
    const auto message = string_param(item.get_object(), "message");
    term_->say(server_ + " needs you to open a web page first" + (message.empty() ? "" : ": " + message) +
               "\n  " + url + "\n");
  }
}

asio::awaitable<json::object> server_requests::elicit(json::object params) {
  auto mode = params.contains("mode") ? string_param(params, "mode") : std::string("form");
  const auto message = string_param(params, "message");
  if (mode == "form") {
    const auto* schema = params.if_contains("requestedSchema");
    if (!schema || !schema->is_object())
      throw mcp::protocol_error(mcp::errc::invalid_params, "elicitation/create: requestedSchema must be an object");
    co_return co_await fill_in_form(message, schema->get_object());
  }
  if (mode == "url") {
    const auto url = string_param(params, "url");
    if (!boost::urls::parse_absolute_uri(url))
      throw mcp::protocol_error(mcp::errc::invalid_params, "elicitation/create: url must be a valid URL");
    const auto id = string_param(params, "elicitationId");
    co_return co_await open_url(message, url, id);
  }
  // The spec: a mode the client did not declare is -32602.
  throw mcp::protocol_error(mcp::errc::invalid_params,
                            "elicitation/create: mode '" + mode + "' is not one the client declared (form, url)");
}

// The form, field by field, then the answers to review: sent, declined or
// edited. Ctrl-C and the end of input cancel (the spec's "dismissed without
// an explicit choice"); only an explicit "no" declines.
asio::awaitable<json::object> server_requests::fill_in_form(const std::string& message, const json::object& schema) {
  const auto fields = read_form(schema);
  auto& term = *term_;
  auto dialog = co_await term.open_dialog();
  term.say("\n" + server_ + " asks: " + message + "\n" +
           "(Enter takes the [default]; Ctrl-C cancels; you review the answers before they go)\n");
  auto cancelled = [&](const reply& r) {
    term.say(r.what == reply::kind::interrupted ? "cancelled: " + server_ + " is told you dismissed it\n"
                                                : "no answer: " + server_ + " is told you dismissed it\n");
    return action("cancel");
  };
  json::object values;
  for (;;) {
    for (const auto& field : fields) {
      term.say("\n" + describe_field(field));
      std::optional<json::value> current = field.fallback;
      if (const auto* given = values.if_contains(field.name)) current = *given;
      for (;;) {
        const auto prompt = current ? "[" + show_value(field, *current) + "] > " : std::string("> ");
        const auto r = co_await term.ask(prompt);
        if (r.what != reply::kind::line) co_return cancelled(r);
        const auto answer = read_answer(field, r.text, current);
        if (const auto* wrong = std::get_if<std::string>(&answer)) {
          term.say("  ! " + *wrong + "\n");
          continue;
        }
        if (const auto* value = std::get_if<json::value>(&answer))
          values[field.name] = *value;
        else
          values.erase(field.name);
        break;
      }
    }
    std::string review = "\nYour answer to " + server_ + ":\n";
    for (const auto& field : fields)
      if (const auto* value = values.if_contains(field.name))
        review += "  " + field.label + ": " + show_value(field, *value) + "\n";
    if (values.empty()) review += "  (nothing)\n";
    term.say(review);
    for (;;) {
      const auto r = co_await term.ask("Send it? [Y]es, [n]o (decline), [e]dit > ");
      if (r.what != reply::kind::line) co_return cancelled(r);
      const auto word = lower(r.text);
      if (word.empty() || word == "y" || word == "yes") {
        term.say("sent\n");
        co_return json::object{{"action", "accept"}, {"content", values}};
      }
      if (word == "n" || word == "no") {
        term.say("declined\n");
        co_return action("decline");
      }
      if (word == "e" || word == "edit") break;
      term.say("  ! answer y, n or e\n");
    }
  }
}

asio::awaitable<json::object> server_requests::open_url(const std::string& message, const std::string& url,
                                                        const std::string& id) {
  auto& term = *term_;
  auto dialog = co_await term.open_dialog();
  const auto parsed = boost::urls::parse_absolute_uri(url);
  const std::string host = parsed ? std::string(parsed->host()) : std::string();
  term.say("\n" + server_ + " asks you to open a web page" + (message.empty() ? "" : ": " + message) + "\n  " +
           url + "\n" + (host.empty() ? "" : "  (on " + host + "; caduceus does not open it for you)\n"));
  for (;;) {
    const auto r = co_await term.ask("Open it yourself, then answer y; n declines. [y/n] > ");
    if (r.what != reply::kind::line) {
      term.say("cancelled: " + server_ + " is told you dismissed it\n");
      co_return action("cancel");
    }
    const auto word = lower(r.text);
    if (word == "y" || word == "yes") {
      if (!id.empty()) open_urls_[id] = url;
      co_return action("accept");
    }
    if (word == "n" || word == "no") {
      term.say("declined\n");
      co_return action("decline");
    }
    term.say("  ! answer y or n\n");
  }
}

asio::awaitable<json::object> server_requests::sample(json::object params) {
  if (sampling_command_.empty()) {
    term_->say("caduceus: declined " + server_ +
               "'s request for an LLM completion (sampling): give --sampling-command CMD to answer such requests\n");
    throw mcp::protocol_error(user_rejected, "User rejected sampling request");
  }
  const auto& program = sampling_command_.front();
  program_output output;
  try {
    auto argv = sampling_command_;
    auto input = json_text(params) + "\n";
    output = co_await run_program(std::move(argv), std::move(input), sampling_limit_, max_sampling_output);
  } catch (const boost::system::system_error&) {
    throw;  // cancelled: the server withdrew the request
  } catch (const std::exception& e) {
    term_->say("caduceus: the sampling command failed: " + std::string(e.what()) + "\n");
    throw mcp::protocol_error(mcp::errc::internal_error, "The sampling command failed: " + std::string(e.what()));
  }
  if (output.exit_status != 0) {
    const auto reason = program + " exited with status " + std::to_string(output.exit_status);
    term_->say("caduceus: the sampling command failed: " + reason + "\n");
    throw mcp::protocol_error(mcp::errc::internal_error, "The sampling command failed: " + reason);
  }
  co_return sampling_result(output.out);
}

}  // namespace caduceus
