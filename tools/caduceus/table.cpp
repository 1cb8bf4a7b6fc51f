#include "table.hpp"

#include <algorithm>

namespace caduceus {

namespace {

constexpr std::size_t gap = 2;

// Display width of UTF-8 text, counting code points (good enough for names).
std::size_t width_of(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::string table::render() const {
  std::vector<std::size_t> widths;
  for (const auto& row : rows_) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width_of(row[i]));
  }
  std::string out;
  for (const auto& row : rows_) {
    std::size_t last = row.size();
    while (last > 0 && row[last - 1].empty()) --last;
    std::string line = indent_;
    for (std::size_t i = 0; i < last; ++i) {
      line += row[i];
      if (i + 1 < last) line.append(widths[i] - width_of(row[i]) + gap, ' ');
    }
    out += line;
    out += '\n';
  }
  return out;
}

std::string first_line(const std::string& text) {
  const auto end = text.find_first_of("\r\n");
  std::string line = end == std::string::npos ? text : text.substr(0, end);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (end != std::string::npos && text.find_first_not_of(" \r\n", end) != std::string::npos) line += " ...";
  return line;
}

}  // namespace caduceus
