#include "connection.hpp"

#include "link.hpp"
#include "wire.hpp"

namespace mcp::detail::redis {

namespace {

// Not a coroutine: the lambda must not be made inside a co_await expression.
asio::awaitable<std::vector<reply>> submit(std::shared_ptr<link> l, std::string wire, std::size_t count) {
  return await_replies(std::move(wire), count, [l = std::move(l)](pending_command p) { l->submit(std::move(p)); });
}

}  // namespace

std::shared_ptr<connection> connection::create(asio::any_io_executor ex, config cfg) {
  auto l = std::make_shared<link>(std::move(ex), std::move(cfg));
  l->start();
  return std::shared_ptr<connection>(new connection(std::move(l)));
}

connection::connection(std::shared_ptr<link> l) : link_(std::move(l)) {}

connection::~connection() { close(); }

asio::awaitable<reply> connection::command(std::vector<std::string> args) {
  std::string wire;
  append_command(wire, args);
  auto replies = co_await submit(link_, std::move(wire), 1);
  co_return std::move(replies.front());
}

asio::awaitable<std::vector<reply>> connection::pipeline(std::vector<std::vector<std::string>> commands) {
  if (commands.empty()) co_return std::vector<reply>{};
  std::string wire;
  for (const auto& args : commands) append_command(wire, args);
  co_return co_await submit(link_, std::move(wire), commands.size());
}

void connection::send(std::vector<std::string> args) {
  pending_command p;
  append_command(p.wire, args);
  p.name = args.front();
  link_->submit(std::move(p));
}

asio::awaitable<reply> connection::eval(const script& lua, std::vector<std::string> keys,
                                        std::vector<std::string> args) {
  std::string by_sha1;
  append_eval(by_sha1, "EVALSHA", lua.sha1(), keys, args);
  auto replies = co_await submit(link_, std::move(by_sha1), 1);
  if (replies.front().is_error_code("NOSCRIPT")) {  // (a Redis that restarted, or was flushed)
    std::string by_source;
    append_eval(by_source, "EVAL", lua.source(), keys, args);
    replies = co_await submit(link_, std::move(by_source), 1);
  }
  co_return std::move(replies.front());
}

void connection::send_eval(const script& lua, std::vector<std::string> keys, std::vector<std::string> args) {
  pending_command p;
  append_eval(p.wire, "EVALSHA", lua.sha1(), keys, args);
  p.name = "EVALSHA";
  link_->submit(std::move(p));
}

bool connection::connected() const noexcept { return link_->connected(); }

const config& connection::settings() const noexcept { return link_->settings(); }

void connection::close() noexcept {
  try {
    link_->close();
  } catch (...) {
    // Only allocation can fail here; the link then ends with the io_context.
  }
}

}  // namespace mcp::detail::redis
