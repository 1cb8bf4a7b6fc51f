// The server engine (engine.hpp), and serve(): the engine with a read loop,
// for transports that are one stream of frames.

#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/server/serve.hpp>

#include "engine.hpp"
#include "../detail/as_tuple_awaitable.hpp"
#include "engine_telemetry.hpp"

#include "../detail/random.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp {
namespace detail {

namespace {

using detail::as_tuple_awaitable;
// Requests still running after they were cancelled get this long to unwind.
constexpr std::chrono::milliseconds cancel_grace{1000};

}  // namespace

// How a session reaches its connection; outlives the engine, and turns into
// a no-op once the engine is gone.
struct server_engine::link final : connection_link {
  explicit link(server_engine* e) : engine(e), executor(e->transport_.get_executor()) {}

  asio::awaitable<void> send_notification(notification n, std::string related) override {
    if (!engine) throw mcp::error(asio::error::connection_aborted);
    std::string frame = serialize(n);
    frame_context context;
    context.related = std::move(related);
    co_await engine->peer_.send(std::move(frame), std::move(context));
  }

  void post_notification(notification n, std::string related) override { post(std::move(n), std::move(related), false); }
  void post_broadcast(notification n) override { post(std::move(n), {}, true); }
  // Queues `n`; `if_reaching`: only when the transport reaches the client itself.
  void post(notification n, std::string related, bool if_reaching);

  asio::awaitable<json::object> send_request(std::string method, json::object params,
                                             std::chrono::milliseconds timeout,
                                             std::string related) override {
    if (!engine) throw mcp::error(asio::error::connection_aborted);
    call_settings settings{.timeout = timeout};
    co_return co_await engine->peer_.call(std::move(method), std::move(params),
                                          std::move(settings), std::move(related));
  }

  void close_stream(const std::string& related) override {
    if (engine) engine->transport_.close_stream(related);
  }

