// The endpoint's frame: the table of channels requests come through, the
// session table with idle expiry, dispatching a request by its path and
// method, and graceful shutdown. The transport rules live in streamable.cpp
// and legacy_sse.cpp; the drivers in listener.cpp and exchange.cpp.

#include "endpoint_impl.hpp"
#include "../../detail/as_tuple_awaitable.hpp"
#include "trace_headers.hpp"

#include "../../detail/completion.hpp"
#include "../../detail/random.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace mcp {

namespace {

using detail::as_tuple_awaitable;
constexpr std::chrono::milliseconds quiet_poll{100};

}  // namespace

unsigned threads_of(const http_endpoint_options& options) {
  if (options.threads != 0) return options.threads;
  return std::max(1u, std::thread::hardware_concurrency());
}

http_endpoint::impl::impl(asio::any_io_executor ex, server_behaviour& b, http_endpoint_options o)
    : io(ex),
      threads(threads_of(o)),
      executor(threads > 1 ? asio::any_io_executor(asio::make_strand(ex)) : ex),
      behaviour(b),
      options(std::move(o)),
      shared(options.make_stores ? options.make_stores(ex)
                                 : shared_stores{options.sessions, options.events, options.bus, nullptr, nullptr}),
      events(shared.events ? shared.events : make_memory_event_store()),
      store(shared.sessions ? shared.sessions : make_memory_session_store()),
      bus(shared.bus),
      server_tag(bus ? detail::random_hex(8) : std::string()),
      reaper(executor),
      quiet(executor),
      listen_sweep(executor) {
  // One handler per path: the legacy endpoints must not shadow the MCP endpoint.
  if (!options.legacy_sse_path.empty() &&
      (options.legacy_sse_path == options.path || options.legacy_messages_path == options.path ||
       options.legacy_sse_path == options.legacy_messages_path))
    throw mcp::invalid_argument("http_endpoint: path, legacy_sse_path and legacy_messages_path must differ");
  if (options.auth) {
    verifier_strand = make_strand();
    if (!options.auth->verifier && options.auth->make_verifier)
      options.auth->verifier = options.auth->make_verifier(verifier_strand);
    if (!options.auth->verifier) throw mcp::invalid_argument("http_endpoint: auth needs a token verifier");
    if (options.auth->resource.empty()) throw mcp::invalid_argument("http_endpoint: auth needs the resource URL");
    resource_metadata_url = resource_metadata_url_of(options.auth->resource);
    resource_origin = origin_of_resource(options.auth->resource);
  }
}

http_endpoint::http_endpoint(asio::any_io_executor ex, server_behaviour& behaviour, http_endpoint_options options)
    : impl_(std::make_shared<impl>(ex, behaviour, std::move(options))) {
  impl_->start();
}

http_endpoint::~http_endpoint() { stop(); }

std::size_t http_endpoint::session_count() const { return impl_->session_count(); }

const http_endpoint_options& http_endpoint::options() const noexcept { return impl_->options; }

std::size_t http_endpoint::impl::session_count() const {
  std::lock_guard lock(tables);
  return sessions.size() + websocket_sessions;
}

asio::any_io_executor http_endpoint::impl::make_strand() const {
  return threads > 1 ? asio::any_io_executor(asio::make_strand(io)) : io;
}

std::vector<http_endpoint_route> http_endpoint::routes() const {
  const auto& options = impl_->options;
  std::vector<http_endpoint_route> routes;
  routes.push_back({options.path,
                    options.stateless ? std::vector<std::string>{"POST"}
                                      : std::vector<std::string>{"GET", "POST", "DELETE"},
                    "the MCP endpoint (Streamable HTTP)"});
  if (!options.stateless && !options.legacy_sse_path.empty()) {
    routes.push_back({options.legacy_sse_path, {"GET"}, "the legacy HTTP+SSE stream (2024-11-05)"});
    routes.push_back({options.legacy_messages_path, {"POST"}, "the legacy HTTP+SSE messages (2024-11-05)"});
  }
  if (options.auth)
    for (auto& path : impl_->metadata_paths())
      routes.push_back({std::move(path), {"GET"}, "OAuth Protected Resource Metadata (RFC 9728)"});
  if (options.metrics) routes.push_back({options.metrics_path, {"GET"}, "Prometheus metrics"});
  return routes;
}

