#include "private_file.hpp"

#include <windows.h>
#include <sddl.h>

#include <stdexcept>
#include <string>
#include <system_error>

namespace mcp::detail {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, DWORD code) {
  throw std::runtime_error("cannot write " + path.string() + ": " +
                           std::system_category().message(static_cast<int>(code)));
}

// The current user's SID as text ("S-1-5-21-..."), from the process's token.
std::wstring current_user_sid(const std::filesystem::path& path) {
  HANDLE token = nullptr;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) fail(path, GetLastError());
  DWORD size = 0;
  GetTokenInformation(token, TokenUser, nullptr, 0, &size);
  std::string buffer(size, '\0');
  const bool read = GetTokenInformation(token, TokenUser, buffer.data(), size, &size);
  const DWORD why = GetLastError();
  CloseHandle(token);
  if (!read) fail(path, why);
  LPWSTR text = nullptr;
  if (!ConvertSidToStringSidW(reinterpret_cast<const TOKEN_USER*>(buffer.data())->User.Sid, &text))
    fail(path, GetLastError());
  std::wstring sid(text);
  LocalFree(text);
  return sid;
}

// "D:P(A;;FA;;;<the user>)": a protected DACL (nothing inherited from the
// folder) with one entry, full access for the current user. (Not the OWNER
// RIGHTS SID, OW: wine does not honour it, and the user is who we mean.)
struct owner_only_security {
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  SECURITY_ATTRIBUTES attributes{sizeof(SECURITY_ATTRIBUTES), nullptr, FALSE};
  explicit owner_only_security(const std::filesystem::path& path) {
    const auto sddl = L"D:P(A;;FA;;;" + current_user_sid(path) + L")";
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl.c_str(), SDDL_REVISION_1, &descriptor, nullptr))
      fail(path, GetLastError());
    attributes.lpSecurityDescriptor = descriptor;
  }
  ~owner_only_security() { LocalFree(descriptor); }
  owner_only_security(const owner_only_security&) = delete;
  owner_only_security& operator=(const owner_only_security&) = delete;
};

}  // namespace

void replace_private_file(const std::filesystem::path& path, std::string_view text) {
  auto temporary = path;
  temporary += ".tmp";
  owner_only_security security(path);
  HANDLE file = CreateFileW(temporary.c_str(), GENERIC_WRITE, 0, &security.attributes, CREATE_ALWAYS,
                            FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) fail(temporary, GetLastError());
  DWORD written = 0;
  const bool complete = WriteFile(file, text.data(), static_cast<DWORD>(text.size()), &written, nullptr) &&
                        written == text.size() && FlushFileBuffers(file);
  const DWORD saved = GetLastError();
  CloseHandle(file);
  // Unlike std::rename, replaces an existing file.
  if (!complete || !MoveFileExW(temporary.c_str(), path.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
    const DWORD why = complete ? GetLastError() : saved;
    DeleteFileW(temporary.c_str());
    fail(path, why);
  }
}

}  // namespace mcp::detail
