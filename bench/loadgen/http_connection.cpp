#include "http_connection.hpp"

#include "messages.hpp"

#include <boost/asio/write.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>

#include <stdexcept>

namespace loadgen {

namespace http = boost::beast::http;

http_target parse_http_url(std::string_view url) {
  constexpr std::string_view scheme = "http://";
  if (url.substr(0, scheme.size()) != scheme) throw std::invalid_argument("not an http:// URL: " + std::string(url));
  url.remove_prefix(scheme.size());
  const auto slash = url.find('/');
  const std::string_view authority = url.substr(0, slash);
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos) throw std::invalid_argument("the URL needs a port: " + std::string(url));
  http_target target;
  const auto address = asio::ip::make_address(std::string(authority.substr(0, colon)));
  const auto port = static_cast<unsigned short>(std::stoul(std::string(authority.substr(colon + 1))));
  target.endpoint = {address, port};
  target.host_header = std::string(authority);
  target.path = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
  return target;
}

http_connection::http_connection(asio::any_io_executor ex, const http_target& target)
    : target_(target), socket_(ex) {}

asio::awaitable<void> http_connection::connect() {
  co_await socket_.async_connect(target_.endpoint, asio::use_awaitable);
  socket_.set_option(asio::ip::tcp::no_delay(true));
}

asio::awaitable<http_reply> http_connection::post(std::string_view body, const post_headers& headers) {
  request_.clear();
  request_ += "POST ";
  request_ += target_.path;
  request_ += " HTTP/1.1\r\nHost: ";
  request_ += target_.host_header;
  request_ += "\r\nContent-Type: application/json\r\nAccept: ";
  request_ += headers.accept;
  if (!headers.session_id.empty()) {
    request_ += "\r\nMcp-Session-Id: ";
    request_ += headers.session_id;
  }
  if (headers.send_protocol_version) {
    request_ += "\r\nMCP-Protocol-Version: ";
    request_ += protocol_version;
  }
  request_ += "\r\nContent-Length: ";
  request_ += std::to_string(body.size());
  request_ += "\r\n\r\n";
  request_ += body;
  const auto request_bytes = asio::buffer(request_);
  co_await asio::async_write(socket_, request_bytes, asio::use_awaitable);

  http::response_parser<http::string_body> parser;
  co_await http::async_read(socket_, buffer_, parser, asio::use_awaitable);
  auto& response = parser.get();
  http_reply reply;
  reply.status = response.result_int();
  reply.content_type = std::string(response[http::field::content_type]);
  reply.session_id = std::string(response["Mcp-Session-Id"]);
  reply.body = std::move(response.body());
  co_return reply;
}

void http_connection::close() {
  boost::system::error_code ignored;
  socket_.close(ignored);
}

}  // namespace loadgen