  server_engine* engine;
  asio::any_io_executor executor;
};

// The session of a connection, named after the transport's own session id
// (Mcp-Session-Id) when it has one, so that logs and handlers name the
// session the client knows.
std::shared_ptr<session> server_engine::make_session(message_transport& transport) {
  auto metadata = transport.shared_metadata();
  auto id = metadata->session_id.empty() ? random_hex(16) : metadata->session_id;
  auto made = std::make_shared<session>(std::move(id), transport.get_executor());
  made->transport_ = std::move(metadata);
  return made;
}

server_engine::server_engine(server_behaviour& behaviour, message_transport& transport,
                             session_options options)
    : behaviour_(behaviour), transport_(transport), options_(std::move(options)),
      peer_(transport, {options_.max_queued_bytes, options_.write_timeout}),
      core_(behaviour.supported_versions()),
      rounds_(options_.request_state_key, options_.request_state_ttl),
      link_(std::make_shared<link>(this)),
      session_(make_session(transport)),
      in_flight_changed_(transport.get_executor()) {
  session_->link_ = link_;
  core_.describe(session_->transport().kind, session_->id());
}

server_engine::~server_engine() { link_->engine = nullptr; }

void server_engine::start() {
  peer_.start();
  if (!options_.shared_state.empty()) session_->load_shared_state(options_.shared_state);
  if (options_.assume_initialized) {
    session_->version_ = options_.assume_initialized->version;
    session_->client_info_ = options_.assume_initialized->client_info;
    session_->client_capabilities_ = options_.assume_initialized->client_capabilities;
    core_.assume_initialized(session_->version_);
    behaviour_.init(*session_);
  }
}

asio::awaitable<void> server_engine::accept(inbound_frame frame) {
  if (auto rest = take(std::move(frame))) co_await accept_rest(std::move(*rest));
}

std::optional<server_engine::frame_rest> server_engine::take(inbound_frame&& frame) {
  auto cursor = core_.receive(std::move(frame));
  if (auto* waiting = perform_until_notification(cursor)) return frame_rest{std::move(cursor), waiting};
  return std::nullopt;
}

asio::awaitable<void> server_engine::accept_rest(frame_rest rest) {
  while (rest.waiting) {
    co_await handle_notification(std::move(*rest.waiting));
    rest.waiting = perform_until_notification(rest.cursor);
  }
}

asio::awaitable<void> server_engine::serve_frames() {
  for (;;) {
    // (Checked first: each coroutine not called spares a frame per request.)
    if (!has_room()) co_await wait_for_room();
    auto frame = co_await transport_.read_frame();
    if (!frame) co_return;
    if (auto rest = take(std::move(*frame))) co_await accept_rest(std::move(*rest));
  }
}

notification* server_engine::perform_until_notification(server_connection::frame_cursor& cursor) {
  while (auto action = core_.next(cursor)) {
    // Only notifications wait (for their handler): requests are started,
    // and the replies the core gives itself are queued, without waiting.
    if (auto* n = std::get_if<server_connection::deliver_notification>(&*action)) return &n->note;
    perform(std::move(*action));
  }
  return nullptr;
}

void server_engine::perform(server_connection::action&& action) {
  using core = server_connection;
  if (auto* frame = std::get_if<outgoing_frame>(&action)) {
    write(std::move(*frame));
  } else if (auto* serving = std::get_if<core::serve_request>(&action)) {
    serve(std::move(serving->req), serving->batch, session_, nullptr);
  } else if (auto* hello = std::get_if<core::open_session>(&action)) {
    open_session(*hello);
  } else if (auto* modern = std::get_if<core::serve_modern_request>(&action)) {
    handle_modern_request(*modern);
  } else if (auto* cancelled = std::get_if<core::cancel_request>(&action)) {
    cancelled->runner->cancel();
  } else if (auto* progress = std::get_if<core::route_progress>(&action)) {
    peer_.on_progress(progress->params);
  } else if (auto* reply = std::get_if<core::deliver_response>(&action)) {
    if (!peer_.deliver(std::move(reply->reply)))
      sdk_log(log_category::protocol, log_level::debug, "dropping a response that no request awaits",
              {{"session_id", session_->id()}});
  }
}

asio::awaitable<void> server_engine::wait_for_room() {
  while (saturated() && !finishing_) co_await in_flight_changed_.timer().async_wait(as_tuple_awaitable);
  co_await peer_.wait_for_space();
}

asio::awaitable<void> server_engine::finish(bool drain) {
  finishing_ = true;
  in_flight_changed_.notify();  // frees wait_for_room()
  // From here on a stop must not throw out of finish(): the requests still
  // running use this engine, so it ends only after cancelling them. A stop
  // during the drain cuts the drain short instead.
  co_await asio::this_coro::throw_if_cancelled(false);
  if (drain) close_listens();  // they would hold the drain to its end
  if (drain) co_await wait_for_requests(options_.drain_timeout, true);
  cancel_all();
  co_await wait_for_requests(cancel_grace, false);
  // A handler that ignores cancellation (a blocking function, say) still runs
  // on this engine: it must end before the engine does.
  if (core_.requests().running() != 0)
    sdk_log(log_category::server, log_level::warn, "requests ignore cancellation; waiting for them to end",
            {{"session_id", session_->id()}, {"requests", core_.requests().running()}});
  while (core_.requests().running() != 0) co_await wait_for_requests(cancel_grace, false);
  end();
  co_await peer_.drained();
  co_await transport_.close();
}

bool server_engine::finish_if_idle() {
  if (core_.requests().running() != 0 || background_sends_ > 0 || !peer_.idle()) return false;
  finishing_ = true;
  in_flight_changed_.notify();
  end();
  return true;
}

void server_engine::end() {
  ended_ = true;
  if (core_.operating()) behaviour_.terminate(*session_);
  if (created_at_) report_session_end(end_reason_, *session_, *created_at_);
  link_->engine = nullptr;  // from here on, posted notifications are dropped
  peer_.shutdown();
}

void server_engine::serve(request req, batch_id batch, std::shared_ptr<session> s,
                          std::unique_ptr<input_round> round) {
  if (auto reply = serve_at_once(req, *s, round.get())) {
    if (options_.save_state && s == session_) {
      auto changes = session_->changed_shared_state();
      if (!changes.empty()) {
        auto entry = std::make_shared<in_flight>();
        core_.requests().start(req.id, batch, *entry);
        asio::co_spawn(transport_.get_executor(),
                       answer_after_saving(std::move(req), std::move(*reply), batch, entry, std::move(changes)),
                       asio::detached);
        return;
      }
    }
    const auto refused = server_connection::refusal_of(*reply, round != nullptr);
    write(core_.requests().answer(req.id, batch, std::move(*reply), refused));
    return;
  }
  auto entry = std::make_shared<in_flight>();
  core_.requests().start(req.id, batch, *entry);
  asio::co_spawn(transport_.get_executor(),
                 run_request(std::move(req), entry, batch, std::move(s), std::move(round)),
                 asio::bind_cancellation_slot(entry->signal.slot(),
                                              [entry](std::exception_ptr) {}));
}

asio::awaitable<void> server_engine::save_shared_state(const request& req, json::object changes, message& reply) {
  std::string failure;
  try {
    co_await options_.save_state(std::move(changes));
    co_return;
  } catch (const std::exception& e) {
    failure = e.what();
  }
  sdk_log(log_category::session, log_level::warn, "a session's state could not be saved",
          {{"session_id", session_->id()}, {"method", req.method}, {"error", failure}});
  reply = make_error(req.id, errc::internal_error,
                     "Internal error: the session's state could not be saved (" + failure + ")");
}

// `entry` is only held: the request stays in flight until its answer is out.
asio::awaitable<void> server_engine::answer_after_saving(request req, message reply, batch_id batch,
                                                         [[maybe_unused]] std::shared_ptr<in_flight> entry,
                                                         json::object changes) {
  co_await save_shared_state(req, std::move(changes), reply);
  send_answer(req.id, batch, std::move(reply), false);
}

void server_engine::send_answer(const request_id& id, batch_id batch, message reply, bool modern) {
  try {
    const auto refused = server_connection::refusal_of(reply, modern);
    write(core_.requests().answer(id, batch, std::move(reply), refused));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "reply not sent",
            {{"session_id", session_->id()}, {"error", e.what()}});
  }
  in_flight_changed_.notify();
}

