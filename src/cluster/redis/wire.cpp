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

void append_command(std::string& out, const std::vector<std::string>& args) {
  if (args.empty()) throw mcp::invalid_argument("redis: a command needs at least its name");
  // "*<count>\r\n", then "$<length>\r\n<bytes>\r\n" for each argument.
  std::size_t size = 16;
  for (const auto& a : args) size += a.size() + 24;
  out.reserve(out.size() + size);
  const auto append_header = [&out](char kind, std::size_t n) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out += kind;
    out.append(digits, end);
    out += "\r\n";
  };
  append_header('*', args.size());
  for (const auto& a : args) {
    append_header('$', a.size());
    out += a;
    out += "\r\n";
  }
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