void http_endpoint::impl::start() {
  asio::dispatch(executor, [self = shared_from_this()] {
    if (self->stopping) return;  // (stopped before it began)
    if (self->shared.tasks) self->behaviour.share_task_store(self->shared.tasks);
    // Each holds the impl for as long as it runs: they end soon after stop(),
    // but an exchange that ends after the http_endpoint is gone may let go
    // of the impl's last reference before they have woken.
    asio::co_spawn(self->executor, [self] { return self->reap_idle_sessions(); }, asio::detached);
    asio::co_spawn(self->executor, [self] { return self->keep_listens_alive(); }, asio::detached);
    if (self->bus) asio::co_spawn(self->executor, [self] { return self->join_behaviour_to_cluster(); }, asio::detached);
  });
}

asio::awaitable<void> http_endpoint::impl::drain() {
  co_await wait_until_quiet();
  if (bus) behaviour.leave_cluster();
  if (shared.tasks) behaviour.share_task_store(nullptr);
  if (shared.close) shared.close();  // (stores it made: their connections end)
  stopped = true;
  for (auto& done : std::exchange(stop_waiters, {})) detail::post_completion(std::move(done), executor);
}

void http_endpoint::impl::when_stopped(asio::any_completion_handler<void()> done) {
  // (In a shared_ptr: see detail/completion.hpp.)
  auto held = std::make_shared<asio::any_completion_handler<void()>>(std::move(done));
  asio::dispatch(executor, [self = shared_from_this(), held = std::move(held)] {
    if (self->stopped) return detail::post_completion(std::move(*held), self->executor);
    self->stop_waiters.push_back(std::move(*held));
  });
}

http_endpoint::impl::connection_entry& http_endpoint::impl::open_channel(
    asio::any_io_executor strand, response_channel* channel, std::function<void(bool forced)> stop_waiting) {
  std::lock_guard lock(tables);
  const auto number = next_connection++;
  auto& entry = connections[number];  // (a map's nodes stay put)
  entry = connection_entry{number, std::move(strand), channel, std::move(stop_waiting), false, nullptr};
  return entry;
}

void http_endpoint::impl::close_channel(std::uint64_t number) {
  {
    std::lock_guard lock(tables);
    connections.erase(number);
  }
  note_ended();
}

asio::awaitable<bool> http_endpoint::impl::deliver(const std::shared_ptr<http_session>& session,
                                                 const served_request& req, inbound_frame frame, bool rebind,
                                                 bool wait_for_room) {
  // (Bound first: g++ 12 mishandles a temporary beside co_await in one expression.)
  const auto here = co_await asio::this_coro::executor;
  if (session->executor() != here)
    co_return co_await asio::co_spawn(session->executor(),
                                      deliver(session, req, std::move(frame), rebind, wait_for_room),
                                      asio::use_awaitable);
  auto& engine = session->engine();
  if (engine.ended()) co_return false;  // (another thread ended it after the request found it)
  if (wait_for_room) co_await engine.wait_for_room();
  auto handed = hand_over(*session, req, std::move(frame), rebind);
  if (handed.rest) co_await engine.accept_rest(std::move(*handed.rest));
  co_return handed.delivered;
}

std::optional<http_endpoint::impl::delivery> http_endpoint::impl::deliver_at_once(
    http_session& session, const served_request& req, inbound_frame& frame, bool rebind, bool wait_for_room,
    const asio::any_io_executor& here) {
  if (session.executor() != here || (wait_for_room && !session.engine().has_room())) return std::nullopt;
  return hand_over(session, req, std::move(frame), rebind);
}

http_endpoint::impl::delivery http_endpoint::impl::hand_over(http_session& session, const served_request& req,
                                                         inbound_frame&& frame, bool rebind) {
  auto& engine = session.engine();
  if (engine.ended()) return {};
  if (rebind) bind_principal(session, req);
  if (frame.parsed) adopt_trace_headers(req, *frame.parsed);
  return {true, engine.take(std::move(frame))};
}

