#pragma once
// A request as the HTTP server reads it, and the reader that fills it from
// Beast's HTTP/1.1 parser.
//
// Beast's own request type allocates every header field into a tree, and the
// server looked up some ten of them by name per POST: together about a tenth
// of the work of a tools/call. Here the headers are appended to one string,
// the ones the server reads are found once, as they arrive, and one request
// object serves a connection's requests one after another, so its strings
// keep their room. Which headers those are, the layer above says (the MCP
// server: server/http/served_request.hpp): this one knows HTTP only.

#include <mcp/transport/header_list.hpp>

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace mcp::detail {

namespace http = boost::beast::http;

/// Where the reader keeps a header the layer above reads often: its slot
/// (below http_request::max_slots), or none. Given the field as Beast knows
/// it (http::field::unknown for a name it has no enum for) and the name as
/// sent.
using header_slot_of = std::optional<std::size_t> (*)(http::field field, std::string_view name) noexcept;

class http_request {
 public:
  static constexpr std::size_t max_slots = 16;

  http_request() noexcept { known_.fill(absent); }

  http::verb method() const noexcept { return method_; }
  std::string_view target() const noexcept { return target_; }
  /// 10 or 11.
  unsigned version() const noexcept { return version_; }
  /// Whether the client keeps the connection after this request.
  bool keep_alive() const noexcept { return keep_alive_; }
  std::string& body() noexcept { return body_; }
  const std::string& body() const noexcept { return body_; }

  /// The value of the header the reader kept in `slot`; empty when absent.
  std::string_view header(std::size_t slot) const noexcept;
  /// The same, for slots named by an enum of the layer above.
  template <class Slot>
    requires std::is_enum_v<Slot>
  std::string_view operator[](Slot slot) const noexcept {
    return header(static_cast<std::size_t>(slot));
  }

  /// The value of the first header called `name` (any case), found by
  /// walking them all: for headers read rarely (telemetry).
  std::optional<std::string_view> find_header(std::string_view name) const noexcept;
  /// Every header, for a handler's transport_metadata.
  header_list headers() const;
  /// Every header but those called `name` (any case): what a handler may
  /// see of a request whose credentials the server keeps to itself.
  header_list headers_without(std::string_view name) const;

  /// Empties the request for the next one (keeping the strings' room).
  void clear() noexcept;

  /// Fills the request from parts that another HTTP server read (an
  /// application's own, driving an http_endpoint), keeping the headers
  /// `slot_of` places as request_reader does. The connection is kept alive.
  void assign(http::verb method, std::string_view target, unsigned version, const header_list& headers,
              std::string body, header_slot_of slot_of);

 private:
  friend class request_reader;
  struct span {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
  };
  struct header_entry {
    span name;
    span value;
  };
  // Header limits keep a request's headers well under this many.
  static constexpr std::uint16_t absent = 0xffff;

  std::string_view text(span s) const noexcept { return {fields_.data() + s.offset, s.size}; }
  span append(std::string_view s);
  // Appends a header, noting it in its slot when `slot_of` gives it one.
  void add_header(http::field field, std::string_view name, std::string_view value, header_slot_of slot_of);

  http::verb method_ = http::verb::unknown;
  std::string target_;
  unsigned version_ = 11;
  bool keep_alive_ = false;
  std::string fields_;  // every header's name and value, one after another
  std::vector<header_entry> headers_;
  std::array<std::uint16_t, max_slots> known_{};  // index into headers_, by slot
  std::string body_;
};

/// Reads one request into an http_request (which it clears first), keeping
/// the headers `slot_of` places. A new reader per request, as Beast's
/// parsers are; the request outlives it.
class request_reader final : public http::basic_parser<true> {
 public:
  request_reader(http_request& request, header_slot_of slot_of) noexcept;

  /// The request is refused before it was read whole (its body over the
  /// limit): what is left of it is never read, so the connection cannot
  /// carry another request and its answer closes it.
  void refuse_keep_alive() noexcept { request_.keep_alive_ = false; }

 private:
  void on_request_impl(http::verb method, boost::core::string_view method_string,
                       boost::core::string_view target, int version, boost::system::error_code& ec) override;
  void on_response_impl(int, boost::core::string_view, int, boost::system::error_code&) override {}
  void on_field_impl(http::field name, boost::core::string_view name_string, boost::core::string_view value,
                     boost::system::error_code& ec) override;
  void on_header_impl(boost::system::error_code& ec) override;
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                         boost::system::error_code& ec) override;
  std::size_t on_body_impl(boost::core::string_view body, boost::system::error_code& ec) override;
  void on_chunk_header_impl(std::uint64_t, boost::core::string_view, boost::system::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t remain, boost::core::string_view body,
                                 boost::system::error_code& ec) override;
  void on_finish_impl(boost::system::error_code&) override {}

  http_request& request_;
  header_slot_of slot_of_;
};

}  // namespace mcp::detail
