#include "connection.hpp"

#include "link.hpp"
#include "wire.hpp"

#include <iterator>

namespace mcp::detail::redis {

namespace {

// Not a coroutine: the lambda must not be made inside a co_await expression.
asio::awaitable<std::vector<reply>> submit(std::shared_ptr<link> l, std::string wire, std::size_t count) {
  return await_replies(std::move(wire), count, [l = std::move(l)](pending_command p) { l->submit(std::move(p)); });
}

// EVAL or EVALSHA (`verb`) of `body` (a script's source or SHA1).
std::vector<std::string> eval_command(std::string verb, const std::string& body, std::vector<std::string> keys,
                                      std::vector<std::string> args) {
  std::vector<std::string> command{std::move(verb), body, std::to_string(keys.size())};
  command.insert(command.end(), std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
  command.insert(command.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  return command;
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
  auto by_sha1 = eval_command("EVALSHA", lua.sha1(), keys, args);
  auto r = co_await command(std::move(by_sha1));
  if (r.is_error_code("NOSCRIPT")) {
    auto by_source = eval_command("EVAL", lua.source(), std::move(keys), std::move(args));
    r = co_await command(std::move(by_source));
  }
  co_return r;
}

void connection::send_eval(const script& lua, std::vector<std::string> keys, std::vector<std::string> args) {
  send(eval_command("EVALSHA", lua.sha1(), std::move(keys), std::move(args)));
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
