#pragma once
// RESP2 on the wire: commands written into a buffer we send, replies parsed
// from bytes we read with hiredis's reader (no sockets of its own). Commands
// are written here, not by hiredis's redisFormatCommandArgv: its formatting
// of one EVALSHA cost 5,600 instructions, a twelfth of a request served with
// the Redis stores (bench/README.md, "Third round"), for a format of two
// lines.

#include "reply.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct redisReader;

namespace mcp::detail::redis {

/// Appends `args` (the command name, then its arguments) to `out` as one
/// RESP command. Throws std::invalid_argument when `args` is empty.
void append_command(std::string& out, const std::vector<std::string>& args);

/// Appends EVAL or EVALSHA (`verb`) of `body` (a script's source or SHA1)
/// with its `keys` and `args`, as append_command would, without gathering
/// them into one vector first.
void append_eval(std::string& out, std::string_view verb, std::string_view body, const std::vector<std::string>& keys,
                 const std::vector<std::string>& args);

/// Thrown when Redis sends bytes that are not RESP2: the connection is done.
class protocol_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses the replies of one connection from the bytes read, in order.
class decoder {
 public:
  decoder();
  ~decoder();
  decoder(const decoder&) = delete;
  decoder& operator=(const decoder&) = delete;

  /// Takes more bytes. Throws protocol_error.
  void feed(std::string_view bytes);
  /// The next whole reply, or nullopt until more bytes come. Throws protocol_error.
  std::optional<reply> next();

 private:
  struct free_reader {
    void operator()(redisReader* r) const noexcept;
  };
  std::unique_ptr<redisReader, free_reader> reader_;
};

}  // namespace mcp::detail::redis
