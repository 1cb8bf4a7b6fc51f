#include "progress_bar.hpp"

#include "console.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace caduceus {

namespace {

constexpr std::size_t bar_cells = 24;

std::size_t terminal_width() {
  const auto columns = stderr_columns();
  return columns > 0 ? columns : 80;
}

std::string number(double value) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  return std::string(buffer, end);
}

// Cuts `text` to `width` code points.
std::string fit(std::string text, std::size_t width) {
  std::size_t columns = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (columns++ == width) return text.substr(0, i);
  }
  return text;
}

}  // namespace

std::string render_progress(const mcp::progress_update& update, std::size_t width) {
  std::string line;
  if (update.total && *update.total > 0) {
    const double fraction = std::clamp(update.progress / *update.total, 0.0, 1.0);
    const auto filled = static_cast<std::size_t>(std::floor(fraction * bar_cells));
    line = "[" + std::string(filled, '=');
    if (filled < bar_cells) line += ">" + std::string(bar_cells - filled - 1, ' ');
    line += "] ";
    const auto percent = std::to_string(static_cast<int>(std::floor(fraction * 100)));
    line += std::string(3 - std::min<std::size_t>(3, percent.size()), ' ') + percent + "%  ";
    line += number(update.progress) + "/" + number(*update.total);
  } else {
    line = "... " + number(update.progress);
  }
  if (!update.message.empty()) line += "  " + update.message;
  for (auto& c : line)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return fit(std::move(line), width > 1 ? width - 1 : width);
}

progress_bar::progress_bar(bool enabled) : enabled_(enabled) {}

progress_bar::~progress_bar() { clear(); }

void progress_bar::update(const mcp::progress_update& update) {
  if (!enabled_) return;
  line_ = render_progress(update, terminal_width());
  if (!held_) draw();
}

void progress_bar::status(std::string_view line) {
  if (!enabled_) return;
  const auto width = terminal_width();
  line_ = fit(std::string(line), width > 1 ? width - 1 : width);
  for (auto& c : line_)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  if (!held_) draw();
}

void progress_bar::hold(bool held) {
  if (held) clear();
  held_ = held;
}

void progress_bar::draw() {
  std::cerr << "\r\033[K" << line_ << std::flush;
  shown_ = true;
}

void progress_bar::clear() {
  line_.clear();
  if (!shown_) return;
  std::cerr << "\r\033[K" << std::flush;
  shown_ = false;
}

void progress_bar::note(std::string_view line) {
  const bool was_shown = shown_;
  if (was_shown) std::cerr << "\r\033[K";
  std::cerr << line << '\n';
  if (was_shown) draw();
  else std::cerr.flush();
}

}  // namespace caduceus
