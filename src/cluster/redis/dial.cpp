#include "dial.hpp"
#include "../../detail/as_tuple_awaitable.hpp"

#include "errors.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <memory>

namespace mcp::detail::redis {

namespace {

using tcp = asio::ip::tcp;

// The greeting: its commands, and what each reply must be.
struct greeting {
  std::string wire;
  std::vector<std::string> names;  // for messages: "AUTH", "SELECT 3", "SCRIPT LOAD", "PING"
};

greeting make_greeting(const config& cfg) {
  greeting g;
  if (cfg.password) {
    if (cfg.user.empty())
      append_command(g.wire, {"AUTH", *cfg.password});
    else
      append_command(g.wire, {"AUTH", cfg.user, *cfg.password});
    g.names.push_back("AUTH");
  }
  if (cfg.database != 0) {
    append_command(g.wire, {"SELECT", std::to_string(cfg.database)});
    g.names.push_back("SELECT " + std::to_string(cfg.database));
  }
  for (const auto& source : cfg.scripts) {
    append_command(g.wire, {"SCRIPT", "LOAD", source});
    g.names.push_back("SCRIPT LOAD");
  }
  append_command(g.wire, {"PING"});
  g.names.push_back("PING");
  return g;
}

}  // namespace

asio::awaitable<void> dial(tcp::socket& socket, tcp::resolver& resolver, const config& cfg, decoder& replies) {
  // One deadline for every step: when it passes, the timer closes the socket
  // and cancels the resolver, which ends whichever step is waiting. `armed`
  // keeps a late expiry (already queued when we finish) from touching the
  // socket once it is open and in use.
  auto armed = std::make_shared<bool>(true);
  asio::steady_timer deadline(co_await asio::this_coro::executor);
  deadline.expires_after(cfg.connect_timeout);
  deadline.async_wait([armed, &socket, &resolver](boost::system::error_code ec) {
    if (ec || !*armed) return;
    *armed = false;
    resolver.cancel();
    boost::system::error_code ignored;
    socket.close(ignored);
  });
  auto fail = [&](const std::string& what) {
    const bool timed_out = !*armed;
    *armed = false;
    deadline.cancel();
    boost::system::error_code ignored;
    socket.close(ignored);
    throw unavailable(unavailable_reason::not_connected,
                      what + (timed_out ? " (no success within " + std::to_string(cfg.connect_timeout.count()) + " ms)" : ""));
  };

  auto [resolve_ec, endpoints] =
      co_await resolver.async_resolve(cfg.host, std::to_string(cfg.port), as_tuple_awaitable);
  if (resolve_ec) fail("cannot resolve " + cfg.host + ": " + resolve_ec.message());

  boost::system::error_code connect_ec = asio::error::host_not_found;
  for (const auto& entry : endpoints) {
    if (!*armed) break;
    boost::system::error_code ignored;
    socket.close(ignored);  // after a failed attempt; async_connect opens it again
    auto [ec] = co_await socket.async_connect(entry.endpoint(), as_tuple_awaitable);
    connect_ec = ec;
    if (!ec) break;
  }
  if (connect_ec || !*armed) fail("cannot connect: " + connect_ec.message());
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);

  const auto hello = make_greeting(cfg);
  auto [write_ec, written] = co_await asio::async_write(socket, asio::buffer(hello.wire), as_tuple_awaitable);
  if (write_ec) fail("cannot send the greeting: " + write_ec.message());

  std::array<char, 1024> buffer;
  for (const auto& name : hello.names) {
    std::optional<reply> r;
    try {
      while (!(r = replies.next())) {
        auto [ec, n] = co_await socket.async_read_some(asio::buffer(buffer), as_tuple_awaitable);
        if (ec) fail("no answer to " + name + ": " + ec.message());
        replies.feed(std::string_view(buffer.data(), n));
      }
    } catch (const protocol_error& e) {
      fail(e.what());
    }
    if (r->is_error()) fail(name + " failed: " + std::string(r->error_message()));
  }
  *armed = false;
  deadline.cancel();
}

}  // namespace mcp::detail::redis
