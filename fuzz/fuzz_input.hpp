#pragma once
// What the fuzz targets share: the input as text, and its parts.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mcp::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The parts of an input separated by NUL bytes (which JSON text, URIs and
/// header values never hold, so a seed can be written as its parts).
inline std::vector<std::string_view> parts(std::string_view text) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto nul = text.find('\0');
    out.push_back(text.substr(0, nul));
    if (nul == std::string_view::npos) return out;
    text.remove_prefix(nul + 1);
  }
}

/// The part at `index`, or empty.
inline std::string_view part(const std::vector<std::string_view>& all, std::size_t index) {
  return index < all.size() ? all[index] : std::string_view();
}

/// Cuts the input into chunks whose sizes the first byte picks, as a
/// stream reader gets them from the network.
template <class Feed>
void feed_in_chunks(std::string_view text, Feed&& feed) {
  if (text.empty()) return;
  const std::size_t chunk = 1 + static_cast<unsigned char>(text.front()) % 64;
  text.remove_prefix(1);
  while (!text.empty()) {
    const auto n = std::min(chunk, text.size());
    feed(text.substr(0, n));
    text.remove_prefix(n);
  }
}

}  // namespace mcp::fuzz

/// Every target defines it.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
