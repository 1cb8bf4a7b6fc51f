#include <mcp/base64.hpp>

#include <algorithm>
#include <array>

namespace mcp {

namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<signed char, 256> decoding_table() {
  std::array<signed char, 256> table{};
  table.fill(-1);
  for (int i = 0; i < 64; ++i) table[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
  return table;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned n = (unsigned char)bytes[i] << 16 | (unsigned char)bytes[i + 1] << 8 |
                       (unsigned char)bytes[i + 2];
    out += {alphabet[n >> 18], alphabet[(n >> 12) & 63], alphabet[(n >> 6) & 63], alphabet[n & 63]};
  }
  if (const auto rest = bytes.size() - i; rest > 0) {
    unsigned n = (unsigned char)bytes[i] << 16;
    if (rest == 2) n |= (unsigned char)bytes[i + 1] << 8;
    out += alphabet[n >> 18];
    out += alphabet[(n >> 12) & 63];
    out += rest == 2 ? alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  static constexpr auto table = decoding_table();
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
    unsigned n = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (k >= 4 - pad) {
        n <<= 6;
        continue;
      }
      const auto v = table[static_cast<unsigned char>(c)];
      if (v < 0) return std::nullopt;
      n = n << 6 | static_cast<unsigned>(v);
    }
    out += static_cast<char>(n >> 16);
    if (pad < 2) out += static_cast<char>((n >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(n & 0xff);
  }
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  auto text = base64_encode(bytes);
  text.erase(text.find_last_not_of('=') + 1);
  std::ranges::replace(text, '+', '-');
  std::ranges::replace(text, '/', '_');
  return text;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  if (text.find_first_of("+/=") != std::string_view::npos || text.size() % 4 == 1) return std::nullopt;
  std::string padded(text);
  std::ranges::replace(padded, '-', '+');
  std::ranges::replace(padded, '_', '/');
  padded.append((4 - padded.size() % 4) % 4, '=');
  auto bytes = base64_decode(padded);
  // Several texts decode to the same bytes when the last character's unused
  // bits differ; only the canonical one is accepted, so that a token has one
  // spelling.
  if (!bytes || base64url_encode(*bytes) != text) return std::nullopt;
  return bytes;
}

}  // namespace mcp
