// The server engine (engine.hpp), and serve(): the engine with a read loop,
// for transports that are one stream of frames.

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/server/serve.hpp>

#include "engine.hpp"

#include "../detail/random.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <span>
#include <unordered_map>

namespace mcp {
namespace detail {

namespace {

constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);
// Requests still running after they were cancelled get this long to unwind.
constexpr std::chrono::milliseconds cancel_grace{1000};

// The routing context of a reply: the ids it answers.
frame_context answering(std::span<const message> replies,
                        frame_context::refusal refused = frame_context::refusal::none) {
  frame_context context;
  context.refused = refused;
  for (const auto& reply : replies) {
    if (const auto* r = std::get_if<response>(&reply))
      context.answers.push_back(to_json_text(r->id));
    else if (const auto* e = std::get_if<error_response>(&reply); e && e->id)
      context.answers.push_back(to_json_text(*e->id));
  }
  return context;
}

}  // namespace

// How a session reaches its connection; outlives the engine, and turns into
// a no-op once the engine is gone.
struct server_engine::link final : connection_link {
  explicit link(server_engine* e) : engine(e), executor(e->transport_.get_executor()) {}

  asio::awaitable<void> send_notification(notification n, std::string related) override {
    if (!engine) throw boost::system::system_error(asio::error::connection_aborted);
    std::string frame = serialize(n);
    frame_context context;
    context.related = std::move(related);
    co_await engine->peer_.send(std::move(frame), std::move(context));
  }

  void post_notification(notification n, std::string related) override;

