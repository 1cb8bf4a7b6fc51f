// The three line formats of log records (format_log_record in
// include/mcp/log.hpp):
//
//   text    2026-11-27T09:05:27.123Z caduceus info session: session expired session_id=3f2a
//   json    {"time":"2026-11-27T09:05:27.123Z","level":"info","category":"session","msg":"session expired","session_id":"3f2a"}
//   logfmt  time=2026-11-27T09:05:27.123Z level=info category=session msg="session expired" session_id=3f2a
//
// Whatever the text holds, a record stays one line of valid UTF-8: control
// characters are escaped as in JSON (\n, \u001b), and bytes that are not
// UTF-8 become U+FFFD.

#include <mcp/log.hpp>

#include "detail/log_fields.hpp"
#include "detail/utc_time.hpp"

#include <charconv>
#include <cmath>

namespace mcp {

namespace {

// The length of the UTF-8 sequence of more than one byte at the start of
// `s`, or 0 when it is not one.
std::size_t utf8_sequence(std::string_view s) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // past U+10FFFF
  } else return 0;
  if (s.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return length;
}

// `s` with JSON's escapes for what would break a line or a quoted string;
// `quotes` escapes `"` and `\` too (inside quotes).
void append_escaped(std::string& out, std::string_view s, bool quotes) {
  static constexpr char hex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const auto length = utf8_sequence(s.substr(i));
      if (length == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(s.substr(i, length));
        i += length;
      }
      continue;
    }
    ++i;
    if (quotes && (c == '"' || c == '\\')) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  append_escaped(out, s, true);
  out += '"';
}

// logfmt leaves a value bare when it has no space, '=', quote, backslash,
// control character or byte that is not UTF-8; otherwise it is quoted.
bool logfmt_bare(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const auto length = utf8_sequence(s.substr(i));
      if (length == 0) return false;
      i += length;
      continue;
    }
    if (c <= ' ' || c == '=' || c == '"' || c == '\\' || c == 0x7f) return false;
    ++i;
  }
  return true;
}

void append_logfmt_value(std::string& out, std::string_view s) {
  if (logfmt_bare(s)) out += s;
  else append_json_string(out, s);
}

// A key as written by the library is plain; one that is not is made so.
void append_key(std::string& out, std::string_view key) {
  if (key.empty()) out += '_';
  for (const char c : key) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                       c == '.' || c == '-';
    out += plain ? c : '_';
  }
}

void append_number(std::string& out, const log_field& f, bool json) {
  char buffer[32];
  std::to_chars_result written;
  if (f.type == log_field::kind::integer) {
    written = std::to_chars(buffer, buffer + sizeof buffer, f.integer);
  } else if (!std::isfinite(f.real)) {
    out += json ? "null" : (std::isnan(f.real) ? "NaN" : f.real > 0 ? "+Inf" : "-Inf");
    return;
  } else {
    written = std::to_chars(buffer, buffer + sizeof buffer, f.real);
  }
  out.append(buffer, written.ptr);
}

void append_text_line(std::string& out, const log_record& r) {
  detail::append_utc_time(out, r.time);
  out += " caduceus ";
  out += to_string(r.level);
  out += ' ';
  out += to_string(r.category);
  out += ": ";
  append_escaped(out, r.message, false);
  detail::append_logfmt_fields(out, r.fields);
}

void append_json_line(std::string& out, const log_record& r) {
  out += "{\"time\":\"";
  detail::append_utc_time(out, r.time);
  out += "\",\"level\":\"";
  out += to_string(r.level);
  out += "\",\"category\":\"";
  out += to_string(r.category);
  out += "\",\"msg\":";
  append_json_string(out, r.message);
  for (const auto& f : r.fields) {
    out += ",\"";
    append_key(out, f.key);
    out += "\":";
    if (f.type == log_field::kind::text) append_json_string(out, f.text);
    else append_number(out, f, true);
  }
  out += '}';
}

void append_logfmt_line(std::string& out, const log_record& r) {
  out += "time=";
  detail::append_utc_time(out, r.time);
  out += " level=";
  out += to_string(r.level);
  out += " category=";
  out += to_string(r.category);
  out += " msg=";
  append_logfmt_value(out, r.message);
  detail::append_logfmt_fields(out, r.fields);
}

}  // namespace

void detail::append_logfmt_fields(std::string& out, std::span<const log_field> fields) {
  for (const auto& f : fields) {
    out += ' ';
    append_key(out, f.key);
    out += '=';
    if (f.type == log_field::kind::text) append_logfmt_value(out, f.text);
    else append_number(out, f, false);
  }
}

std::string format_log_record(const log_record& record, log_format format) {
  std::string line;
  line.reserve(128 + record.message.size() + 32 * record.fields.size());
  switch (format) {
    case log_format::json: append_json_line(line, record); break;
    case log_format::logfmt: append_logfmt_line(line, record); break;
    case log_format::text: append_text_line(line, record); break;
  }
  return line;
}

}  // namespace mcp