void server_engine::open_session(server_connection::open_session& hello) {
  const auto& id = hello.req.id;
  message reply = response{id, nullptr};
  try {
    session_->version_ = hello.version;
    session_->client_info_ = std::move(hello.hello.client_info);
    session_->client_capabilities_ = std::move(hello.hello.capabilities);
    behaviour_.init(*session_);
    sdk_log(log_category::session, log_level::info, "session initialized",
            {{"session_id", session_->id()}, {"protocol", to_string(hello.version)},
             {"client", session_->client_info_.name}});
    created_at_ = std::chrono::steady_clock::now();
    report_session_created(*session_);
    std::get<response>(reply).result = to_json(initialize_result{
        hello.version, behaviour_.capabilities(), behaviour_.server_info(), behaviour_.instructions()});
  } catch (const protocol_error& e) {
    reply = error_response{id, e.error()};
  } catch (const std::exception& e) {
    reply = make_error(id, errc::internal_error, std::string("Internal error: ") + e.what());
  }
  if (options_.on_initialized && std::holds_alternative<response>(reply)) {
    negotiated_session settled{hello.version, session_->client_info_, session_->client_capabilities_};
    ++background_sends_;  // (finish() waits for it)
    asio::co_spawn(transport_.get_executor(), answer_once_recorded(hello.version, std::move(reply), std::move(settled)),
                   asio::detached);
    return;
  }
  write(core_.session_opened(hello.version, std::move(reply)));
}

asio::awaitable<void> server_engine::answer_once_recorded(protocol_version version, message reply,
                                                          negotiated_session settled) {
  std::string failure;
  try {
    co_await options_.on_initialized(std::move(settled));
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!failure.empty()) {
    sdk_log(log_category::session, log_level::warn, "a session could not be recorded",
            {{"session_id", session_->id()}, {"error", failure}});
    reply = make_error(std::get<response>(reply).id, errc::internal_error,
                       "Internal error: the session could not be recorded (" + failure + ")");
  }
  try {
    write(core_.session_opened(version, std::move(reply)));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "reply not sent",
            {{"session_id", session_->id()}, {"error", e.what()}});
  }
  --background_sends_;
  in_flight_changed_.notify();
}

