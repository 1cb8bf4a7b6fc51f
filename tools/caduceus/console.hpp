#pragma once
// What the tool asks of the terminal it runs in, where POSIX systems and
// Windows differ: one file each (console_posix.cpp, console_windows.cpp).

#include <chrono>
#include <cstddef>

namespace caduceus {

/// Whether stdin is a terminal (on Windows a console; the NUL device is not).
bool stdin_is_terminal();

/// Whether stderr is a terminal that shows the progress bar (which redraws
/// its line with escape sequences). On Windows: a console, whose processing
/// of escape sequences this turns on; false where it cannot be.
bool stderr_is_terminal();

/// The width in columns of the terminal on stderr; 0 when unknown.
std::size_t stderr_columns();

/// Waits at most `slice` for stdin to have something to read, or to have
/// ended: true when read_stdin() will not wait long. On a Windows console,
/// true at once: the console echoes a line as it is typed only while a read
/// waits for it (interrupt_stdin() ends that wait).
bool wait_for_stdin(std::chrono::milliseconds slice);

/// Reads some of stdin (UTF-8 from a Windows console): the number of bytes,
/// 0 at its end, -1 when interrupted (worth trying again).
long read_stdin(char* buffer, std::size_t size);

/// From another thread: a read_stdin() that waits returns -1 soon, and so
/// does the next one, so that the thread reading can be joined.
void interrupt_stdin();

}  // namespace caduceus
