#pragma once
// Aligned columns for the human-readable output.

#include <string>
#include <vector>

namespace caduceus {

/// Rows of cells printed with each column padded to its widest cell (the
/// last column is not padded; empty trailing cells leave no spaces).
class table {
 public:
  explicit table(std::string indent = "") : indent_(std::move(indent)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  std::string render() const;

 private:
  std::string indent_;
  std::vector<std::vector<std::string>> rows_;
};

/// The first line of `text`, for a one-line summary of a description.
std::string first_line(const std::string& text);

}  // namespace caduceus
