#include "line_reader.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace loadgen {

namespace {
constexpr std::size_t read_size = 64 * 1024;
constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);
}  // namespace

asio::awaitable<void> line_reader::fill() {
  buffer_.erase(0, consumed_);
  consumed_ = 0;
  const std::size_t kept = buffer_.size();
  buffer_.resize(kept + read_size);
  const auto space = asio::buffer(buffer_.data() + kept, read_size);
  const auto [error, got] = co_await pipe_.async_read_some(space, as_tuple_awaitable);
  buffer_.resize(kept + got);
  if (error) throw boost::system::system_error(error);
}

std::optional<std::string_view> line_reader::pop_line() {
  const auto end = buffer_.find('\n', consumed_);
  if (end == std::string::npos) return std::nullopt;
  std::string_view line(buffer_.data() + consumed_, end - consumed_);
  consumed_ = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace loadgen