message server_engine::success_reply(const request& req, json::object result,
                                     const input_round* round) const {
  if (round) result = finish_modern_result(req, std::move(result));
  return response{req.id, std::move(result)};
}

message server_engine::failure_reply(const request& req, const session& s, std::exception_ptr failure,
                                     bool cancelled, const input_round* round) const {
  try {
    std::rethrow_exception(failure);
  } catch (const input_required& need) {
    if (round && round->accepts_input) return input_required_reply(req, need, *round);
    sdk_log(log_category::server, log_level::warn, "a handler asked for input, which it cannot",
            {{"session_id", s.id()}, {"method", req.method}});
    return make_error(req.id, errc::internal_error,
                      "Internal error: " + req.method + " cannot ask the client for input");
  } catch (const protocol_error& e) {
    return error_response{req.id, e.error()};
  } catch (const std::exception& e) {
    if (!cancelled) {
      sdk_log(log_category::server, log_level::warn, "handler threw",
              {{"session_id", s.id()}, {"method", req.method}, {"error", e.what()}});
      report_handler_exception(req, s, e.what());
    }
    return make_error(req.id, errc::internal_error, std::string("Internal error: ") + e.what());
  } catch (...) {
    return make_error(req.id, errc::internal_error, "Internal error: unknown exception");
  }
}

std::optional<message> server_engine::serve_at_once(const request& req, session& s, input_round* round) {
  // A middleware chain is a coroutine: it runs with the request (run_request).
  if (!behaviour_.middleware().empty()) return std::nullopt;
  const std::atomic<bool> never_cancelled = false;  // nothing else runs until it returns
  auto ctx = round ? request_context(req, s, never_cancelled, *round) : request_context(req, s, never_cancelled);
  std::optional<request_telemetry> observed;
  if (request_telemetry::wanted()) observed.emplace(req, s, round != nullptr);
  std::optional<message> reply;
  try {
    auto result = behaviour_.handle_request_at_once(req, ctx);
    if (result) reply = success_reply(req, std::move(*result), round);
  } catch (...) {
    reply = failure_reply(req, s, std::current_exception(), false, round);
  }
  // Not served at once: run_request reports it.
  if (observed && reply) {
    observed->start();
    observed->stop(*reply, false);
  }
  return reply;
}

asio::awaitable<void> server_engine::run_request(request req, std::shared_ptr<in_flight> entry,
                                                 batch_id batch, std::shared_ptr<session> s,
                                                 std::unique_ptr<input_round> round) {
  auto ctx = round ? request_context(req, *s, entry->cancelled, *round)
                   : request_context(req, *s, entry->cancelled);
  std::optional<request_telemetry> observed;
  if (request_telemetry::wanted()) {
    observed.emplace(req, *s, round != nullptr);
    observed->start();
  }
  const auto& chain = behaviour_.middleware();
  message reply = response{req.id, nullptr};
  try {
    json::object result;
    if (chain.empty())
      result = co_await behaviour_.handle_request(req, ctx);
    else
      result = co_await chain.handle_request(behaviour_, req, ctx);
    reply = success_reply(req, std::move(result), round.get());
  } catch (...) {
    reply = failure_reply(req, *s, std::current_exception(), entry->cancelled, round.get());
  }
  if (observed) observed->stop(reply, entry->cancelled);
  // A cancelled request is answered by nothing, but it still closes its batch slot.
  co_await asio::this_coro::reset_cancellation_state();
  if (options_.save_state && s == session_) {
    auto changes = session_->changed_shared_state();
    if (!changes.empty()) co_await save_shared_state(req, std::move(changes), reply);
  }
  send_answer(req.id, batch, std::move(reply), round != nullptr);
}

void server_engine::write(std::optional<outgoing_frame>&& frame) {
  if (frame) peer_.post(std::move(frame->frame), std::move(frame->route));
}

void server_engine::write(answered&& reply) {
  if (reply.abandoned) transport_.abandon(*reply.abandoned);
  write(std::move(reply.write));
}

