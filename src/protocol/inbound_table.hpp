#pragma once
// The requests a peer sent us that we are serving, as data: which ids are in
// use, which requests were cancelled, which batch each reply belongs to, and
// the frames the replies go out in. A cancelled request is answered by
// nothing, but still closes its slot in its batch; a batch's replies go out
// as one array once its last request is done. No I/O here: the driver runs
// the handlers and writes the frames this table makes.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/transport/frame.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mcp::detail {

/// What the driver runs a request on: the table tells it to stop (a
/// `notifications/cancelled`, the connection ending, a listen stream closed).
class cancellable {
 public:
  virtual void cancel() noexcept = 0;

 protected:
  ~cancellable() = default;
};

/// A frame to write, and what it belongs to.
struct outgoing_frame {
  std::string frame;
  frame_context route;
};

/// What answering a request comes to.
struct answered {
  /// The frame to write: the reply, or its batch's reply once complete.
  std::optional<outgoing_frame> write;
  /// The request was cancelled: no reply, and the transport may forget the
  /// request (its JSON text id).
  std::optional<std::string> abandoned;
};

class inbound_table {
 public:
  /// A batch of requests answered as one; 0 is none.
  using batch_id = std::uint32_t;

  /// Opens a batch, held open by its reader until close_batch().
  batch_id open_batch();
  /// The reader has handed out every request of the batch: its reply when
  /// its requests are all answered (nothing if none of them needed one).
  std::optional<outgoing_frame> close_batch(batch_id batch);

  /// True while a request with this id is running.
  bool in_use(const request_id& id) const { return running_.contains(id); }
  /// The request did not finish at once: it runs on `runner` until answer().
  void start(const request_id& id, batch_id batch, cancellable& runner, bool listening = false);

  /// The reply of a request (answered at once, or after running), refused as
  /// `refused` says: written alone, kept for its batch, or dropped when the
  /// request was cancelled.
  answered answer(const request_id& id, batch_id batch, message&& reply,
                  frame_context::refusal refused = frame_context::refusal::none);
  /// A reply that needs no id table (a frame that is not a request, a
  /// refusal of the whole frame): written alone, or kept for its batch.
  std::optional<outgoing_frame> reply(message&& m, batch_id batch,
                                      frame_context::refusal refused = frame_context::refusal::none);

  /// `notifications/cancelled` for `id`: the runner to stop, if it runs.
  cancellable* cancel(const request_id& id);
  /// Every running request: the connection ends.
  std::vector<cancellable*> cancel_all();
  /// The listen streams, to end with their closing result.
  std::vector<cancellable*> close_listens();
  /// Removes a listen stream: true when the server closed it (it gets its
  /// closing result), false when the client cancelled it or went away.
  bool end_listen(const request_id& id);

  std::size_t running() const noexcept { return running_.size(); }

 private:
  struct entry {
    cancellable* runner;
    bool cancelled = false;
    bool listening = false;  // a subscriptions/listen stream: runs until it is ended
    bool closing = false;    // the server ends it: it gets its closing result
  };
  struct batch_replies {
    std::vector<message> replies;
    std::size_t outstanding = 1;  // requests unanswered, plus the reader's hold
  };

  std::optional<outgoing_frame> release(batch_id batch);

  std::unordered_map<request_id, entry> running_;
  std::unordered_map<batch_id, batch_replies> batches_;
  batch_id next_batch_ = 0;
};

}  // namespace mcp::detail
