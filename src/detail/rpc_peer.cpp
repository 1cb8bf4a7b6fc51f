#include "rpc_peer.hpp"
#include "as_tuple_awaitable.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <tuple>

namespace mcp::detail {

namespace {

using clock = std::chrono::steady_clock;
// Queued frames past which a reader yields to an idle writer (wait_for_space).
constexpr std::size_t early_flush_frames = 16;

}  // namespace

rpc_peer::rpc_peer(message_transport& transport, peer_limits limits)
    : transport_(transport), limits_(limits) {
  if (!transport.writes_at_once()) q_ = std::make_unique<write_queue>(transport.get_executor());
}

rpc_peer::~rpc_peer() = default;

void rpc_peer::start(std::shared_ptr<void> keep_alive) {
  if (direct()) return;  // nothing to queue: no writer, no watchdog
  writer_running_ = true;
  watchdog_running_ = true;
  asio::co_spawn(transport_.get_executor(), write_loop(),
                 asio::bind_cancellation_slot(write_cancel_.slot(), [keep_alive](std::exception_ptr) {}));
  asio::co_spawn(transport_.get_executor(), watch_writes(), [keep_alive](std::exception_ptr) {});
}

void rpc_peer::enqueue(std::string frame, frame_context context) {
  if (direct()) {
    transport_.write_now(std::move(frame), std::move(context));
    return;
  }
  q_->bytes += frame.size();
  q_->frames.push_back({std::move(frame), std::move(context)});
  q_->queue_ready.cancel();
}

asio::awaitable<void> rpc_peer::send(std::string frame) {
  frame_context none;
  co_await send(std::move(frame), std::move(none));
}

asio::awaitable<void> rpc_peer::send(std::string frame, frame_context context) {
  for (;;) {
    if (closed_) throw mcp::error(asio::error::connection_aborted);
    if (direct() || q_->frames.empty() || q_->bytes + frame.size() <= limits_.max_queued_bytes) {
      enqueue(std::move(frame), std::move(context));
      co_return;
    }
    co_await q_->queue_space.async_wait(as_tuple_awaitable);
  }
}

void rpc_peer::post(std::string frame, frame_context context) {
  if (closed_) throw mcp::error(asio::error::connection_aborted);
  enqueue(std::move(frame), std::move(context));
}

bool rpc_peer::has_space() const noexcept {
  if (direct() || closed_) return true;
  return !(writer_waiting_ && q_->frames.size() >= early_flush_frames) && q_->bytes <= limits_.max_queued_bytes;
}

asio::awaitable<void> rpc_peer::wait_for_space() {
  if (direct()) co_return;
  // A reader serving a burst of frames that are all in its buffer never
  // suspends, so the writer would hold every reply until the burst ends: the
  // peer idles while we work, then we idle while it reads. Past a few queued
  // frames the writer gets its turn, and the two sides work side by side.
  if (!closed_ && writer_waiting_ && q_->frames.size() >= early_flush_frames)
    co_await asio::post(transport_.get_executor(), asio::use_awaitable);
  while (!closed_ && q_->bytes > limits_.max_queued_bytes)
    co_await q_->queue_space.async_wait(as_tuple_awaitable);
}

asio::awaitable<void> rpc_peer::write_loop() {
  for (;;) {
    if (q_->frames.empty()) {
      if (closed_) break;
      writer_waiting_ = true;
      co_await q_->queue_ready.async_wait(as_tuple_awaitable);
      writer_waiting_ = false;
      continue;
    }
    write_deadline_ = clock::now() + limits_.write_timeout;
    if (watchdog_idle_) q_->watchdog.cancel();  // to watch this write
    auto failure = co_await write_next();
    write_deadline_ = clock::time_point::max();
    if (write_stalled_) failure = make_error_code(asio::error::timed_out);
    if (failure) {
      sdk_log(log_category::transport, log_level::info, "connection write failed", {{"error", failure.message()}});
      shutdown();
      q_->frames.clear();
      q_->bytes = 0;
      // The connection is of no use any more: ending it ends the reader too.
      co_await asio::this_coro::reset_cancellation_state();
      co_await transport_.close();
      break;
    }
  }
  writer_running_ = false;
  q_->writer_done.cancel();
  q_->watchdog.cancel();
}

asio::awaitable<void> rpc_peer::watch_writes() {
  while (writer_running_) {
    const auto deadline = write_deadline_;
    if (deadline == clock::time_point::max()) {
      watchdog_idle_ = true;
      q_->watchdog.expires_at(clock::time_point::max());
      co_await q_->watchdog.async_wait(as_tuple_awaitable);
      watchdog_idle_ = false;
      continue;
    }
    if (clock::now() >= deadline) {
      // The peer stopped reading: the write is cancelled and the connection ends.
      write_stalled_ = true;
      write_cancel_.emit(asio::cancellation_type::terminal);
      break;
    }
    q_->watchdog.expires_at(deadline);
    co_await q_->watchdog.async_wait(as_tuple_awaitable);
  }
  watchdog_running_ = false;
  q_->writer_done.cancel();
}

asio::awaitable<boost::system::error_code> rpc_peer::write_next() {
  constexpr std::size_t max_batch_frames = 256;
  constexpr std::size_t max_batch_bytes = 256 * 1024;
  try {
    if (q_->frames.size() > 1 && transport_.batches_writes()) {
      std::vector<std::string> batch;
      std::size_t bytes = 0;
      while (!q_->frames.empty() && batch.size() < max_batch_frames && bytes < max_batch_bytes) {
        bytes += q_->frames.front().text.size();
        batch.push_back(std::move(q_->frames.front().text));
        q_->frames.pop_front();
      }
      q_->bytes -= bytes;
      q_->queue_space.cancel();
      co_await transport_.write_frames(std::move(batch));
    } else {
      queued_frame frame = std::move(q_->frames.front());
      q_->frames.pop_front();
      q_->bytes -= frame.text.size();
      q_->queue_space.cancel();
      co_await transport_.write_routed(std::move(frame.text), std::move(frame.context));
    }
  } catch (const boost::system::system_error& e) {
    co_return e.code();
  } catch (const std::exception&) {
    co_return make_error_code(asio::error::broken_pipe);
  }
  co_return boost::system::error_code{};
}

asio::awaitable<void> rpc_peer::drained() {
  while (writer_running_ || watchdog_running_) co_await q_->writer_done.async_wait(as_tuple_awaitable);
}

void rpc_peer::shutdown() {
  if (closed_) return;
  closed_ = true;
  calls_.close();
  for (auto& [id, timer] : waiting_) timer.cancel();
  if (direct()) return;
  q_->queue_ready.cancel();
  q_->queue_space.cancel();
}

asio::awaitable<json::object> rpc_peer::call(std::string method, json::object params,
                                             call_settings settings, std::string related) {
  if (closed_) throw mcp::error(asio::error::connection_aborted);
  call_table::terms terms{settings.timeout, settings.max_total, std::move(settings.on_progress),
                          std::move(settings.meta_members)};
  auto call = calls_.open(std::move(method), std::move(params), std::move(terms), clock::now());
  auto& timer = waiting_.try_emplace(call.id, transport_.get_executor(), call.deadline).first->second;
  try {
    frame_context context;
    context.related = related;
    context.headers = std::move(settings.headers);
    if (settings.request) {
      context.request = std::move(settings.request);
      context.request->id = std::to_string(call.id);
    }
    co_await send(std::move(call.frame), std::move(context));
  } catch (...) {
    waiting_.erase(call.id);
    calls_.withdraw(call.id);
    throw;
  }
  for (auto deadline = call.deadline;;) {
    boost::system::error_code ec;
    try {
      std::tie(ec) = co_await timer.async_wait(as_tuple_awaitable);
    } catch (const boost::system::system_error&) {
      // Cancelled while send() waited for room, and the room came in the
      // same turn: the request went out, and this wait refuses to begin.
      // It is cancelled as any other wait is, with notifications/cancelled.
      ec = asio::error::operation_aborted;
    }
    if (calls_.settled(call.id)) break;
    if (const auto moved = calls_.deadline(call.id); moved != deadline) {
      deadline = moved;  // progress re-armed the timer: wait again
      continue;
    }
    // The deadline passed, or the caller cancelled: tell the peer, forget the id.
    const bool timed_out = !ec;
    waiting_.erase(call.id);
    enqueue(timed_out ? calls_.expire(call.id) : calls_.cancel(call.id), frame_context{{}, related});
    throw mcp::error(timed_out ? asio::error::timed_out
                                                : asio::error::operation_aborted);
  }
  waiting_.erase(call.id);
  auto result = calls_.finish(call.id);
  if (!result) throw mcp::error(asio::error::connection_aborted);
  co_return std::move(*result);
}

bool rpc_peer::deliver(message reply) {
  const auto id = calls_.deliver(std::move(reply));
  if (!id) return false;
  waiting_.at(*id).cancel();
  return true;
}

void rpc_peer::on_progress(const json::object& params) {
  if (const auto moved = calls_.on_progress(params, clock::now()))
    waiting_.at(moved->id).expires_at(moved->deadline);  // wakes the call, which waits again
}

}  // namespace mcp::detail
