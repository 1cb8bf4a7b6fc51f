#include <mcp/transport/header_list.hpp>

#include <algorithm>
#include <stdexcept>

namespace mcp {

namespace {

char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool same_name(std::string_view stored_lower, std::string_view name) noexcept {
  return stored_lower.size() == name.size() &&
         std::equal(name.begin(), name.end(), stored_lower.begin(), [](char a, char b) { return lower(a) == b; });
}

}  // namespace

void header_list::reserve(std::size_t count, std::size_t bytes) {
  entries_.reserve(count);
  text_.reserve(bytes);
}

void header_list::add(std::string_view name, std::string_view value) {
  entry e{};
  e.name_at = static_cast<std::uint32_t>(text_.size());
  e.name_size = static_cast<std::uint32_t>(name.size());
  // (Appended whole, then lowered in place: a back_inserter paid a capacity
  // check per character, for every header of every stateless request.)
  text_ += name;
  std::transform(text_.begin() + e.name_at, text_.end(), text_.begin() + e.name_at, lower);
  e.value_at = static_cast<std::uint32_t>(text_.size());
  e.value_size = static_cast<std::uint32_t>(value.size());
  text_ += value;
  entries_.push_back(e);
}

std::optional<std::string_view> header_list::find(std::string_view name) const noexcept {
  for (const auto& e : entries_)
    if (same_name(text(e.name_at, e.name_size), name)) return text(e.value_at, e.value_size);
  return std::nullopt;
}

std::string_view header_list::at(std::string_view name) const {
  if (const auto value = find(name)) return *value;
  throw std::out_of_range("no header " + std::string(name));
}

}  // namespace mcp
