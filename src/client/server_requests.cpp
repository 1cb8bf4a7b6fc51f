// Requests the server sends the client: ping, sampling, elicitation and
// roots, each answered on the side (a handler may wait for its user for
// minutes) and cancellable by the server's notifications/cancelled.

#include "client_impl.hpp"

#include "../detail/signalled_run.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp {

namespace {

[[noreturn]] void not_offered(const std::string& method) {
  throw protocol_error(errc::method_not_found, "Method not found: " + method + " (the client does not offer it)");
}

// SEP-1034: fields of an accepted form that the user left out take the
// defaults of the requested schema.
void fill_form_defaults(const json::object& params, json::object& result) {
  if (const auto* mode = params.if_contains("mode"); mode && *mode != "form") return;
  if (const auto* action = result.if_contains("action"); !action || *action != "accept") return;
  const auto* schema = params.if_contains("requestedSchema");
  const auto* properties = schema && schema->is_object() ? schema->get_object().if_contains("properties") : nullptr;
  if (!properties || !properties->is_object()) return;
  auto& content = result["content"];
  if (content.is_null()) content = json::object();
  if (!content.is_object()) return;
  for (const auto& [name, property] : properties->get_object()) {
    const auto* fallback = property.is_object() ? property.get_object().if_contains("default") : nullptr;
    if (fallback && !content.get_object().contains(name)) content.get_object()[name] = *fallback;
  }
}

}  // namespace

asio::awaitable<json::object> client::impl::serve_server_request(const mcp::request& req) {
  if (req.method == methods::ping) co_return json::object();
  if (options.host_tasks && detail::hosted_tasks::serves(req.method)) co_return co_await hosted.serve(req);
  if (options.host_tasks && detail::hosted_tasks::asks_for_task(req)) {
    detail::hosted_tasks::runner run = [self = shared_from_this()](mcp::request plain) -> asio::awaitable<json::object> {
      co_return co_await self->serve_server_request(plain);
    };
    co_return hosted.start(req, std::move(run));
  }
  if (req.method == methods::sampling_create_message) {
    if (!on_sampling) not_offered(req.method);
    co_return co_await on_sampling(req.params);
  }
  if (req.method == methods::elicitation_create) {
    if (!on_elicitation) not_offered(req.method);
    auto result = co_await on_elicitation(req.params);
    fill_form_defaults(req.params, result);
    co_return result;
  }
  if (req.method == methods::roots_list) {
    if (on_roots) co_return co_await on_roots(req.params);
    if (!roots) not_offered(req.method);
    co_return to_json_value(list_roots_result{*roots}).as_object();
  }
  if (on_server_request) co_return co_await on_server_request(req.method, req.params);
  if (detail::hosted_tasks::serves(req.method)) not_offered(req.method);
  throw protocol_error(errc::method_not_found, "Method not found: " + req.method);
}

asio::awaitable<void> client::impl::answer_server_request(std::shared_ptr<client_link> from, mcp::request req) {
  auto self = shared_from_this();  // the client may be destroyed meanwhile
  detail::signalled_run runner;    // on this frame, which outlives its entry in the table
  core.requests().start(req.id, 0, runner);
  message reply = response{req.id, json::object()};
  try {
    auto work = serve_server_request(req);
    auto result = co_await asio::co_spawn(executor, std::move(work),
                                          asio::bind_cancellation_slot(runner.signal.slot(), asio::use_awaitable));
    reply = response{req.id, std::move(result)};
  } catch (const protocol_error& e) {
    reply = error_response{req.id, e.error()};
  } catch (const std::exception& e) {
    if (!runner.cancelled)
      sdk_log(log_category::client, log_level::warn, "handler threw", {{"method", req.method}, {"error", e.what()}});
    reply = make_error(req.id, errc::internal_error, std::string("Internal error: ") + e.what());
  }
  auto answer = core.requests().answer(req.id, 0, std::move(reply));
  // A request the server cancelled gets no answer.
  if (!answer.write || from->peer.closed()) co_return;
  try {
    co_await from->peer.send(std::move(answer.write->frame));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "answer to the server not sent", {{"error", e.what()}});
  }
}

}  // namespace mcp
