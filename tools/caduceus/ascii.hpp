#pragma once
// ASCII case, for what the tool compares without it (answers typed at a
// prompt, header names, enum values).

#include <cctype>
#include <string>

namespace caduceus {

/// `text` in lower case (ASCII letters only).
inline std::string lower(std::string text) {
  for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace caduceus