void http_endpoint::stop() {
  asio::dispatch(impl_->executor, [self = impl_] { self->begin_shutdown(); });
}

void http_endpoint::start_stop(asio::any_completion_handler<void()> handler) {
  impl_->when_stopped(std::move(handler));
  stop();
}

void http_endpoint::impl::note_ended() {
  if (stopping) asio::dispatch(executor, [self = shared_from_this()] { self->quiet.cancel(); });
}

void http_endpoint::impl::begin_shutdown() {
  if (stopped) return;  // (a stop() after the end: nothing is left)
  if (stopping.exchange(true)) {
    // A second stop(): what still runs is cancelled now, not at the deadline.
    if (!forced) {
      sdk_log(log_category::server, log_level::warn, "stopping now; cancelling what is left");
      force_shutdown();
      quiet.cancel();  // (wait_until_quiet counts the grace from here)
    }
    return;
  }
  reaper.cancel();
  listen_sweep.cancel();
  asio::co_spawn(executor, drain(), asio::detached);
  // Listen streams end with their closing result (outside the tables: a
  // stream that ends at once leaves them).
  for (auto& [strand, stream] : held_listens())
    asio::post(strand, [stream = std::move(stream)] { stream->close(true); });
  std::lock_guard lock(tables);
  // Each session's engine finishes what runs (answers still go out on their
  // streams), then the session ends.
  for (auto& [id, entry] : sessions)
    asio::post(entry.session->executor(),
               [self = shared_from_this(), session = entry.session] { self->finish_session(session, true); });
  // Channels waiting for their next request end now; busy ones end after
  // their response (keep_alive() is false from here on).
  for (auto& [n, connection] : connections)
    asio::post(connection.executor, [self = shared_from_this(), n = n] { self->stop_channel(n, false); });
}

void http_endpoint::impl::force_shutdown() {
  forced = true;
  for (auto& [strand, stream] : held_listens())
    asio::post(strand, [stream = std::move(stream)] { stream->close(false); });
  std::lock_guard lock(tables);
  for (const auto& [id, entry] : sessions)
    asio::post(entry.session->executor(),
               [self = shared_from_this(), session = entry.session] { self->end_session_here(session); });
  for (auto& [n, connection] : connections)
    asio::post(connection.executor, [self = shared_from_this(), n = n] { self->stop_channel(n, true); });
}

void http_endpoint::impl::stop_channel(std::uint64_t number, bool forced_now) {
  std::lock_guard lock(tables);
  const auto it = connections.find(number);
  if (it == connections.end()) return;
  auto& channel = it->second;
  if (channel.listen) return;  // (closed with the listen streams)
  if (const auto ws = websocket_stops.find(channel.io); ws != websocket_stops.end()) return ws->second(forced_now);
  if (channel.stop_waiting && (forced_now || !channel.busy)) channel.stop_waiting(forced_now);
}

asio::awaitable<void> http_endpoint::impl::wait_until_quiet() {
  const auto deadline = clock::now() + options.shutdown_timeout;
  std::optional<clock::time_point> forced_at;
  for (;;) {
    std::size_t sessions_left = 0, connections_left = 0;
    {
      std::lock_guard lock(tables);
      sessions_left = sessions.size();
      connections_left = connections.size();
    }
    if (sessions_left == 0 && connections_left == 0) break;
    if (!forced && clock::now() >= deadline) {
      sdk_log(log_category::server, log_level::warn, "shutdown deadline passed; cancelling what is left");
      force_shutdown();
    }
    if (forced && !forced_at) forced_at = clock::now();
    // Their streams and connections are closed by now; what is left is a
    // handler that ignores its cancellation (one that blocks, say). It keeps
    // its session alive, but not the shutdown: the deadline wins.
    if (forced_at && clock::now() - *forced_at >= abandon_after) {
      sdk_log(log_category::server, log_level::error, "handlers ignore cancellation; shutting down without them",
              {{"sessions", sessions_left}, {"connections", connections_left}});
      break;
    }
    quiet.expires_after(quiet_poll);
    co_await quiet.async_wait(as_tuple_awaitable);
  }
}