asio::awaitable<void> server_engine::handle_notification(notification n) {
  const auto started = std::chrono::steady_clock::now();
  const auto& chain = behaviour_.middleware();
  try {
    if (chain.empty())
      co_await behaviour_.handle_notification(n, *session_);
    else
      co_await chain.handle_notification(behaviour_, n, *session_);
  } catch (const std::exception& e) {
    sdk_log(log_category::server, log_level::warn, "notification handler threw",
            {{"session_id", session_->id()}, {"method", n.method}, {"error", e.what()}});
  } catch (...) {
    sdk_log(log_category::server, log_level::warn, "notification handler threw",
            {{"session_id", session_->id()}, {"method", n.method}, {"error", "unknown exception"}});
  }
  report_notification(n, *session_, started);
}

void server_engine::cancel_all() {
  // Collected first: emitting may resume handlers that leave the table.
  for (auto* runner : core_.requests().cancel_all()) runner->cancel();
}

void server_engine::link::post(notification n, std::string related, bool if_reaching) {
  asio::post(executor, [self = std::static_pointer_cast<link>(shared_from_this()),
                        n = std::move(n), related = std::move(related), if_reaching]() mutable {
    if (!self->engine) return;  // the connection has ended
    auto* engine = self->engine;
    if (if_reaching && !engine->transport_.reaches_client()) return;
    ++engine->background_sends_;
    asio::co_spawn(self->executor, engine->send_in_background(std::move(n), std::move(related)),
                   asio::detached);
  });
}

asio::awaitable<void> server_engine::send_in_background(notification n, std::string related) {
  try {
    std::string frame = serialize(n);
    frame_context context;
    context.related = std::move(related);
    co_await peer_.send(std::move(frame), std::move(context));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "notification not sent",
            {{"session_id", session_->id()}, {"error", e.what()}});
  }
  --background_sends_;
  in_flight_changed_.notify();
}

asio::awaitable<void> server_engine::wait_for_requests(std::chrono::milliseconds limit, bool until_stopped) {
  using namespace asio::experimental::awaitable_operators;
  asio::steady_timer deadline(transport_.get_executor());
  deadline.expires_after(limit);
  while ((core_.requests().running() != 0 || background_sends_ > 0) &&
         deadline.expiry() > std::chrono::steady_clock::now()) {
    co_await (in_flight_changed_.timer().async_wait(as_tuple_awaitable) ||
              deadline.async_wait(as_tuple_awaitable));
    // Stopped from outside during the drain: stop waiting (run() cancels what is left).
    if (until_stopped &&
        (co_await asio::this_coro::cancellation_state).cancelled() != asio::cancellation_type::none)
      break;
  }
}

}  // namespace detail

asio::awaitable<void> serve(server_behaviour& behaviour, message_transport& transport) {
  session_options defaults;
  co_await serve(behaviour, transport, std::move(defaults));
}

asio::awaitable<void> serve(server_behaviour& behaviour, message_transport& transport,
                            session_options options) {
  // Both kinds of stop reach the read: `total` (stop reading, drain) as well as `terminal`.
  co_await asio::this_coro::reset_cancellation_state(asio::enable_total_cancellation());
  detail::server_engine engine(behaviour, transport, std::move(options));
  engine.start();
  bool input_failed = false;  // not an orderly end of input: nothing will take late replies
  try {
    co_await engine.serve_frames();
  } catch (const std::exception& e) {
    input_failed = true;
    sdk_log(log_category::transport, log_level::debug, "connection read ended", {{"error", e.what()}});
  }
  // The client ended its input, or a `total` stop asked to drain: running
  // requests get the drain timeout to finish (their replies still go out),
  // then what is left is cancelled. A `terminal` stop, or input that failed
  // (nothing would take late replies), cancels them at once.
  const auto stop = (co_await asio::this_coro::cancellation_state).cancelled();
  const bool stop_now = (stop & asio::cancellation_type::terminal) != asio::cancellation_type::none;
  const bool drain_asked = stop != asio::cancellation_type::none && !stop_now;
  co_await asio::this_coro::reset_cancellation_state();
  co_await engine.finish(!stop_now && (drain_asked || !input_failed));
}

}  // namespace mcp
