#pragma once
// UTF-8 and UTF-16 (what Windows' W functions take) for the Windows files:
// byte_stream_windows.cpp, child_process_windows.cpp.

#include <mcp/error.hpp>

// <winsock2.h> (which Asio's headers include) must come before <windows.h>.
#include <winsock2.h>
#include <windows.h>

#include <string>
#include <string_view>

namespace mcp::detail {

/// `text` in UTF-16. Throws mcp::invalid_argument, naming `what`, when it is
/// not UTF-8 or holds a NUL (which would end it early on Windows).
inline std::wstring utf8_to_utf16(std::string_view text, std::string_view what) {
  if (text.empty()) return {};
  if (text.find('\0') != std::string_view::npos)
    throw mcp::invalid_argument(std::string(what) + " holds a NUL character");
  const int size = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text.data(), static_cast<int>(text.size()),
                                       nullptr, 0);
  if (size <= 0) throw mcp::invalid_argument(std::string(what) + " is not UTF-8");
  std::wstring wide(static_cast<std::size_t>(size), L'\0');
  MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text.data(), static_cast<int>(text.size()), wide.data(), size);
  return wide;
}

/// `text` in UTF-8; an unpaired surrogate becomes U+FFFD.
inline std::string utf16_to_utf8(std::wstring_view text) {
  if (text.empty()) return {};
  const int size =
      WideCharToMultiByte(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0, nullptr, nullptr);
  if (size <= 0) return {};
  std::string narrow(static_cast<std::size_t>(size), '\0');
  WideCharToMultiByte(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), narrow.data(), size, nullptr, nullptr);
  return narrow;
}

}  // namespace mcp::detail