asio::awaitable<void> http_endpoint::impl::forget_session(std::string id) {
  announce_session_end(id);
  events->forget(id);
  co_await store->remove(std::move(id));
}

asio::awaitable<void> http_endpoint::impl::end_session(std::shared_ptr<http_session> session) {
  co_await end_session(std::move(session), telemetry::event::session_closed);
}

asio::awaitable<void> http_endpoint::impl::end_session(std::shared_ptr<http_session> session,
                                                     telemetry::event reason) {
  // (Bound first: g++ 12 mishandles a temporary beside co_await in one expression.)
  const auto here = co_await asio::this_coro::executor;
  if (session->executor() != here)
    co_return co_await asio::co_spawn(session->executor(), end_session(session, reason), asio::use_awaitable);
  end_session_here(session, reason);
}

void http_endpoint::impl::end_session_here(const std::shared_ptr<http_session>& session, telemetry::event reason) {
  // (Closed is the engine's own default: it never overrides an expiry or a DELETE.)
  if (reason != telemetry::event::session_closed && !session->engine().ended())
    session->engine().set_end_reason(reason);
  session->transport().end_streams();
  if (session->finishing) {
    session->finishing->emit(asio::cancellation_type::terminal);  // cuts its drain short
  } else if (session->engine().ended()) {
    return;  // ended already
  } else if (session->engine().finish_if_idle()) {
    forget_entry(session);  // the common case for a stateless POST: done at once
  } else {
    finish_session(session, false);
  }
}

void http_endpoint::impl::forget_entry(const std::shared_ptr<http_session>& session) {
  {
    std::lock_guard lock(tables);
    const auto it = sessions.find(session->transport().id());
    if (it != sessions.end() && it->second.session == session) sessions.erase(it);
  }
  note_ended();
}

namespace {
asio::awaitable<void> finish_engine(std::shared_ptr<http_session> session, bool drain) {
  co_await session->engine().finish(drain);
}
}  // namespace

void http_endpoint::impl::finish_session(const std::shared_ptr<http_session>& session, bool drain) {
  if (session->finishing || session->engine().ended()) return;
  auto stop = session->finishing = std::make_shared<asio::cancellation_signal>();
  asio::co_spawn(session->executor(), finish_engine(session, drain),
                 asio::bind_cancellation_slot(stop->slot(), [self = shared_from_this(), session, stop](
                                                                std::exception_ptr) { self->forget_entry(session); }));
}

std::optional<http_endpoint::impl::session_lookup> http_endpoint::impl::find_session_here(std::string_view header,
                                                                                     const served_request& req) {
  if (header.empty())
    return session_lookup{nullptr, http::status::bad_request, "Bad Request: Mcp-Session-Id header is required"};
  // A store shared with other servers is the truth: one of them may have
  // ended the session (find_session asks it).
  if (shared.sessions) return std::nullopt;
  std::unique_lock lock(tables);
  const auto it = sessions.find(header);
  // Legacy sessions are reached through their own endpoint only.
  if (it == sessions.end() || it->second.session->transport().closed() || it->second.legacy) return std::nullopt;
  auto& entry = it->second;
  // Another principal's session is as good as unknown (session hijacking).
  if (!same_owner(entry.owner, req))
    return session_lookup{nullptr, http::status::not_found, "Not Found: unknown or expired session"};
  const auto now = clock::now();
  entry.last_activity = now;
  // Only this server uses its own store: its clock need only beat the expiry.
  if (now - entry.last_store_touch > options.idle_timeout / 4) {
    entry.last_store_touch = now;
    asio::co_spawn(executor, store->touch(it->first, options.idle_timeout), asio::detached);
  }
  return session_lookup{entry.session, http::status::ok, {}};
}

