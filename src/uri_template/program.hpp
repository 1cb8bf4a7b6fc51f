#pragma once
// A parsed URI template (literals and expressions) and the matching programs
// it compiles to: what parse.cpp, compile.cpp, match.cpp and
// uri_template.cpp (expansion) share.

#include "octets.hpp"

#include <mcp/uri_template.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp::detail::rfc6570 {

struct op_info {
  char symbol;        // '\0' for simple expansion
  char first;         // '\0' when none
  char sep;
  bool named;
  std::string_view ifemp;
  bool allow_reserved;
  std::string_view value_stops;  // raw characters a matched value never contains
};

constexpr op_info op_simple{'\0', '\0', ',', false, "", false, "/?#"};
constexpr op_info op_reserved{'+', '\0', ',', false, "", true, "?#"};
constexpr op_info op_fragment{'#', '#', ',', false, "", true, "#"};
constexpr op_info op_label{'.', '.', '.', false, "", false, "/?#"};
constexpr op_info op_path{'/', '/', '/', false, "", false, "/?#"};
constexpr op_info op_param{';', ';', ';', true, "", false, "/?#;"};
constexpr op_info op_query{'?', '?', '&', true, "=", false, "#&"};
constexpr op_info op_continuation{'&', '&', '&', true, "=", false, "#&"};

inline const op_info* find_op(char c) noexcept {
  switch (c) {
    case '+': return &op_reserved;
    case '#': return &op_fragment;
    case '.': return &op_label;
    case '/': return &op_path;
    case ';': return &op_param;
    case '?': return &op_query;
    case '&': return &op_continuation;
    default: return nullptr;
  }
}

struct octet_set {
  std::array<std::uint64_t, 4> bits{};
  void add(unsigned char c) noexcept { bits[c / 64] |= std::uint64_t(1) << (c % 64); }
  void remove(unsigned char c) noexcept { bits[c / 64] &= ~(std::uint64_t(1) << (c % 64)); }
  bool has(unsigned char c) const noexcept { return (bits[c / 64] >> (c % 64)) & 1; }
  friend bool operator==(const octet_set&, const octet_set&) = default;
};

// What a matched value may contain: raw octets (a bare '%' never), and the
// octets pct-encoded triplets may stand for. Strict classes hold exactly
// what expansion emits for the operator (a triplet only for an octet it
// would not copy raw); lenient ones any triplet and any raw octet but the
// operator's stop octets.
struct char_class {
  octet_set raw, triplet;
  friend bool operator==(const char_class&, const char_class&) = default;
};

// One octet of a URI or literal as matching compares it: its value, and
// whether it is a percent-encoded reserved/other ASCII octet (which is
// never equivalent to the raw character).
struct unit {
  unsigned char byte;
  bool encoded;
  friend bool operator==(unit, unit) = default;
};
inline unit normalise(unsigned value, bool from_triplet) noexcept {
  const bool keeps_meaning = from_triplet && value < 0x80 && !is_unreserved(static_cast<unsigned char>(value));
  return {static_cast<unsigned char>(value), keeps_meaning};
}

struct varspec {
  std::string name;
  std::size_t var = 0;    // index in variables
  unsigned prefix = 0;    // 0: no prefix modifier
  std::size_t slot = 0;   // capture slot (one per occurrence)
};

struct expression {
  const op_info* op = nullptr;
  std::vector<varspec> vars;
};

struct literal {
  std::string encoded;
  std::vector<unit> units;
};

enum class code : std::uint8_t { lit, chr, str, split, jmp, save, check_unset, value, fail, match };

struct instr {
  code op;
  char ch = 0;
  bool min1 = false;
  std::uint32_t a = 0;  // lit/str index, jump targets, capture/slot index
  std::uint32_t b = 0;  // second split target
  std::uint32_t cls = 0;
  std::uint32_t maxcp = 0;
};

constexpr std::uint32_t npos32 = std::numeric_limits<std::uint32_t>::max();

// A matching program.
struct program {
  std::vector<instr> code;
  std::vector<std::int32_t> group_of;  // per pc: named group or -1
  std::vector<std::pair<std::uint32_t, std::uint32_t>> groups;  // slot ranges
};

// What instructions refer to by index.
struct constants {
  std::vector<literal> lits;        // by code::lit
  std::vector<std::string> names;   // by code::str
  std::vector<char_class> classes;  // by instr::cls
};

/// Compiles parsed `parts` into a program (compile.cpp), adding what it
/// refers to to `constants`. `strict`: the program accepts exactly what
/// expansion produces; else the lenient one.
program compile_program(const std::vector<std::variant<literal, expression>>& parts, constants& constants,
                        bool strict);

}  // namespace mcp::detail::rfc6570

namespace mcp {

struct uri_template::impl {
  using literal = detail::rfc6570::literal;
  using expression = detail::rfc6570::expression;

  std::string text;
  std::vector<std::string> variables;
  std::vector<std::variant<literal, expression>> parts;
  bool literal_only = true;

  // Matching programs: `strict` accepts exactly the URIs expansion can
  // produce and is tried first, so that matching inverts expansion;
  // `lenient` (wider value classes, named parameters in any order, `;x=`
  // and `?x` for empty values) next.
  using program = detail::rfc6570::program;
  program strict, lenient;
  detail::rfc6570::constants constants;  // what both programs refer to
  struct occurrence {
    std::size_t var;
    unsigned prefix;
  };
  std::vector<occurrence> slots;

  void parse();
};

}  // namespace mcp