  asio::awaitable<json::object> send_request(std::string method, json::object params,
                                             std::chrono::milliseconds timeout,
                                             std::string related) override {
    if (!engine) throw boost::system::system_error(asio::error::connection_aborted);
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
      request_states_(options_.request_state_key, options_.request_state_ttl),
      link_(std::make_shared<link>(this)),
      session_(make_session(transport)),
      in_flight_changed_(transport.get_executor()) {
  session_->link_ = link_;
}

server_engine::~server_engine() { link_->engine = nullptr; }

void server_engine::start() {
  peer_.start();
  if (options_.assume_initialized) {
    session_->version_ = options_.assume_initialized->version;
    session_->client_info_ = options_.assume_initialized->client_info;
    session_->client_capabilities_ = options_.assume_initialized->client_capabilities;
    lifecycle_.assume_initialized();
    behaviour_.init(*session_);
  }
}

asio::awaitable<void> server_engine::accept(inbound_frame frame) {
  if (frame.oversized) {
    post(make_error({}, errc::invalid_request, "Invalid Request: message exceeds the size limit"));
    co_return;
  }
  auto parsed = frame.parsed ? classify_frame(std::move(*frame.parsed)) : parse_frame(frame.text);
  if (!parsed.batch) {
    const batch_ptr no_batch;
    co_await handle_item(std::move(parsed.items.front()), no_batch);
    co_return;
  }
  if (era_ == protocol_era::modern) {
    post(make_error({}, errc::invalid_request,
                    "Invalid Request: batches are not supported in protocol version 2026-07-28"));
    co_return;
  }
  if (lifecycle_.current() != legacy_lifecycle::phase::operating ||
      !dialect_of(session_->version()).batches) {
    post(make_error({}, errc::invalid_request,
                    lifecycle_.current() == legacy_lifecycle::phase::operating
                        ? "Invalid Request: batches are not supported in protocol version " +
                              std::string(to_string(session_->version()))
                        : "Invalid Request: initialize must not be part of a batch"));
    co_return;
  }
  auto batch = std::make_shared<batch_replies>();
  for (auto& item : parsed.items) co_await handle_item(std::move(item), batch);
  release(batch);
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
  if (!in_flight_.empty())
    sdk_log(log_level::warn, std::to_string(in_flight_.size()) +
                                 " request(s) ignore cancellation; waiting for them to end");
  while (!in_flight_.empty()) co_await wait_for_requests(cancel_grace, false);
  end();
  co_await peer_.drained();
  co_await transport_.close();
}

bool server_engine::finish_if_idle() {
  if (!in_flight_.empty() || background_sends_ > 0 || !peer_.idle()) return false;
  finishing_ = true;
  in_flight_changed_.notify();
  end();
  return true;
}

void server_engine::end() {
  if (lifecycle_.current() == legacy_lifecycle::phase::operating) behaviour_.terminate(*session_);
  link_->engine = nullptr;  // from here on, posted notifications are dropped
  peer_.shutdown();
}

asio::awaitable<void> server_engine::handle_item(frame_item item, const batch_ptr& batch) {
  if (auto* bad = std::get_if<invalid_message>(&item)) {
    answer(std::move(bad->reply), batch);
    co_return;
  }
  auto& msg = std::get<message>(item);
  if (auto* req = std::get_if<request>(&msg)) {
    handle_request(std::move(*req), batch);
  } else if (auto* n = std::get_if<notification>(&msg)) {
    co_await handle_notification(std::move(*n));
  } else if (!peer_.deliver(std::move(msg))) {
    sdk_log(log_level::debug, "dropping a response that no request awaits");
  }
}

protocol_era server_engine::era_of(const request& req) {
  if (!era_) {
    // A session resumed without a handshake is legacy already. Otherwise a
    // request with an envelope, or the modern probe, opens the modern era.
    const bool modern = lifecycle_.current() != legacy_lifecycle::phase::operating &&
                        (carries_envelope(req.params) || req.method == methods::server_discover);
    era_ = modern ? protocol_era::modern : protocol_era::legacy;
  }
  return *era_;
}

void server_engine::handle_request(request req, const batch_ptr& batch) {
  if (!batch && era_of(req) == protocol_era::modern) {
    handle_modern_request(std::move(req));
    return;
  }
  if (auto refusal = lifecycle_.admit(req.method)) {
    answer(error_response{req.id, std::move(*refusal)}, batch);
    return;
  }
  if (in_flight_.contains(req.id)) {
    answer(error_response{req.id, id_in_use(req.id)}, batch);
    return;
  }
  if (req.method == methods::ping) {
    answer(response{req.id, json::object{}}, batch);
    return;
  }
  if (req.method == methods::initialize) {
    message reply = response{req.id, nullptr};
    try {
      if (batch)
        throw protocol_error(errc::invalid_request,
                             "Invalid Request: initialize must not be part of a batch");
      std::get<response>(reply).result = initialize(req);
    } catch (const protocol_error& e) {
      reply = error_response{req.id, e.error()};
    } catch (const std::exception& e) {
      reply = make_error(req.id, errc::internal_error, std::string("Internal error: ") + e.what());
    }
    answer(std::move(reply), batch);
    return;
  }
  serve(std::move(req), batch, session_, nullptr);
}

void server_engine::serve(request req, const batch_ptr& batch, std::shared_ptr<session> s,
                          std::unique_ptr<input_round> round) {
  if (auto reply = serve_at_once(req, *s, round.get())) {
    const auto refused = refusal_of(*reply, round != nullptr);
    answer(std::move(*reply), batch, refused);
    return;
  }
  auto entry = std::make_shared<in_flight>();
  in_flight_.emplace(req.id, entry);
  if (batch) ++batch->outstanding;
  asio::co_spawn(transport_.get_executor(),
                 run_request(std::move(req), entry, batch, std::move(s), std::move(round)),
                 asio::bind_cancellation_slot(entry->signal.slot(),
                                              [entry](std::exception_ptr) {}));
}

json::object server_engine::initialize(const request& req) {
  auto hello = parse_initialize_request(req.params);
  const auto supported = behaviour_.supported_versions();
  if (std::ranges::none_of(supported, [](auto v) { return dialect_of(v).era == protocol_era::legacy; })) {
    json::array offered;
    for (const auto v : supported) offered.emplace_back(to_string(v));
    throw protocol_error(errc::unsupported_protocol_version,
                         "Unsupported protocol version: this server serves only the 2026-07-28 era, "
                         "without initialize",
                         json::object{{"supported", std::move(offered)}, {"requested", hello.protocol_version}});
  }
  const auto version = negotiate_version(hello.protocol_version, supported);
  session_->version_ = version;
  session_->client_info_ = std::move(hello.client_info);
  session_->client_capabilities_ = std::move(hello.capabilities);
  behaviour_.init(*session_);
  lifecycle_.on_initialize_answered();
  sdk_log(log_level::info, "session " + session_->id() + " initialized, protocol " +
                               std::string(to_string(version)) + ", client " +
                               session_->client_info_.name);
  if (options_.on_initialized)
    options_.on_initialized(
        negotiated_session{version, session_->client_info_, session_->client_capabilities_});
  return to_json(initialize_result{version, behaviour_.capabilities(), behaviour_.server_info(),
                                   behaviour_.instructions()});
}

rpc_error server_engine::id_in_use(const request_id& id) {
  return {errc::invalid_request,
          "Invalid Request: request id " + to_string(id) + " is already in use by a running request", nullptr};
}

message server_engine::success_reply(const request& req, json::object result,
                                     const input_round* round) const {
  if (round) result = finish_modern_result(req, std::move(result));
  return response{req.id, std::move(result)};
}

message server_engine::failure_reply(const request& req, std::exception_ptr failure, bool cancelled,
                                     const input_round* round) const {
  try {
    std::rethrow_exception(failure);
  } catch (const input_required& need) {
    if (round && round->accepts_input) return input_required_reply(req, need, *round);
    sdk_log(log_level::warn, "handler for " + req.method + " asked for input, which it cannot");
    return make_error(req.id, errc::internal_error,
                      "Internal error: " + req.method + " cannot ask the client for input");
  } catch (const protocol_error& e) {
    return error_response{req.id, e.error()};
  } catch (const std::exception& e) {
    if (!cancelled) sdk_log(log_level::warn, "handler for " + req.method + " threw: " + e.what());
    return make_error(req.id, errc::internal_error, std::string("Internal error: ") + e.what());
  } catch (...) {
    return make_error(req.id, errc::internal_error, "Internal error: unknown exception");
  }
}

std::optional<message> server_engine::serve_at_once(const request& req, session& s, input_round* round) {
  const bool never_cancelled = false;  // nothing else runs until it returns
  auto ctx = round ? request_context(req, s, never_cancelled, *round) : request_context(req, s, never_cancelled);
  try {
    auto result = behaviour_.handle_request_at_once(req, ctx);
    if (!result) return std::nullopt;
    return success_reply(req, std::move(*result), round);
  } catch (...) {
    return failure_reply(req, std::current_exception(), false, round);
  }
}

asio::awaitable<void> server_engine::run_request(request req, std::shared_ptr<in_flight> entry,
                                                 batch_ptr batch, std::shared_ptr<session> s,
                                                 std::unique_ptr<input_round> round) {
  auto ctx = round ? request_context(req, *s, entry->cancelled, *round)
                   : request_context(req, *s, entry->cancelled);
  message reply = response{req.id, nullptr};
  try {
    reply = success_reply(req, co_await behaviour_.handle_request(req, ctx), round.get());
  } catch (...) {
    reply = failure_reply(req, std::current_exception(), entry->cancelled, round.get());
  }
  if (auto it = in_flight_.find(req.id); it != in_flight_.end() && it->second == entry)
    in_flight_.erase(it);
  in_flight_changed_.notify();
  // A cancelled request is answered by nothing, but it still closes its batch slot.
  co_await asio::this_coro::reset_cancellation_state();
  if (entry->cancelled) transport_.abandon(to_json_text(req.id));
  try {
    const auto refused = refusal_of(reply, round != nullptr);
    if (!entry->cancelled) answer(std::move(reply), batch, refused);
    if (batch) release(batch);
  } catch (const std::exception& e) {
    sdk_log(log_level::debug, std::string("reply not sent: ") + e.what());
  }
}

void server_engine::post(const message& m) { peer_.post(serialize(m), {}); }

void server_engine::answer(message m, const batch_ptr& batch, frame_context::refusal refused) {
  if (batch) {
    batch->replies.push_back(std::move(m));
    return;
  }
  peer_.post(serialize(m), answering({&m, 1}, refused));
}

void server_engine::release(const batch_ptr& batch) {
  if (--batch->outstanding != 0 || batch->replies.empty()) return;
  peer_.post(serialize_batch(batch->replies), answering(batch->replies));
}

asio::awaitable<void> server_engine::handle_notification(notification n) {
  if (n.method == methods::notifications_cancelled) {
    if (const auto* requested = n.params.if_contains("requestId"))
      if (auto id = parse_request_id(*requested)) cancel(*id);
    co_return;
  }
  if (n.method == methods::notifications_progress) {
    peer_.on_progress(n.params);
    co_return;
  }
  if (n.method == methods::notifications_initialized) {
    lifecycle_.on_initialized_notification();
    co_return;
  }
  if (lifecycle_.current() != legacy_lifecycle::phase::operating) {
    sdk_log(log_level::debug, "ignoring " + n.method + " before initialize");
    co_return;
  }
  try {
    co_await behaviour_.handle_notification(n, *session_);
  } catch (const std::exception& e) {
    sdk_log(log_level::warn, "notification handler for " + n.method + " threw: " + e.what());
  }
}

void server_engine::cancel(const request_id& id) {
  const auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;  // finished already, or never ours: nothing to do
  it->second->cancelled = true;
  it->second->signal.emit(asio::cancellation_type::terminal);
}

void server_engine::cancel_all() {
  // Copy: emitting may resume handlers that erase themselves.
  std::vector<request_id> ids;
  for (const auto& [id, entry] : in_flight_) ids.push_back(id);
  for (const auto& id : ids) cancel(id);
}

void server_engine::link::post_notification(notification n, std::string related) {
  asio::post(executor, [self = std::static_pointer_cast<link>(shared_from_this()),
                        n = std::move(n), related = std::move(related)]() mutable {
    if (!self->engine) return;  // the connection has ended
    auto* engine = self->engine;
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
    sdk_log(log_level::debug, std::string("notification not sent: ") + e.what());
  }
  --background_sends_;
  in_flight_changed_.notify();
}

asio::awaitable<void> server_engine::wait_for_requests(std::chrono::milliseconds limit, bool until_stopped) {
  using namespace asio::experimental::awaitable_operators;
  asio::steady_timer deadline(transport_.get_executor());
  deadline.expires_after(limit);
  while ((!in_flight_.empty() || background_sends_ > 0) &&
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
  detail::server_engine engine(behaviour, transport, std::move(options));
  engine.start();
  bool input_failed = false;  // not an orderly end of input: nothing will take late replies
  try {
    for (;;) {
      co_await engine.wait_for_room();
      auto frame = co_await transport.read_frame();
      if (!frame) break;
      co_await engine.accept(std::move(*frame));
    }
  } catch (const std::exception& e) {
    input_failed = true;
    sdk_log(log_level::debug, std::string("connection read ended: ") + e.what());
  }
  // Stopped from outside, or the client ended its input: let running requests
  // finish (their replies still go out), then cancel what is left.
  const bool stopping =
      (co_await asio::this_coro::cancellation_state).cancelled() != asio::cancellation_type::none;
  co_await asio::this_coro::reset_cancellation_state();
  co_await engine.finish(!stopping && !input_failed);
}

}  // namespace mcp
