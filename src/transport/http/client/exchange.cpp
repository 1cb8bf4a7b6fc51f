#include "exchange.hpp"
#include "connection.hpp"
#include "http_error.hpp"

#include <boost/asio/ssl/error.hpp>
#include <boost/beast/http/field.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace mcp::detail::http_client {

namespace {

constexpr std::size_t chunk_size = 16 * 1024;
constexpr std::uint32_t max_head_size = 64 * 1024;
// Challenges one request answers before its refusal goes through: a sign-in,
// then a step-up or two (the authorizer bounds its own attempts too).
constexpr int max_challenges = 4;

http::verb verb_of(http_method m) {
  switch (m) {
    case http_method::get: return http::verb::get;
    case http_method::delete_: return http::verb::delete_;
    case http_method::post: break;
  }
  return http::verb::post;
}

const char* name_of(http_method m) {
  switch (m) {
    case http_method::get: return "GET";
    case http_method::delete_: return "DELETE";
    case http_method::post: break;
  }
  return "POST";
}

// A keep-alive connection the server closed while it sat in the pool shows
// as one of these before the first byte of the response.
bool stale_connection_error(const boost::system::error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::ssl::error::stream_truncated;
}

}  // namespace

struct http_exchange::impl {
  std::shared_ptr<connection_pool> pool;
  http_endpoint ep;
  request_message req;
  std::string description;
  lease conn;
  std::unique_ptr<response_parser> parser;
  std::unique_ptr<char[]> chunk;  // chunk_size bytes, left uninitialised: the parser fills them
  bool finished = false;
  std::shared_ptr<http_authorizer> authorizer;
  int challenges = 0;

  void authorize() {
    if (!authorizer) return;
    req.erase(http::field::authorization);
    req.erase("DPoP");
    for (auto& [name, value] : authorizer->credentials(req.method_string(), ep.url)) req.set(name, value);
  }

  bool challenged() const {
    const auto status = parser->get().result_int();
    return authorizer && (status == 401 || status == 403) && challenges < max_challenges;
  }

  authorization_challenge challenge() const {
    authorization_challenge c;
    c.url = ep.url;
    c.status = parser->get().result_int();
    if (const auto it = req.find(http::field::authorization); it != req.end()) c.sent_authorization = it->value();
    const auto [first, last] = parser->get().equal_range(http::field::www_authenticate);
    for (auto it = first; it != last; ++it) c.www_authenticate.emplace_back(it->value());
    if (const auto it = parser->get().find("DPoP-Nonce"); it != parser->get().end()) c.dpop_nonce = it->value();
    return c;
  }

  [[noreturn]] void fail(const boost::system::error_code& ec, std::string_view step) const {
    if (ec == asio::error::timed_out) throw http_error(description + ": " + std::string(step) + ": timed out");
    throw http_error(ec, description + ": " + std::string(step));
  }

  asio::awaitable<boost::system::error_code> write_on(lease fresh, std::chrono::milliseconds timeout) {
    conn = std::move(fresh);
    co_return co_await conn->write(req, timeout);
  }

  asio::awaitable<lease> take(bool fresh_only) {
    try {
      if (fresh_only) co_return co_await pool->acquire_new(ep);
      co_return co_await pool->acquire(ep);
    } catch (const http_error& e) {
      throw http_error(description, e);
    }
  }
};

http_exchange::http_exchange(std::shared_ptr<connection_pool> pool, http_endpoint ep, request_spec spec)
    : impl_(std::make_unique<impl>()) {
  auto& d = *impl_;
  d.pool = std::move(pool);
  d.ep = std::move(ep);
  d.description = std::string(name_of(spec.method)) + " " + d.ep.url;
  d.req.method(verb_of(spec.method));
  d.req.target(d.ep.target);
  d.req.version(11);
  d.req.set(http::field::host, d.ep.host_header);
  for (auto& [name, value] : spec.headers) d.req.set(name, value);
  d.req.keep_alive(true);
  d.authorizer = std::move(spec.authorizer);
  d.authorize();
  if (spec.method == http_method::post || !spec.body.empty()) {
    d.req.body() = std::move(spec.body);
    d.req.prepare_payload();
  }
}

http_exchange::~http_exchange() { abort(); }

const std::string& http_exchange::description() const noexcept { return impl_->description; }

asio::awaitable<void> http_exchange::send(std::chrono::milliseconds timeout) {
  auto& d = *impl_;
  auto taken = co_await d.take(false);
  const bool reused = taken->reused;
  auto ec = co_await d.write_on(std::move(taken), timeout);
  if (ec && reused && stale_connection_error(ec)) {
    auto fresh = co_await d.take(true);
    ec = co_await d.write_on(std::move(fresh), timeout);
  }
  if (ec) {
    d.conn.release(false);
    d.fail(ec, "write the request");
  }
}

