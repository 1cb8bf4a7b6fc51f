#include "listen_stream.hpp"

#include "modern_messages.hpp"
#include "sse_events.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

namespace loadgen {

namespace http = boost::beast::http;
namespace json = boost::json;

namespace {

constexpr std::string_view acknowledged = "notifications/subscriptions/acknowledged";
constexpr std::string_view tools_changed = "notifications/tools/list_changed";

// Whether a body read so far ends where an event does (after its blank line):
// then everything in it has been taken, and it can be dropped.
bool ends_between_events(std::string_view body) {
  return body.ends_with("\n\n") || body.ends_with("\r\n\r\n") || body.ends_with("\r\r");
}

// What is wrong with `text` as the notification `method` on the stream of
// the listen request `id` (its `_meta` names the subscription), or empty.
std::string check_notification(std::string_view text, std::int64_t id, std::string_view method) {
  boost::system::error_code ec;
  const json::value message = json::parse(text, ec);
  const auto* object = message.if_object();
  if (ec || !object) return "not a JSON object: " + std::string(text.substr(0, 200));
  const auto* version = object->if_contains("jsonrpc");
  const auto* name = object->if_contains("method");
  if (!version || *version != "2.0" || !name || !name->is_string() || name->as_string() != method ||
      object->contains("id"))
    return "expected " + std::string(method) + ", got " + std::string(text.substr(0, 200));
  const auto* params = object->if_contains("params");
  const auto* meta = params && params->is_object() ? params->as_object().if_contains("_meta") : nullptr;
  const auto* subscription =
      meta && meta->is_object() ? meta->as_object().if_contains("io.modelcontextprotocol/subscriptionId") : nullptr;
  if (!subscription || !subscription->is_int64() || subscription->as_int64() != id)
    return std::string(method) + " without subscriptionId " + std::to_string(id) + ": " +
           std::string(text.substr(0, 200));
  if (method == acknowledged) {
    const auto* filter = params->as_object().if_contains("notifications");
    const auto* tools = filter && filter->is_object() ? filter->as_object().if_contains("toolsListChanged") : nullptr;
    if (!tools || *tools != true) return "acknowledged without toolsListChanged: " + std::string(text.substr(0, 200));
  }
  return {};
}

}  // namespace

listen_stream::listen_stream(asio::any_io_executor ex, const http_target& target, std::int64_t id)
    : target_(target), id_(id), socket_(ex) {
  parser_.body_limit(boost::none);  // a stream has no end to bound
}

asio::awaitable<std::string> listen_stream::open() {
  co_await socket_.async_connect(target_.endpoint, asio::use_awaitable);
  socket_.set_option(asio::ip::tcp::no_delay(true));
  const std::string request = modern_post(target_, "subscriptions/listen", "", listen_request(id_));
  co_await asio::async_write(socket_, asio::buffer(request), asio::use_awaitable);
  co_await http::async_read_header(socket_, buffer_, parser_, asio::use_awaitable);
  const auto& head = parser_.get();
  if (head.result_int() != 200 || !head[http::field::content_type].starts_with("text/event-stream"))
    co_return "subscriptions/listen: HTTP " + std::to_string(head.result_int()) + " " +
              std::string(head[http::field::content_type]);
  const auto first = co_await next_message();
  if (!first) co_return "subscriptions/listen: the stream ended before its acknowledgement";
  co_return check_notification(*first, id_, acknowledged);
}

asio::awaitable<void> listen_stream::listen(std::function<void(std::size_t)> heard) {
  try {
    while (const auto message = co_await next_message()) {
      auto problem = check_notification(*message, id_, tools_changed);
      if (!problem.empty()) {
        if (problem_.empty()) problem_ = std::move(problem);
        continue;
      }
      arrivals_.push_back(last_read_at_);
      heard(arrivals_.size());
    }
    if (problem_.empty()) problem_ = "the server ended the stream";
  } catch (const std::exception& e) {
    if (!closing_ && problem_.empty()) problem_ = "the stream failed: " + describe(e);
  }
}

asio::awaitable<std::optional<std::string>> listen_stream::next_message() {
  while (next_pending_ == pending_.size()) {
    pending_.clear();
    next_pending_ = 0;
    auto& body = parser_.get().body();
    const auto events = complete_events(body);
    for (std::size_t i = events_taken_; i < events.size(); ++i)
      if (!events[i].data.empty()) pending_.push_back(events[i].data);
    events_taken_ = events.size();
    if (ends_between_events(body)) {
      body.clear();
      events_taken_ = 0;
    }
    if (!pending_.empty()) break;
    if (parser_.is_done()) co_return std::nullopt;
    co_await http::async_read_some(socket_, buffer_, parser_, asio::use_awaitable);
    last_read_at_ = clock::now();
  }
  co_return std::move(pending_[next_pending_++]);
}

void listen_stream::close() {
  closing_ = true;
  boost::system::error_code ignored;
  socket_.close(ignored);
}

}  // namespace loadgen
