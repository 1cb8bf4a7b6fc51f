#include "failure.hpp"

#include <mcp/protocol/errors.hpp>

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

#include <iostream>

namespace caduceus {

namespace {

namespace asio = boost::asio;

std::string one_line(std::string text) {
  for (auto& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text.empty() ? std::string("unknown error") : text;
}

std::string describe_system_error(const boost::system::system_error& e) {
  const auto code = e.code();
  if (code == asio::error::timed_out) return "timed out waiting for the server";
  if (code == asio::error::connection_aborted || code == asio::error::eof)
    return "the server closed the connection";
  if (code == asio::error::not_connected) return "not connected to the server";
  // what() ends in " [system:99 at FILE:LINE in function ...]": keep the words.
  std::string text = e.what();
  if (const auto detail = text.rfind(" ["); detail != std::string::npos && text.ends_with("]"))
    text.erase(detail);
  return text;
}

}  // namespace

std::string describe_failure(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const usage_error& e) {
    return one_line(e.what());
  } catch (const mcp::protocol_error& e) {
    return one_line(std::string(e.what()) + " (error " + std::to_string(e.error().code) + ")");
  } catch (const boost::system::system_error& e) {
    return one_line(describe_system_error(e));
  } catch (const std::exception& e) {
    return one_line(e.what());
  } catch (...) {
    return "unknown error";
  }
}

int exit_code_of(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const usage_error&) {
    return exit_usage;
  } catch (...) {
    return exit_failure;
  }
}

int report_failure(std::exception_ptr failure) {
  std::cout.flush();
  std::cerr << "caduceus: " << describe_failure(failure) << std::endl;
  return exit_code_of(failure);
}

}  // namespace caduceus
