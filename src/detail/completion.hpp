#pragma once
// Keeping and completing the asio::any_completion_handler of an operation
// that the library keeps compiled (its public async_... functions
// type-erase their handlers).
//
// Boost 1.81's any_completion_handler has two flaws that these step around:
// - its move assignment copies from an lvalue of its own type, which its
//   converting constructor takes and wraps, the wrapper again, without end:
//   never assign one; store_handler() and take_handler() only construct;
// - for the same reason a function object holding one looks copyable, and a
//   copy recurses the same way: post_completion() carries it in a shared_ptr;
// and asio::post does not take the any_completion_executor such a handler is
// associated with: post_completion() executes on it as post would.

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/execution/blocking.hpp>
#include <boost/asio/prefer.hpp>

#include <memory>
#include <utility>

namespace mcp::detail {

/// Puts `handler` in `slot` (which holds none).
template <class Signature>
void store_handler(boost::asio::any_completion_handler<Signature>& slot,
                   boost::asio::any_completion_handler<Signature>&& handler) noexcept {
  boost::asio::any_completion_handler<Signature> incoming(std::move(handler));
  slot.swap(incoming);
}

/// The handler in `slot`, which is left empty.
template <class Signature>
boost::asio::any_completion_handler<Signature> take_handler(
    boost::asio::any_completion_handler<Signature>& slot) noexcept {
  return boost::asio::any_completion_handler<Signature>(std::move(slot));
}

/// Completes `handler` with `args` later, on its associated executor
/// (`fallback` when it has none), never inside the caller.
template <class Signature, class... Args>
void post_completion(boost::asio::any_completion_handler<Signature> handler,
                     const boost::asio::any_io_executor& fallback, Args... args) {
  namespace asio = boost::asio;
  const auto ex = asio::prefer(asio::get_associated_executor(handler, fallback), asio::execution::blocking.never);
  auto held = std::make_shared<asio::any_completion_handler<Signature>>(std::move(handler));
  ex.execute([held = std::move(held), ... args = std::move(args)]() mutable { std::move(*held)(std::move(args)...); });
}

}  // namespace mcp::detail