asio::awaitable<http_endpoint::impl::session_lookup> http_endpoint::impl::find_session(
    response_channel& io, const served_request& req, std::string_view header) {
  if (auto here = find_session_here(header, req)) co_return std::move(*here);
  std::string id(header);
  session_lookup unknown{nullptr, http::status::not_found, "Not Found: unknown or expired session"};
  std::shared_ptr<http_session> served;
  bool known = false;
  bool foreign = false;
  {
    std::lock_guard lock(tables);
    if (const auto it = sessions.find(id); it != sessions.end()) {
      known = true;
      foreign = !same_owner(it->second.owner, req);
      if (!foreign && !it->second.session->transport().closed() && !it->second.legacy) {
        served = it->second.session;
        it->second.last_activity = clock::now();
      }
    }
  }
  if (served) {
    // Served here, with a shared store: it says whether the session lives,
    // and whether another server changed its state (this copy knows the
    // rest of its record).
    auto now = co_await store->refresh(id, options.idle_timeout, served->state_version);
    if (!now) {
      co_await end_session(served);
      co_return unknown;
    }
    if (now->state) co_await refresh_shared_state(served, now->state_version, std::move(*now->state));
    co_return session_lookup{served, http::status::ok, {}};
  }
  if (known || stopping) co_return unknown;
  // Not served here (any more): another server sharing the store may have
  // opened it. Serve it from what its handshake settled.
  auto record = co_await store->touch(id, options.idle_timeout);
  if (!record || !record->negotiated || stopping) co_return unknown;
  if (!same_owner(record->owner, req)) co_return unknown;
  if (session_count() >= options.max_sessions)
    co_return session_lookup{nullptr, http::status::service_unavailable, "Service Unavailable: too many sessions"};
  auto engine = options.session;
  engine.assume_initialized = *record->negotiated;
  engine.shared_state = record->state;
  auto session = co_await start_session(id, req, io, std::move(engine), session_kind::streamable);
  // Another request resumed it meanwhile: it is served here now.
  if (!session) co_return co_await find_session(io, req, header);
  session->state_version = record->state_version;
  sdk_log(log_category::session, log_level::info, "session resumed from the session store", {{"session_id", id}});
  co_return session_lookup{session, http::status::ok, {}};
}

asio::awaitable<void> http_endpoint::impl::refresh_shared_state(std::shared_ptr<http_session> session,
                                                             std::uint64_t version, json::object state) {
  // (Bound first: g++ 12 mishandles a temporary beside co_await in one expression.)
  const auto here = co_await asio::this_coro::executor;
  if (session->executor() != here)
    co_return co_await asio::co_spawn(session->executor(), refresh_shared_state(session, version, std::move(state)),
                                      asio::use_awaitable);
  if (session->engine().ended()) co_return;
  session->engine().load_shared_state(state);
  session->state_version = version;
}

asio::awaitable<std::shared_ptr<http_session>> http_endpoint::impl::start_session(
    std::string id, const served_request& req, response_channel& io, session_options engine, session_kind kind) {
  const bool legacy = kind == session_kind::legacy;
  transport_metadata metadata;
  metadata.kind = "http";
  metadata.peer = io.peer();
  // A protected server keeps the token from handlers: nothing passes it on.
  metadata.headers = options.auth ? req.headers_without("authorization") : req.headers();
  const auto strand = co_await asio::this_coro::executor;
  auto session = std::make_shared<http_session>(strand, id, std::move(metadata), events);
  if (legacy) session->transport().set_legacy();
  if (engine.assume_initialized) session->transport().set_version(engine.assume_initialized->version);
  const bool recorded = kind == session_kind::streamable;
  const std::string owner = req.principal ? req.principal->identity() : std::string();
  // A shared store keeps what the session's handlers keep (session::state<T>).
  if (recorded && shared.sessions)
    engine.save_state = [store = store, id](json::object changes) { return store->save_state(id, std::move(changes)); };
  if (recorded) {
    // Recorded before the answer goes out: the client's next request may
    // reach another server sharing the store.
    engine.on_initialized = [store = store, ttl = options.idle_timeout, weak = std::weak_ptr(session), id,
                             owner](negotiated_session negotiated) {
      if (auto s = weak.lock()) s->transport().set_version(negotiated.version);
      session_record record{id, std::move(negotiated), owner};
      return store->put(std::move(record), ttl);
    };
  }
  if (recorded && bus) co_await join_cluster(session);
  session->start(behaviour, std::move(engine));
  bind_principal(*session, req);
  bool taken = false;
  {
    std::lock_guard lock(tables);
    // A session resumed from the store by two requests at once: the first
    // one's copy serves it, and this one ends.
    taken = sessions.contains(id);
    if (!taken) {
      auto& entry = sessions[id];
      entry.session = session;
      entry.legacy = legacy;
      entry.owner = owner;
    }
  }
  if (taken) {
    co_await session->engine().finish(false);
    co_return nullptr;
  }
  // stop() came after the request was admitted and may have gone through
  // the table before this session was in it: it drains like the others.
  if (stopping) finish_session(session, true);
  co_return session;
}

