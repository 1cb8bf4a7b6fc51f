#pragma once
// The one line at the bottom of a terminal's stderr that shows a call's
// progress. When stderr is not a terminal it shows nothing; lines written
// through note() appear either way.

#include <mcp/client/client.hpp>

#include <string>
#include <string_view>

namespace caduceus {

class progress_bar {
 public:
  /// Shows anything only when `enabled` (stderr is a terminal).
  explicit progress_bar(bool enabled);
  ~progress_bar();
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;

  /// Redraws the line for this update.
  void update(const mcp::progress_update& update);
  /// Redraws the line with this text (cut to the terminal's width).
  void status(std::string_view line);
  /// Erases the line (idempotent).
  void clear();
  /// Writes one line on stderr above the bar (a log message, the server's stderr).
  void note(std::string_view line);
  /// While held (a question is on the terminal) the bar is not drawn; it
  /// comes back with the next update after release.
  void hold(bool held);

 private:
  void draw();

  bool enabled_;
  bool shown_ = false;
  bool held_ = false;
  std::string line_;
};

/// The bar's line for an update, at most `width` columns wide:
/// `[=====>      ]  42%  5/12  message` (or `5  message` without a total).
std::string render_progress(const mcp::progress_update& update, std::size_t width);

}  // namespace caduceus