asio::awaitable<void> http_exchange::read_head(std::chrono::milliseconds timeout) {
  auto& d = *impl_;
  for (bool resent_stale = false;;) {
    d.parser = std::make_unique<response_parser>();
    d.parser->header_limit(max_head_size);
    d.parser->body_limit(boost::none);  // the callers bound what they keep
    auto ec = co_await d.conn->read_head(*d.parser, timeout);
    if (!ec) {
      if (!d.challenged()) break;
      // The refusal stays readable (connection and parser kept) unless the
      // authorizer has new credentials: then the request goes again.
      ++d.challenges;
      if (!co_await d.authorizer->on_challenge(d.challenge())) break;
      d.conn.release(false);
      d.authorize();
      auto renewed = co_await d.take(false);
      ec = co_await d.write_on(std::move(renewed), timeout);
      if (ec) {
        d.conn.release(false);
        d.fail(ec, "write the request");
      }
      continue;
    }
    const bool retry = !resent_stale && d.conn->reused && !d.parser->got_some() && stale_connection_error(ec);
    resent_stale = true;
    d.conn.release(false);
    if (!retry) d.fail(ec, "read the response head");
    auto fresh = co_await d.take(true);
    ec = co_await d.write_on(std::move(fresh), timeout);
    if (ec) {
      d.conn.release(false);
      d.fail(ec, "write the request");
    }
  }
}

unsigned http_exchange::status() const { return impl_->parser ? impl_->parser->get().result_int() : 0; }

std::string http_exchange::reason() const {
  if (!impl_->parser) return {};
  const auto& head = impl_->parser->get();
  auto text = std::string(head.reason());
  if (text.empty()) text = std::string(http::obsolete_reason(head.result()));
  return text;
}

std::string http_exchange::request_header(std::string_view name) const {
  const auto it = impl_->req.find(name);
  return it == impl_->req.end() ? std::string() : std::string(it->value());
}

std::string http_exchange::header(std::string_view name) const {
  if (!impl_->parser) return {};
  const auto& head = impl_->parser->get();
  const auto it = head.find(name);
  return it == head.end() ? std::string() : std::string(it->value());
}

std::vector<std::pair<std::string, std::string>> http_exchange::headers() const {
  std::vector<std::pair<std::string, std::string>> all;
  if (!impl_->parser) return all;
  for (const auto& field : impl_->parser->get()) all.emplace_back(field.name_string(), field.value());
  return all;
}

std::string media_type_of(std::string_view content_type) {
  std::string type(content_type.substr(0, content_type.find(';')));
  std::erase_if(type, [](unsigned char c) { return std::isspace(c); });
  std::ranges::transform(type, type.begin(), [](unsigned char c) { return std::tolower(c); });
  return type;
}

std::string http_exchange::media_type() const { return media_type_of(header("Content-Type")); }

asio::awaitable<bool> http_exchange::read_some(std::string& out, std::chrono::milliseconds timeout) {
  auto& d = *impl_;
  if (!d.parser || !d.conn) throw http_error(asio::error::not_connected, d.description);
  if (d.parser->is_done()) co_return false;
  if (!d.chunk) d.chunk = std::make_unique_for_overwrite<char[]>(chunk_size);
  auto& body = d.parser->get().body();
  body.data = d.chunk.get();
  body.size = chunk_size;
  const auto ec = co_await d.conn->read_some(*d.parser, timeout);
  if (ec) d.fail(ec, "read the response body");
  const auto got = chunk_size - d.parser->get().body().size;
  out.append(d.chunk.get(), got);
  co_return true;
}

asio::awaitable<complete_reply> http_exchange::run_to_end(std::size_t limit, std::chrono::milliseconds timeout) {
  complete_reply reply;
  try {
    co_await send(timeout);
    co_await read_head(timeout);
    reply.body = co_await read_body(limit, timeout);
    reply.status = status();
    finish();
  } catch (const std::exception& e) {
    reply.failure = e.what();
    reply.status = 0;
  }
  co_return reply;
}

asio::awaitable<std::string> http_exchange::read_body(std::size_t limit, std::chrono::milliseconds timeout) {
  auto& d = *impl_;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string body;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw http_error(d.description + ": read the response body: timed out");
    if (!co_await read_some(body, left)) break;
    if (body.size() > limit)
      throw std::length_error(d.description + ": the response body exceeds " + std::to_string(limit) + " bytes");
  }
  co_return body;
}

void http_exchange::finish() noexcept {
  auto& d = *impl_;
  if (!d.conn) return;
  const bool reusable = d.parser && d.parser->is_done() && d.parser->get().keep_alive();
  d.conn.release(reusable);
}

void http_exchange::abort() noexcept { impl_->conn.release(false); }

void http_exchange::cancel() noexcept {
  if (impl_->conn) impl_->conn->close();
}

}  // namespace mcp::detail::http_client
