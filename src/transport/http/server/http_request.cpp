#include "http_request.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/field.hpp>

namespace mcp::detail {

std::string_view http_request::header(std::size_t slot) const noexcept {
  const auto index = known_[slot];
  return index == absent ? std::string_view() : text(headers_[index].value);
}

std::optional<std::string_view> http_request::find_header(std::string_view name) const noexcept {
  for (const auto& h : headers_)
    if (boost::beast::iequals(text(h.name), name)) return text(h.value);
  return std::nullopt;
}

header_list http_request::headers() const {
  header_list list;
  list.reserve(headers_.size(), fields_.size());
  for (const auto& h : headers_) list.add(text(h.name), text(h.value));
  return list;
}

header_list http_request::headers_without(std::string_view name) const {
  header_list list;
  list.reserve(headers_.size(), fields_.size());
  for (const auto& h : headers_)
    if (!boost::beast::iequals(text(h.name), name)) list.add(text(h.name), text(h.value));
  return list;
}

void http_request::clear() noexcept {
  method_ = http::verb::unknown;
  target_.clear();
  version_ = 11;
  keep_alive_ = false;
  fields_.clear();
  headers_.clear();
  known_.fill(absent);
  body_.clear();
}

http_request::span http_request::append(std::string_view s) {
  const span at{static_cast<std::uint32_t>(fields_.size()), static_cast<std::uint32_t>(s.size())};
  fields_ += s;
  return at;
}

void http_request::add_header(http::field field, std::string_view name, std::string_view value,
                              header_slot_of slot_of) {
  const header_entry entry{append(name), append(value)};
  if (const auto slot = slot_of(field, name); slot && *slot < max_slots) {
    // (Only a header limit far over the default admits this many headers.)
    auto& index = known_[*slot];
    if (index == absent && headers_.size() < absent) index = static_cast<std::uint16_t>(headers_.size());
  }
  headers_.push_back(entry);
}

void http_request::assign(http::verb method, std::string_view target, unsigned version, const header_list& headers,
                          std::string body, header_slot_of slot_of) {
  clear();
  method_ = method;
  target_ = target;
  version_ = version == 10 ? 10 : 11;
  keep_alive_ = true;
  for (const auto& [name, value] : headers) add_header(http::string_to_field(name), name, value, slot_of);
  body_ = std::move(body);
}

request_reader::request_reader(http_request& request, header_slot_of slot_of) noexcept
    : request_(request), slot_of_(slot_of) {
  request_.clear();
}

void request_reader::on_request_impl(http::verb method, boost::core::string_view, boost::core::string_view target,
                                     int version, boost::system::error_code&) {
  request_.method_ = method;
  request_.target_.assign(target.data(), target.size());
  request_.version_ = version == 10 ? 10 : 11;
}

void request_reader::on_field_impl(http::field name, boost::core::string_view name_string,
                                   boost::core::string_view value, boost::system::error_code&) {
  request_.add_header(name, {name_string.data(), name_string.size()}, {value.data(), value.size()}, slot_of_);
}

void request_reader::on_header_impl(boost::system::error_code&) { request_.keep_alive_ = keep_alive(); }

void request_reader::on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                                       boost::system::error_code&) {
  // (The body limit is checked before this: the length can be trusted.)
  if (content_length) request_.body_.reserve(static_cast<std::size_t>(*content_length));
}

std::size_t request_reader::on_body_impl(boost::core::string_view body, boost::system::error_code&) {
  request_.body_.append(body.data(), body.size());
  return body.size();
}

std::size_t request_reader::on_chunk_body_impl(std::uint64_t, boost::core::string_view body,
                                               boost::system::error_code&) {
  request_.body_.append(body.data(), body.size());
  return body.size();
}

}  // namespace mcp::detail