asio::awaitable<void> http_endpoint::impl::reap_idle_sessions() {
  const auto period = std::min<clock::duration>(options.idle_timeout / 2, std::chrono::seconds(30));
  while (!stopping) {
    reaper.expires_after(period);
    co_await reaper.async_wait(as_tuple_awaitable);
    if (stopping) break;
    const auto now = clock::now();
    // Sessions without a request for a quarter of the timeout (a listening
    // one is then touched well before its record expires: the period is at
    // most half of it), and whether they passed all of it.
    std::vector<std::pair<std::shared_ptr<http_session>, bool>> quiet;
    {
      std::lock_guard lock(tables);
      // A legacy session lives as long as its stream: it is not reaped.
      for (const auto& [id, entry] : sessions)
        if (!entry.legacy && now - entry.last_activity > options.idle_timeout / 4 &&
            !entry.session->transport().closed())
          quiet.emplace_back(entry.session, now - entry.last_activity > options.idle_timeout);
    }
    for (const auto& [session, timed_out] : quiet) {
      const auto& id = session->transport().id();
      // A client that reads a stream of its session (its GET stream, above
      // all) is there, though it sends nothing: the session is kept, and so
      // is its record, before the store's expiry (idle_timeout) comes.
      if (session->transport().attached_streams() > 0) {
        co_await keep_listening_session(id);
        continue;
      }
      if (!timed_out) continue;
      // Another server sharing the store may have kept the session busy: then
      // only this server's copy ends.
      const bool elsewhere = co_await store->alive(id);
      if (!elsewhere) {
        sdk_log(log_category::session, log_level::info, "session expired", {{"session_id", id}});
        co_await forget_session(id);
      }
      const auto reason = elsewhere ? telemetry::event::session_closed : telemetry::event::session_expired;
      co_await end_session(session, reason);
    }
  }
}

asio::awaitable<void> http_endpoint::impl::keep_listening_session(const std::string& id) {
  {
    std::lock_guard lock(tables);
    const auto it = sessions.find(id);
    if (it == sessions.end()) co_return;
    it->second.last_activity = it->second.last_store_touch = clock::now();
  }
  try {
    co_await store->touch(id, options.idle_timeout);
  } catch (const std::exception& e) {  // the next round tries again
    sdk_log(log_category::session, log_level::warn, "a listening session's record was not kept",
            {{"session_id", id}, {"error", e.what()}});
  }
}

void http_endpoint::impl::hand_over_connection(std::shared_ptr<listen_stream> stream,
                                             std::unique_ptr<response_channel> io, std::uint64_t number,
                                             const detail::connection_telemetry* connection_events) {
  {
    std::lock_guard lock(tables);
    auto& entry = connections.at(number);
    entry.listen = stream;
    entry.busy = true;  // (until the stream ends)
  }
  stream->adopt(std::move(io), shared_from_this(), number, connection_events);
  // stop() may have gone through the connections before this one held its stream.
  if (stopping) stream->close(true);
}

void http_endpoint::impl::listen_connection_closed(std::uint64_t number) { close_channel(number); }

