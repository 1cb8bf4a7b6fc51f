#include "session_relay.hpp"

#include <charconv>

namespace mcp::detail {

namespace {

// The next space-separated field of `line`, taken off its front.
std::string_view take_field(std::string_view& line) {
  const auto space = line.find(' ');
  const auto field = line.substr(0, space);
  line = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
  return field;
}

bool known_kind(char c) {
  using k = relay_message::kind;
  for (const auto kind : {k::event, k::stream_ended, k::to_get_stream, k::took_get_stream, k::deliver,
                          k::session_ended})
    if (c == static_cast<char>(kind)) return true;
  return false;
}

}  // namespace

std::optional<relay_message> parse_relay_message(std::string_view text) {
  const auto newline = text.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  auto line = text.substr(0, newline);
  relay_message message;
  message.payload = text.substr(newline + 1);
  const auto kind = take_field(line);
  if (kind.size() != 1 || !known_kind(kind[0])) return std::nullopt;
  message.what = static_cast<relay_message::kind>(kind[0]);
  message.from = take_field(line);
  message.stream = take_field(line);
  const auto seq = take_field(line);
  const auto [end, ec] = std::from_chars(seq.data(), seq.data() + seq.size(), message.seq);
  if (message.from.empty() || ec != std::errc() || end != seq.data() + seq.size() || !line.empty())
    return std::nullopt;
  if (message.stream == "-") message.stream = {};
  return message;
}

std::string relay_channel(std::string_view session_id) { return "session:" + std::string(session_id); }

void session_relay::publish(relay_message::kind what, std::string_view stream, std::uint64_t seq,
                            std::string_view payload) const {
  std::string text;
  text.reserve(payload.size() + server_.size() + stream.size() + 32);
  text += static_cast<char>(what);
  text += ' ';
  text += server_;
  text += ' ';
  text += stream.empty() ? std::string_view("-") : stream;
  text += ' ';
  text += std::to_string(seq);
  text += '\n';
  text += payload;
  bus_->publish(channel_, std::move(text));
}

void session_relay::event(std::string_view stream, std::uint64_t seq, std::string_view data) const {
  publish(relay_message::kind::event, stream, seq, data);
}

void session_relay::stream_ended(std::string_view stream) const {
  publish(relay_message::kind::stream_ended, stream, 0, {});
}

void session_relay::to_get_stream(std::string_view frame) const {
  publish(relay_message::kind::to_get_stream, {}, 0, frame);
}

void session_relay::took_get_stream(std::string_view stream) const {
  publish(relay_message::kind::took_get_stream, stream, 0, {});
}

void session_relay::deliver(std::string_view frame) const { publish(relay_message::kind::deliver, {}, 0, frame); }

void session_relay::session_ended() const { publish(relay_message::kind::session_ended, {}, 0, {}); }

}  // namespace mcp::detail
