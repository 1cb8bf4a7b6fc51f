#include "wire.hpp"

#include <mcp/error.hpp>

#include <hiredis.h>

#include <charconv>
#include <new>
#include <stdexcept>

namespace mcp::detail::redis {

namespace {

reply copy_reply(const redisReply& r) {
  switch (r.type) {
    case REDIS_REPLY_INTEGER: return reply::make_integer(r.integer);
    case REDIS_REPLY_STRING: return reply::make_string(std::string(r.str, r.len));
    case REDIS_REPLY_STATUS: return reply::make_status(std::string(r.str, r.len));
    case REDIS_REPLY_ERROR: return reply::make_error(std::string(r.str, r.len));
    case REDIS_REPLY_ARRAY: {
      std::vector<reply> elements;
      elements.reserve(r.elements);
      for (std::size_t i = 0; i < r.elements; ++i) elements.push_back(copy_reply(*r.element[i]));
      return reply::make_array(std::move(elements));
    }
    default: return reply();  // REDIS_REPLY_NIL (RESP2 has no other kinds)
  }
}

}  // namespace

namespace {

// A command is "*<count>\r\n", then "$<length>\r\n<bytes>\r\n" for each argument.
// (Each line is made on the stack and appended once: an append per part
// cost a capacity check each, a tenth of writing a touch.)
void append_header(std::string& out, char kind, std::size_t n) {
  char line[32];
  line[0] = kind;
  auto* end = std::to_chars(line + 1, line + sizeof line - 2, n).ptr;
  *end++ = '\r';
  *end++ = '\n';
  out.append(line, end);
}

void append_argument(std::string& out, std::string_view argument) {
  append_header(out, '$', argument.size());
  out.append(argument).append("\r\n", 2);
}

// Room for `count` arguments of `bytes` in all, with their headers.
void make_room(std::string& out, std::size_t count, std::size_t bytes) { out.reserve(out.size() + 16 + bytes + 24 * count); }

std::size_t bytes_of(const std::vector<std::string>& args) {
  std::size_t bytes = 0;
  for (const auto& a : args) bytes += a.size();
  return bytes;
}

}  // namespace

void append_command(std::string& out, const std::vector<std::string>& args) {
  if (args.empty()) throw mcp::invalid_argument("redis: a command needs at least its name");
  make_room(out, args.size(), bytes_of(args));
  append_header(out, '*', args.size());
  for (const auto& a : args) append_argument(out, a);
}

void append_eval(std::string& out, std::string_view verb, std::string_view body, const std::vector<std::string>& keys,
                 const std::vector<std::string>& args) {
  const auto count = 3 + keys.size() + args.size();
  make_room(out, count, verb.size() + body.size() + bytes_of(keys) + bytes_of(args));
  append_header(out, '*', count);
  append_argument(out, verb);
  append_argument(out, body);
  char digits[24];
  append_argument(out, std::string_view(digits, std::to_chars(digits, digits + sizeof digits, keys.size()).ptr));
  for (const auto& k : keys) append_argument(out, k);
  for (const auto& a : args) append_argument(out, a);
}

void decoder::free_reader::operator()(redisReader* r) const noexcept { redisReaderFree(r); }

decoder::decoder() : reader_(redisReaderCreate()) {
  if (!reader_) throw std::bad_alloc();
}

decoder::~decoder() = default;

void decoder::feed(std::string_view bytes) {
  if (redisReaderFeed(reader_.get(), bytes.data(), bytes.size()) != REDIS_OK)
    throw protocol_error(std::string("protocol error: ") + reader_->errstr);
}

std::optional<reply> decoder::next() {
  void* raw = nullptr;
  if (redisReaderGetReply(reader_.get(), &raw) != REDIS_OK)
    throw protocol_error(std::string("protocol error: ") + reader_->errstr);
  if (!raw) return std::nullopt;
  std::unique_ptr<redisReply, void (*)(void*)> owned(static_cast<redisReply*>(raw), freeReplyObject);
  return copy_reply(*owned);
}

}  // namespace mcp::detail::redis
