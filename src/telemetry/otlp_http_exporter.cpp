// The OTLP/HTTP exporter (include/mcp/telemetry/otlp_exporter.hpp): a
// bounded queue filled from any thread, and one coroutine on a strand that
// sends it in batches with the SDK's HTTP client (transport/http/client/fetch).

#include <mcp/log.hpp>
#include <mcp/telemetry/otlp_exporter.hpp>

#include "../transport/http/client/fetch.hpp"
#include "../detail/as_tuple_awaitable.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <mutex>
#include <vector>

namespace mcp::telemetry {

namespace asio = boost::asio;
using mcp::detail::http_client::fetch_request;
using mcp::detail::http_client::http_fetcher;

namespace {

using mcp::detail::as_tuple_awaitable;

mcp::detail::http_client::fetch_options fetch_options_of(const otlp_exporter_options& options) {
  mcp::detail::http_client::fetch_options fetch;
  fetch.ca_file = options.ca_file;
  fetch.connect_timeout = options.timeout;
  fetch.timeout = options.timeout;
  fetch.max_body_size = 64 * 1024;  // (an ExportTraceServiceResponse is small)
  fetch.allow_private_addresses = true;  // the user's own collector, often on this machine
  return fetch;
}

}  // namespace

struct otlp_http_exporter::impl : std::enable_shared_from_this<impl> {
  impl(asio::any_io_executor ex, otlp_exporter_options o)
      : strand(asio::make_strand(std::move(ex))), options(std::move(o)), url(options.url()),
        fetcher(strand, fetch_options_of(options)), wake(strand), finished(strand) {
    finished.expires_at(asio::steady_timer::time_point::max());
  }

  asio::strand<asio::any_io_executor> strand;
  const otlp_exporter_options options;
  const std::string url;
  http_fetcher fetcher;        // on the strand
  asio::steady_timer wake;     // the flush interval; cancelled for a full batch or shutdown
  asio::steady_timer finished;  // cancelled when the sending loop has ended
  bool loop_ended = false;      // on the strand

  mutable std::mutex mutex;  // guards queue and stopping
  std::vector<span_record> queue;
  bool stopping = false;
  std::atomic<std::uint64_t> exported{0}, dropped{0};

  void add(span_record span) {
    bool batch_full = false;
    {
      const std::lock_guard lock(mutex);
      if (stopping || queue.size() >= options.max_queue) {
        dropped.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      queue.push_back(std::move(span));
      batch_full = queue.size() == options.max_batch;
    }
    if (batch_full) asio::post(strand, [self = shared_from_this()] { self->wake.cancel(); });
  }

  std::vector<span_record> take_batch() {
    const std::lock_guard lock(mutex);
    if (queue.size() <= options.max_batch) return std::exchange(queue, {});
    std::vector<span_record> batch(std::make_move_iterator(queue.begin()),
                                   std::make_move_iterator(queue.begin() + static_cast<std::ptrdiff_t>(options.max_batch)));
    queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(options.max_batch));
    return batch;
  }

  bool stop_requested() const {
    const std::lock_guard lock(mutex);
    return stopping;
  }

  asio::awaitable<void> send(std::vector<span_record> batch) {
    fetch_request post;
    post.method = mcp::detail::http_client::http_method::post;
    post.url = url;
    post.headers.emplace_back("Content-Type", "application/json");
    post.body = otlp_json(batch, options.service_name);
    try {
      const auto response = co_await fetcher.fetch(std::move(post));
      if (mcp::detail::http_client::is_success(response.status)) {
        exported.fetch_add(batch.size(), std::memory_order_relaxed);
        co_return;
      }
      sdk_log(log_category::transport, log_level::debug, "OTLP export refused",
              {{"url", url}, {"status", response.status}});
    } catch (const std::exception& e) {
      sdk_log(log_category::transport, log_level::debug, "OTLP export failed", {{"url", url}, {"error", e.what()}});
    }
    dropped.fetch_add(batch.size(), std::memory_order_relaxed);
  }

  // Sends everything queued, a batch at a time.
  asio::awaitable<void> send_queued() {
    for (auto batch = take_batch(); !batch.empty(); batch = take_batch()) co_await send(std::move(batch));
  }

  // Every flush interval (or sooner, for a full batch) sends the queue;
  // once stopping, sends what is left and ends.
  static asio::awaitable<void> run(std::shared_ptr<impl> self) {
    for (;;) {
      self->wake.expires_after(self->options.flush_interval);
      co_await self->wake.async_wait(as_tuple_awaitable);
      co_await self->send_queued();
      if (self->stop_requested()) break;
    }
    self->loop_ended = true;
    self->finished.cancel();
  }

  void request_stop() {
    const std::lock_guard lock(mutex);
    stopping = true;
  }
};

otlp_http_exporter::otlp_http_exporter(asio::any_io_executor executor, otlp_exporter_options options)
    : impl_(std::make_shared<impl>(std::move(executor), std::move(options))) {
  asio::co_spawn(impl_->strand, impl::run(impl_), asio::detached);
}

otlp_http_exporter::~otlp_http_exporter() {
  impl_->request_stop();
  asio::post(impl_->strand, [self = impl_] {
    self->wake.cancel();
    self->fetcher.close();
  });
}

void otlp_http_exporter::export_span(span_record span) { impl_->add(std::move(span)); }

asio::awaitable<void> otlp_http_exporter::shutdown(std::chrono::milliseconds deadline) {
  const auto self = impl_;
  co_await asio::dispatch(self->strand, asio::use_awaitable);
  self->request_stop();
  self->wake.cancel();
  if (self->loop_ended) co_return;
  // Past the deadline the collector's connection is closed: the POST under
  // way fails, and the loop ends.
  asio::steady_timer watchdog(self->strand, deadline);
  watchdog.async_wait([self](boost::system::error_code ec) {
    if (!ec) self->fetcher.close();
  });
  co_await self->finished.async_wait(as_tuple_awaitable);
  watchdog.cancel();
}

otlp_http_exporter::counts otlp_http_exporter::stats() const noexcept {
  return counts{impl_->exported.load(std::memory_order_relaxed), impl_->dropped.load(std::memory_order_relaxed)};
}

}  // namespace mcp::telemetry