std::vector<std::pair<asio::any_io_executor, std::shared_ptr<listen_stream>>> http_endpoint::impl::held_listens()
    const {
  std::vector<std::pair<asio::any_io_executor, std::shared_ptr<listen_stream>>> held;
  std::lock_guard lock(tables);
  for (const auto& [n, connection] : connections)
    if (connection.listen) held.emplace_back(connection.executor, connection.listen);
  return held;
}

asio::awaitable<void> http_endpoint::impl::keep_listens_alive() {
  if (options.keep_alive_interval <= std::chrono::seconds::zero()) co_return;  // (no keep-alives: no spinning)
  while (!stopping) {
    listen_sweep.expires_after(options.keep_alive_interval);
    co_await listen_sweep.async_wait(as_tuple_awaitable);
    if (stopping) break;
    for (auto& [strand, stream] : held_listens())
      asio::post(strand, [stream = std::move(stream)] { stream->keep_alive(); });
  }
}

asio::awaitable<bool> http_endpoint::impl::dispatch(response_channel& io, served_request& req) {
  const std::string_view target = req.target();
  const auto path = target.substr(0, target.find('?'));
  const bool legacy_enabled = !options.stateless && !options.legacy_sse_path.empty();
  const bool legacy_stream = legacy_enabled && path == options.legacy_sse_path;
  const bool legacy_post = legacy_enabled && path == options.legacy_messages_path;
  if (options.metrics && path == options.metrics_path) co_return co_await serve_metrics(io, req);
  if (options.auth && is_metadata_path(path)) co_return co_await serve_resource_metadata(io, req);
  if (path != options.path && !legacy_stream && !legacy_post)
    co_return co_await reply_status(io, req, http::status::not_found);
  if (auto refusal = detail::origin_refusal(req, req.loopback, options.allowed_hosts, options.allowed_origins))
    co_return co_await reply_error(io, req, http::status::forbidden, errc::invalid_request, *refusal);
  if (stopping)
    co_return co_await reply_error(io, req, http::status::service_unavailable, errc::internal_error,
                                   "Service Unavailable: the server is shutting down");
  if (options.auth) {
    bool keep = false;
    const bool admitted = co_await authenticate(io, req, keep);
    if (!admitted) co_return keep;
  }
  if (options.websocket && io.can_upgrade() && path == options.path && req.method() == http::verb::get &&
      wants_websocket(req))
    co_return co_await handle_websocket(io, req);
  if (legacy_stream && req.method() == http::verb::get) co_return co_await handle_legacy_stream(io, req);
  if (legacy_post && req.method() == http::verb::post) co_return co_await handle_legacy_post(io, req);
  if (legacy_stream || legacy_post)
    co_return co_await reply(io, req, http::status::method_not_allowed, {}, {}, {},
                             legacy_stream ? "Allow: GET\r\n" : "Allow: POST\r\n");
  // A shared store out of reach fails the request that needs it (before
  // anything of its response is written), not the connection.
  std::optional<std::string> unavailable;
  try {
    // (A POST may be a 2026-07-28 request, which the engine answers -32022.)
    if (req.method() == http::verb::post) co_return co_await handle_post(io, req);
    if (auto refusal = detail::unknown_version_refusal(req[known_header::mcp_protocol_version]))
      co_return co_await reply_error(io, req, http::status::bad_request, errc::invalid_request, *refusal);
    // Stateless serving has no sessions, so no GET stream and nothing to DELETE.
    if (!options.stateless && req.method() == http::verb::get) co_return co_await handle_get(io, req);
    if (!options.stateless && req.method() == http::verb::delete_) co_return co_await handle_delete(io, req);
  } catch (const store_unavailable& e) {
    unavailable = e.what();
    sdk_log(log_category::cluster, log_level::warn, "a shared store is unavailable", {{"error", *unavailable}});
  }
  if (unavailable)
    co_return co_await reply_error(io, req, http::status::service_unavailable, errc::internal_error,
                                   "Service Unavailable: the session store cannot be reached (" + *unavailable + ")");
  co_return co_await reply(io, req, http::status::method_not_allowed, {}, {}, {},
                           options.stateless ? "Allow: POST\r\n" : "Allow: GET, POST, DELETE\r\n");
}

}  // namespace mcp
