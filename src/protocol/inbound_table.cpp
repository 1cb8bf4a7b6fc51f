#include "inbound_table.hpp"

#include <span>

namespace mcp::detail {

namespace {

// The routing context of a reply: the ids it answers.
frame_context answering(std::span<const message> replies, frame_context::refusal refused) {
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

inbound_table::batch_id inbound_table::open_batch() {
  // Skips 0 (no batch) when the counter wraps.
  if (++next_batch_ == 0) ++next_batch_;
  batches_.emplace(next_batch_, batch_replies{});
  return next_batch_;
}

std::optional<outgoing_frame> inbound_table::close_batch(batch_id batch) { return release(batch); }

void inbound_table::start(const request_id& id, batch_id batch, cancellable& runner, bool listening) {
  running_.emplace(id, entry{.runner = &runner, .listening = listening});
  if (batch != 0) ++batches_.at(batch).outstanding;
}

answered inbound_table::answer(const request_id& id, batch_id batch, message&& reply,
                               frame_context::refusal refused) {
  answered out;
  bool cancelled = false;
  bool counted = false;  // it ran, so its batch counts it
  // (Most requests are answered at once and never enter the table.)
  if (const auto it = running_.empty() ? running_.end() : running_.find(id); it != running_.end()) {
    cancelled = it->second.cancelled;
    counted = true;
    running_.erase(it);
  }
  if (cancelled) {
    out.abandoned = to_json_text(id);
  } else if (batch == 0) {
    out.write = outgoing_frame{serialize(reply), answering({&reply, 1}, refused)};
  } else {
    batches_.at(batch).replies.push_back(std::move(reply));
  }
  if (counted && batch != 0) out.write = release(batch);
  return out;
}

std::optional<outgoing_frame> inbound_table::reply(message&& m, batch_id batch, frame_context::refusal refused) {
  if (batch != 0) {
    batches_.at(batch).replies.push_back(std::move(m));
    return std::nullopt;
  }
  return outgoing_frame{serialize(m), answering({&m, 1}, refused)};
}

std::optional<outgoing_frame> inbound_table::release(batch_id batch) {
  const auto it = batches_.find(batch);
  if (--it->second.outstanding != 0) return std::nullopt;
  auto replies = std::move(it->second.replies);
  batches_.erase(it);
  if (replies.empty()) return std::nullopt;
  return outgoing_frame{serialize_batch(replies), answering(replies, frame_context::refusal::none)};
}

cancellable* inbound_table::cancel(const request_id& id) {
  const auto it = running_.find(id);
  if (it == running_.end()) return nullptr;  // finished already, or never ours: nothing to do
  it->second.cancelled = true;
  return it->second.runner;
}

std::vector<cancellable*> inbound_table::cancel_all() {
  std::vector<cancellable*> runners;
  runners.reserve(running_.size());
  for (auto& [id, e] : running_) {
    e.cancelled = true;
    runners.push_back(e.runner);
  }
  return runners;
}

std::vector<cancellable*> inbound_table::close_listens() {
  std::vector<cancellable*> runners;
  for (auto& [id, e] : running_) {
    if (!e.listening) continue;
    e.closing = true;
    runners.push_back(e.runner);
  }
  return runners;
}

bool inbound_table::end_listen(const request_id& id) {
  const auto it = running_.find(id);
  if (it == running_.end()) return false;
  const bool closed = it->second.closing;
  running_.erase(it);
  return closed;
}

}  // namespace mcp::detail
