#pragma once
// The person at the terminal, for the questions a server asks (elicitation):
// prompts go to stderr (stdout keeps the results, JSON stays clean) and
// answers are lines read from stdin on a thread of their own, so the
// connection goes on while nobody types. One dialog at a time holds the
// terminal; Ctrl-C during a dialog ends that dialog, not the command.

#include "progress_bar.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

namespace caduceus {

/// What a question got.
struct reply {
  enum class kind {
    line,         ///< a line of text (in `text`, without its newline)
    end,          ///< end of input: Ctrl-D, the end of piped answers, none within the time given
    interrupted,  ///< Ctrl-C
  };
  kind what = kind::end;
  std::string text;
};

/// Shared (std::make_shared): a dialog keeps the terminal alive, since a
/// server request's handler may end after the command has.
class terminal : public std::enable_shared_from_this<terminal> {
 public:
  /// `answer_limit`: when stdin is not a terminal, how long a question waits
  /// for a line before it counts as the end of input.
  terminal(boost::asio::any_io_executor ex, progress_bar& bar, std::chrono::milliseconds answer_limit);
  ~terminal();
  terminal(const terminal&) = delete;
  terminal& operator=(const terminal&) = delete;

  /// Stops reading stdin (joins the reader thread): call before the
  /// io_context ends. Questions asked afterwards get `end`.
  void stop();

  /// Whether stdin is a terminal (else answers are read as lines from it).
  bool interactive() const noexcept { return interactive_; }

  /// Holds the terminal for one dialog while it lives; a second dialog waits
  /// for the first to end. The progress bar stays hidden meanwhile.
  class dialog {
   public:
    dialog(dialog&& other) noexcept;
    dialog(const dialog&) = delete;
    dialog& operator=(const dialog&) = delete;
    dialog& operator=(dialog&&) = delete;
    ~dialog();

   private:
    friend class terminal;
    explicit dialog(std::shared_ptr<terminal> owner) : owner_(std::move(owner)) {}
    std::shared_ptr<terminal> owner_;
  };
  /// Waits for the terminal to be free and takes it. Cancellable.
  boost::asio::awaitable<dialog> open_dialog();

  /// Writes `text` on stderr.
  void say(std::string_view text);
  /// Writes `prompt` on stderr and reads one line. Once input has ended,
  /// every question gets `end` at once. Cancellable (the server withdrew its
  /// question): throws system_error(operation_aborted).
  boost::asio::awaitable<reply> ask(std::string_view prompt);

  /// Ctrl-C. True when a dialog was open: its question (or the next one)
  /// gets `interrupted`. False when nobody is being asked anything.
  bool interrupt();

 private:
  struct reader;  // the thread that reads stdin, and what it shares with us
  struct waiter;

  void close_dialog();
  void take_input(std::string chunk, bool ended);  // on the executor, from the reader

  boost::asio::any_io_executor ex_;
  progress_bar& bar_;
  std::chrono::milliseconds answer_limit_;
  bool interactive_;
  std::shared_ptr<reader> reader_;
  bool busy_ = false;          // a dialog holds the terminal
  bool interrupted_ = false;   // Ctrl-C in the open dialog, not yet seen by a question
  bool input_ended_ = false;
  std::string buffer_;         // read, not yet taken as lines
  boost::asio::steady_timer wake_;  // cancelled when input comes or Ctrl-C is pressed
  std::deque<std::shared_ptr<waiter>> waiting_;
};

}  // namespace caduceus
