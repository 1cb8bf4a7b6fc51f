#pragma once
// The HTTP request headers a handler sees (transport_metadata::headers).

#include <mcp/export.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp {

/// HTTP headers in the order received, names in lower case. Looked up by
/// name in any case; a repeated header keeps every occurrence (find() gives
/// the first). Held in one string, so copying a request's headers for its
/// handler costs two allocations, not two per header.
class MCP_API header_list {
 public:
  /// A header: its name (lower case) and value, viewing the list's own text
  /// (valid until the list changes or goes).
  using value_type = std::pair<std::string_view, std::string_view>;

  /// Appends a header; `name` is stored in lower case.
  void add(std::string_view name, std::string_view value);
  /// Room for `count` headers of `bytes` characters in all.
  void reserve(std::size_t count, std::size_t bytes);

  /// The value of the first header called `name` (any case).
  std::optional<std::string_view> find(std::string_view name) const noexcept;
  /// Whether a header called `name` (any case) is there.
  bool contains(std::string_view name) const noexcept { return find(name).has_value(); }
  /// The value of the first header called `name`; throws std::out_of_range when absent.
  std::string_view at(std::string_view name) const;

  /// How many headers, each occurrence of a repeated one counted.
  std::size_t size() const noexcept { return entries_.size(); }
  /// Whether there are none.
  bool empty() const noexcept { return entries_.empty(); }
  /// The header at `index` in the order received; `index` must be below size().
  value_type operator[](std::size_t index) const noexcept {
    const auto& e = entries_[index];
    return {text(e.name_at, e.name_size), text(e.value_at, e.value_size)};
  }

  /// Walks the headers in the order received; dereferencing gives a
  /// value_type by value.
  class iterator {
   public:
    using value_type = header_list::value_type;  ///< a header, as header_list::value_type
    using difference_type = std::ptrdiff_t;       ///< for the standard iterator concepts
    iterator() = default;
    /// At the header `index` of `list` (size() for the end).
    iterator(const header_list* list, std::size_t index) : list_(list), index_(index) {}
    /// The header it is at.
    value_type operator*() const noexcept { return (*list_)[index_]; }
    /// Moves to the next header.
    iterator& operator++() noexcept {
      ++index_;
      return *this;
    }
    /// Moves to the next header; returns where it was.
    iterator operator++(int) noexcept {
      auto before = *this;
      ++index_;
      return before;
    }
    /// The same list, at the same header.
    bool operator==(const iterator&) const = default;

   private:
    const header_list* list_ = nullptr;
    std::size_t index_ = 0;
  };
  /// The first header.
  iterator begin() const noexcept { return {this, 0}; }
  /// Past the last header.
  iterator end() const noexcept { return {this, entries_.size()}; }

 private:
  struct entry {
    std::uint32_t name_at, name_size, value_at, value_size;
  };
  std::string_view text(std::uint32_t at, std::uint32_t size) const noexcept { return {text_.data() + at, size}; }

  std::string text_;
  std::vector<entry> entries_;
};

}  // namespace mcp
