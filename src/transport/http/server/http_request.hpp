#pragma once
// A request as the HTTP server reads it, and the reader that fills it from
// Beast's HTTP/1.1 parser.
//
// Beast's own request type allocates every header field into a tree, and the
// server looked up some ten of them by name per POST: together about a tenth
// of the work of a tools/call. Here the headers are appended to one string,
// the ones the server reads are found once, as they arrive, and one request
// object serves a connection's requests one after another, so its strings
// keep their room.

#include <mcp/auth/principal.hpp>
#include <mcp/transport/header_list.hpp>

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

namespace http = boost::beast::http;

/// The headers the server reads; found as they arrive.
enum class known_header : std::uint8_t {
  accept,
  content_type,
  host,
  origin,
  mcp_session_id,
  mcp_protocol_version,
  last_event_id,
  mcp_method,
  mcp_name,
  count_  // not a header
};

class http_request {
 public:
  http_request() noexcept { known_.fill(absent); }

  http::verb method() const noexcept { return method_; }
  std::string_view target() const noexcept { return target_; }
  /// 10 or 11.
  unsigned version() const noexcept { return version_; }
  /// Whether the client keeps the connection after this request.
  bool keep_alive() const noexcept { return keep_alive_; }
  std::string& body() noexcept { return body_; }
  const std::string& body() const noexcept { return body_; }

  /// The value of a header the server reads; empty when absent.
  std::string_view operator[](known_header name) const noexcept;

  /// Every header, for a handler's transport_metadata.
  header_list headers() const;
  /// Every header but those called `name` (any case): what a handler may
  /// see of a request whose credentials the server keeps to itself.
  header_list headers_without(std::string_view name) const;

  /// Empties the request for the next one (keeping the strings' room).
  void clear() noexcept;

  /// Who sent it, once the server's OAuth layer has checked its token.
  std::shared_ptr<const auth::principal> principal;
  /// The token came with the DPoP scheme (RFC 9449), not Bearer.
  bool dpop = false;

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

  http::verb method_ = http::verb::unknown;
  std::string target_;
  unsigned version_ = 11;
  bool keep_alive_ = false;
  std::string fields_;  // every header's name and value, one after another
  std::vector<header_entry> headers_;
  std::array<std::uint16_t, static_cast<std::size_t>(known_header::count_)> known_{};  // index into headers_
  std::string body_;
};

/// Reads one request into an http_request (which it clears first). A new
/// reader per request, as Beast's parsers are; the request outlives it.
class request_reader final : public http::basic_parser<true> {
 public:
  explicit request_reader(http_request& request) noexcept;

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
};

}  // namespace mcp::detail
