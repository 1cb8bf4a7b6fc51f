// A WebSocket upgrade served through an exchange (exchange_upgrade.hpp).

#include "exchange_upgrade.hpp"

#include "../../detail/as_tuple_awaitable.hpp"
#include "../../detail/completion.hpp"

#include <mcp/error.hpp>

#include <boost/asio/post.hpp>

namespace mcp::detail {

class upgrade_handoff::handle_impl final : public http_upgrade {
 public:
  explicit handle_impl(std::shared_ptr<upgrade_handoff> handoff) : handoff_(std::move(handoff)) {}
  ~handle_impl() override { handoff_->drop(); }

 private:
  void start_run(std::unique_ptr<upgraded_stream> stream,
                 boost::asio::any_completion_handler<void(boost::system::error_code)> handler) override {
    handoff_->give(std::move(stream), std::move(handler));
  }

  std::shared_ptr<upgrade_handoff> handoff_;
};

upgrade_handoff::upgrade_handoff(asio::any_io_executor strand)
    : strand_(std::move(strand)), wake_(strand_, asio::steady_timer::time_point::max()) {}

std::shared_ptr<http_upgrade> upgrade_handoff::handle() { return std::make_shared<handle_impl>(shared_from_this()); }

void upgrade_handoff::give(std::unique_ptr<upgraded_stream> stream,
                           boost::asio::any_completion_handler<void(boost::system::error_code)> handler) {
  {
    std::lock_guard lock(mutex_);
    if (!over_ && !stream_ && !dropped_) {
      stream_ = std::move(stream);
      store_handler(done_, std::move(handler));
      asio::post(strand_, [self = shared_from_this()] { self->wake_.cancel(); });
      return;
    }
  }
  stream.reset();  // (refused: the application's connection is its own again)
  post_completion(std::move(handler), strand_, boost::system::error_code(asio::error::operation_aborted));
}

void upgrade_handoff::drop() {
  std::lock_guard lock(mutex_);
  if (stream_ || over_) return;
  dropped_ = true;
  asio::post(strand_, [self = shared_from_this()] { self->wake_.cancel(); });
}

asio::awaitable<upgraded_stream*> upgrade_handoff::connection(std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    {
      // (Checked and waited on within one turn of the strand: a wake-up
      // posted by give() or drop() comes after the wait has begun.)
      std::lock_guard lock(mutex_);
      if (stream_) co_return stream_.get();
      if (dropped_) throw mcp::error(asio::error::operation_aborted, "the application dropped the WebSocket upgrade");
    }
    if (std::chrono::steady_clock::now() >= deadline)
      throw mcp::error(asio::error::timed_out,
                       "the application did not hand the connection over for the WebSocket upgrade");
    wake_.expires_at(deadline);
    co_await wake_.async_wait(as_tuple_awaitable);
  }
}

void upgrade_handoff::finish(boost::system::error_code ec) {
  std::unique_ptr<upgraded_stream> stream;
  boost::asio::any_completion_handler<void(boost::system::error_code)> done;
  {
    std::lock_guard lock(mutex_);
    if (over_) return;
    over_ = true;
    stream = std::move(stream_);
    store_handler(done, take_handler(done_));
  }
  stream.reset();
  if (done) post_completion(std::move(done), strand_, ec);
}

}  // namespace mcp::detail
