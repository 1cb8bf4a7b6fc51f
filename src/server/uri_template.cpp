// RFC 6570 URI templates: parser, expander and matcher.
//
// The matcher compiles the template twice into a small program (literal,
// single character, name, value, split, jump...): a strict one accepting
// exactly what expansion produces, and a lenient one (wider value classes,
// named parameters in any order). Each runs as a depth-first search
// memoised on (instruction, position): every state is explored at most
// once, so a match costs O(program size x URI length) whatever the input,
// and a value's candidate ends are scanned with bit sets. In the lenient
// named loops (`;`, `?`, `&`: parameters in any order but each at most
// once) the memo key also holds the set of parameters already seen.

#include <mcp/server/uri_template.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <unordered_set>
#include <variant>

namespace mcp {
namespace {

constexpr bool is_alpha(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_hex(unsigned char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr unsigned hex_value(unsigned char c) noexcept {
  return is_digit(c) ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10);
}
constexpr bool is_unreserved(unsigned char c) noexcept {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
constexpr bool is_reserved(unsigned char c) noexcept {
  return std::string_view(":/?#[]@!$&'()*+,;=").find(char(c)) != std::string_view::npos;
}
bool is_triplet(std::string_view s, std::size_t i) noexcept {
  return i + 2 < s.size() && s[i] == '%' && is_hex(s[i + 1]) && is_hex(s[i + 2]);
}
unsigned triplet_value(std::string_view s, std::size_t i) noexcept {
  return hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]);
}
constexpr bool is_continuation(unsigned b) noexcept { return b >= 0x80 && b <= 0xBF; }

void append_pct(std::string& out, unsigned char b) {
  constexpr char digits[] = "0123456789ABCDEF";
  out += '%';
  out += digits[b >> 4];
  out += digits[b & 15];
}

// Decodes one UTF-8 sequence at s[i]; returns its length, 0 when invalid.
std::size_t utf8_decode(std::string_view s, std::size_t i, char32_t& cp) noexcept {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  char32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (!is_continuation(b)) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// RFC 6570 `ucschar / iprivate`: the non-ASCII characters a literal may hold.
constexpr bool is_ucschar_or_iprivate(char32_t cp) noexcept {
  if (cp >= 0xA0 && cp <= 0xD7FF) return true;
  if (cp >= 0xE000 && cp <= 0xFDCF) return true;   // iprivate E000-F8FF, ucschar F900-FDCF
  if (cp >= 0xFDF0 && cp <= 0xFFEF) return true;
  if (cp >= 0x10000 && cp <= 0xDFFFD) return (cp & 0xFFFF) <= 0xFFFD;
  if (cp >= 0xE1000 && cp <= 0xEFFFD) return true;
  if (cp >= 0xF0000 && cp <= 0x10FFFD) return (cp & 0xFFFF) <= 0xFFFD;
  return false;
}

// Keeps the first n characters of `value`. A character starts at every
// octet that is not a UTF-8 continuation; with `triplets`, an existing
// pct-encoded triplet is one octet (the one it encodes).
std::string_view prefix_of(std::string_view value, unsigned n, bool triplets) noexcept {
  unsigned seen = 0;
  std::size_t i = 0;
  while (i < value.size()) {
    const bool trip = triplets && is_triplet(value, i);
    const unsigned b = trip ? triplet_value(value, i) : static_cast<unsigned char>(value[i]);
    if (!is_continuation(b) && seen++ == n) break;
    i += trip ? 3 : 1;
  }
  return value.substr(0, i);
}

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

const op_info* find_op(char c) noexcept {
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

char_class value_class(const op_info& op, bool multi, bool strict) {
  char_class cls;
  for (unsigned c = 0; c < 256; ++c) {
    const auto b = static_cast<unsigned char>(c);
    const bool copied = is_unreserved(b) || (op.allow_reserved && is_reserved(b));
    if (!strict || copied) cls.raw.add(b);
    if (!strict || !copied) cls.triplet.add(b);
  }
  for (const char c : op.value_stops) cls.raw.remove(static_cast<unsigned char>(c));
  if (op.symbol == '\0' && multi) cls.raw.remove(',');  // commas in values are encoded
  cls.raw.remove('%');
  return cls;
}

// One octet of a URI or literal as matching compares it: its value, and
// whether it is a percent-encoded reserved/other ASCII octet (which is
// never equivalent to the raw character).
struct unit {
  unsigned char byte;
  bool encoded;
  friend bool operator==(unit, unit) = default;
};
unit normalise(unsigned value, bool from_triplet) noexcept {
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

}  // namespace

struct uri_template::impl {
  std::string text;
  std::vector<std::string> variables;
  std::vector<std::variant<literal, expression>> parts;
  bool literal_only = true;

  // Matching programs: `strict` accepts exactly the URIs expansion can
  // produce and is tried first, so that matching inverts expansion;
  // `lenient` (wider value classes, named parameters in any order, `;x=`
  // and `?x` for empty values) next.
  struct program {
    std::vector<instr> code;
    std::vector<std::int32_t> group_of;  // per pc: named group or -1
    std::vector<std::pair<std::uint32_t, std::uint32_t>> groups;  // slot ranges
  };
  program strict, lenient;
  std::vector<literal> lits;          // referenced by code::lit
  std::vector<std::string> names;     // referenced by code::str
  std::vector<char_class> classes;    // referenced by instr::cls
  struct occurrence {
    std::size_t var;
    unsigned prefix;
  };
  std::vector<occurrence> slots;

  void parse();
  program compile(bool strict_classes);
};

namespace {

[[noreturn]] void fail_at(std::string_view text, std::size_t index, const std::string& what) {
  throw std::invalid_argument("uri_template: column " + std::to_string(index + 1) + ": " + what +
                              " in \"" + std::string(text) + "\"");
}

std::string show(char c) {
  const auto b = static_cast<unsigned char>(c);
  if (b < 0x20 || b >= 0x7F) {
    std::string s = "octet 0x";
    constexpr char digits[] = "0123456789ABCDEF";
    s += digits[b >> 4];
    s += digits[b & 15];
    return s;
  }
  return std::string("'") + c + "'";
}

literal make_literal(std::string encoded) {
  literal l;
  for (std::size_t i = 0; i < encoded.size();) {
    if (is_triplet(encoded, i)) {
      l.units.push_back(normalise(triplet_value(encoded, i), true));
      i += 3;
    } else {
      l.units.push_back(normalise(static_cast<unsigned char>(encoded[i]), false));
      ++i;
    }
  }
  l.encoded = std::move(encoded);
  return l;
}

}  // namespace

void uri_template::impl::parse() {
  const std::string_view t = text;
  std::string lit;
  std::size_t occurrences = 0;
  auto flush = [&] {
    if (!lit.empty()) parts.emplace_back(make_literal(std::move(lit)));
    lit.clear();
  };

  std::size_t i = 0;
  while (i < t.size()) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c == '{') {
      const std::size_t open = i;
      const std::size_t close = t.find('}', open + 1);
      if (close == std::string_view::npos)
        fail_at(t, open, "unclosed expression: '{' has no matching '}'");
      flush();
      literal_only = false;
      expression e;
      std::size_t p = open + 1;
      if (p == close) fail_at(t, open, "empty expression '{}'");
      const char opc = t[p];
      if (const op_info* op = find_op(opc)) {
        e.op = op;
        ++p;
      } else if (std::string_view("=,!@|").find(opc) != std::string_view::npos) {
        fail_at(t, p, std::string("operator '") + opc + "' is reserved by RFC 6570 and not supported");
      } else if (!(is_alpha(opc) || is_digit(opc) || opc == '_' || opc == '%')) {
        fail_at(t, p, "invalid operator " + show(opc) + " (expected one of + # . / ; ? & or a variable name)");
      } else {
        e.op = &op_simple;
      }
      // variable-list = varspec *( "," varspec )
      for (;;) {
        const std::size_t name_start = p;
        bool need_char = true;  // at start or after '.'
        while (p < close) {
          const char ch = t[p];
          if (is_alpha(ch) || is_digit(ch) || ch == '_') {
            ++p;
            need_char = false;
          } else if (ch == '%') {
            if (!is_triplet(t.substr(0, close), p))
              fail_at(t, p, "invalid percent-encoding in variable name");
            p += 3;
            need_char = false;
          } else if (ch == '.') {
            if (p == name_start) fail_at(t, p, "variable name cannot start with '.'");
            if (need_char) fail_at(t, p, "variable name cannot contain '..'");
            ++p;
            need_char = true;
          } else {
            break;
          }
        }
        if (p == name_start) {
          if (p < close && t[p] != ',')
            fail_at(t, p, "invalid character " + show(t[p]) + " in variable name");
          fail_at(t, p, "empty variable name");
        }
        if (need_char) fail_at(t, p - 1, "variable name cannot end with '.'");
        varspec v;
        v.name = std::string(t.substr(name_start, p - name_start));
        if (p < close && t[p] == ':') {
          const std::size_t digits = ++p;
          while (p < close && is_digit(t[p])) ++p;
          if (p == digits) fail_at(t, digits, "prefix modifier ':' needs a length");
          if (t[digits] == '0' || p - digits > 4)
            fail_at(t, digits, "prefix length must be between 1 and 9999");
          for (std::size_t k = digits; k < p; ++k) v.prefix = v.prefix * 10 + unsigned(t[k] - '0');
        } else if (p < close && t[p] == '*') {
          fail_at(t, p,
                  "explode modifier '*' is not supported (variable values are strings, not lists or "
                  "associative arrays)");
        }
        if (p < close && t[p] != ',') {
          if (t[p] == '{') fail_at(t, p, "nested '{' inside an expression");
          if (v.prefix) fail_at(t, p, "unexpected character " + show(t[p]) + " after the prefix length");
          fail_at(t, p, "invalid character " + show(t[p]) + " in variable name");
        }
        if (++occurrences > max_variables)
          fail_at(t, name_start, "too many variables (at most " + std::to_string(max_variables) + ")");
        const auto known = std::find(variables.begin(), variables.end(), v.name);
        v.var = std::size_t(known - variables.begin());
        if (known == variables.end()) variables.push_back(v.name);
        v.slot = slots.size();
        slots.push_back({v.var, v.prefix});
        e.vars.push_back(std::move(v));
        if (p == close) break;
        ++p;  // ','
        if (p == close) fail_at(t, p, "empty variable name");
      }
      parts.emplace_back(std::move(e));
      i = close + 1;
      continue;
    }
    if (c == '}') fail_at(t, i, "unmatched '}'");
    if (c == '%') {
      if (!is_triplet(t, i)) fail_at(t, i, "'%' must start a percent-encoded octet (%XX)");
      lit.append(t.substr(i, 3));
      i += 3;
      continue;
    }
    if (c < 0x80) {
      // literals = %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A / %x7E
      if (c <= 0x20 || c == 0x7F || std::string_view("\"'<>\\^`|").find(char(c)) != std::string_view::npos)
        fail_at(t, i, "character " + show(char(c)) + " is not allowed in a URI template");
      lit += char(c);
      ++i;
      continue;
    }
    char32_t cp = 0;
    const std::size_t len = utf8_decode(t, i, cp);
    if (len == 0) fail_at(t, i, "invalid UTF-8");
    if (!is_ucschar_or_iprivate(cp)) fail_at(t, i, "character not allowed in a URI template");
    for (std::size_t k = 0; k < len; ++k) append_pct(lit, static_cast<unsigned char>(t[i + k]));
    i += len;
  }
  flush();
}

uri_template::impl::program uri_template::impl::compile(bool strict_classes) {
  program result;
  auto& prog = result.code;
  auto& groups = result.groups;
  // A tiny assembler: jump targets are label ids, resolved at the end.
  std::vector<std::uint32_t> labels;
  auto new_label = [&] {
    labels.push_back(npos32);
    return std::uint32_t(labels.size() - 1);
  };
  auto bind = [&](std::uint32_t l) { labels[l] = std::uint32_t(prog.size()); };
  auto emit = [&](instr in) { prog.push_back(in); };
  auto split = [&](std::uint32_t first, std::uint32_t second) {
    emit({.op = code::split, .a = first, .b = second});
  };
  auto jmp = [&](std::uint32_t to) { emit({.op = code::jmp, .a = to}); };
  auto chr = [&](char c) { emit({.op = code::chr, .ch = c}); };
  auto empty = [&](std::size_t slot) {
    emit({.op = code::save, .a = std::uint32_t(2 * slot)});
    emit({.op = code::save, .a = std::uint32_t(2 * slot + 1)});
  };
  auto class_of = [&](const op_info& op, bool multi) {
    const char_class cls = value_class(op, multi, strict_classes);
    const auto it = std::find(classes.begin(), classes.end(), cls);
    if (it != classes.end()) return std::uint32_t(it - classes.begin());
    classes.push_back(cls);
    return std::uint32_t(classes.size() - 1);
  };
  auto value = [&](const varspec& v, std::uint32_t cls, bool min1) {
    emit({.op = code::value, .min1 = min1, .a = std::uint32_t(v.slot), .cls = cls, .maxcp = v.prefix});
  };
  struct named_range {
    std::size_t begin, end;
    std::uint32_t group;
  };
  std::vector<named_range> named;

  for (const auto& part : parts) {
    if (const auto* l = std::get_if<literal>(&part)) {
      lits.push_back(*l);
      emit({.op = code::lit, .a = std::uint32_t(lits.size() - 1)});
      continue;
    }
    const auto& e = std::get<expression>(part);
    const op_info& op = *e.op;
    const std::size_t k = e.vars.size();
    const auto end = new_label();
    const auto body = new_label();
    // An expression whose variables are all undefined expands to nothing;
    // without a first character (none, +) it must bind something though.
    if (op.first) split(body, end);
    bind(body);
    const auto cls = class_of(op, k > 1);
    // A named item: `name`, then `=value` or nothing. Expansion writes `;x`
    // and `?x=` for an empty value, `;x=v` and `?x=v` otherwise; the lenient
    // program also takes `;x=` and `?x`.
    auto named_item = [&](const varspec& v, std::uint32_t done) {
      names.push_back(v.name);
      emit({.op = code::str, .a = std::uint32_t(names.size() - 1)});
      if (strict_classes && !op.ifemp.empty()) {
        chr('=');
        value(v, cls, false);
        jmp(done);
        return;
      }
      const auto with_value = new_label();
      const auto without = new_label();
      split(with_value, without);
      bind(with_value);
      chr('=');
      value(v, cls, strict_classes);
      jmp(done);
      bind(without);
      empty(v.slot);
      jmp(done);
    };
    if (op.named && !strict_classes) {
      // Lenient: parameters in any order, each at most once.
      const std::size_t begin_pc = prog.size();
      chr(op.first);
      const auto loop = new_label();
      const auto after = new_label();
      bind(loop);
      for (std::size_t i = 0; i < k; ++i) {
        const auto item = new_label();
        const auto next = new_label();
        if (i + 1 < k) split(item, next); else jmp(item);
        bind(item);
        emit({.op = code::check_unset, .a = std::uint32_t(e.vars[i].slot)});
        named_item(e.vars[i], after);
        bind(next);
      }
      emit({.op = code::fail});
      bind(after);
      const auto sep = new_label();
      split(sep, end);
      bind(sep);
      chr(op.sep);
      jmp(loop);
      groups.emplace_back(std::uint32_t(e.vars.front().slot), std::uint32_t(e.vars.back().slot + 1));
      named.push_back({begin_pc, prog.size(), std::uint32_t(groups.size() - 1)});
    } else {
      // Template order. States before variable i: A (nothing emitted yet),
      // B (something emitted), C (only an empty value emitted: for operators
      // without a first character, an expression must not expand to nothing).
      const bool need_c = op.first == '\0';
      std::vector<std::uint32_t> A(k + 1), B(k + 1), C(k + 1);
      for (std::size_t i = 0; i <= k; ++i) A[i] = new_label(), B[i] = new_label(), C[i] = new_label();
      auto item = [&](const varspec& v) {
        if (op.named) {
          named_item(v, B[&v - e.vars.data() + 1]);
        } else {
          value(v, cls, false);
          jmp(B[&v - e.vars.data() + 1]);
        }
      };
      if (op.first) chr(op.first);
      for (std::size_t i = 0; i < k; ++i) {
        const auto& v = e.vars[i];
        // A_i
        bind(A[i]);
        {
          const auto inc = new_label();
          split(inc, A[i + 1]);
          bind(inc);
          if (need_c && i + 1 < k) {
            const auto empty_label = new_label();
            const auto nonempty = new_label();
            split(nonempty, empty_label);
            bind(nonempty);
            value(v, cls, true);
            jmp(B[i + 1]);
            bind(empty_label);
            empty(v.slot);
            jmp(C[i + 1]);
          } else if (need_c) {
            value(v, cls, true);  // the last variable: an empty value would leave C
            jmp(B[i + 1]);
          } else {
            item(v);
          }
        }
        // B_i and C_i: a separator, then the item.
        for (const auto state : {B[i], C[i]}) {
          if (state == C[i] && !need_c) continue;
          bind(state);
          const auto inc = new_label();
          split(inc, state == B[i] ? B[i + 1] : C[i + 1]);
          bind(inc);
          chr(op.sep);
          item(v);
        }
      }
      bind(A[k]);
      emit({.op = code::fail});
      if (need_c) {
        bind(C[k]);
        emit({.op = code::fail});
      }
      bind(B[k]);
      // Unbound labels (C_i without need_c) are never jumped to.
      for (std::size_t i = 0; i <= k; ++i)
        if (labels[C[i]] == npos32) labels[C[i]] = labels[A[k]];
    }
    bind(end);
  }
  emit({.op = code::match});

  for (auto& in : prog) {
    if (in.op == code::split) {
      in.a = labels[in.a];
      in.b = labels[in.b];
    } else if (in.op == code::jmp) {
      in.a = labels[in.a];
    }
  }
  // Peephole: thread jumps, and turn a split with a branch that fails at
  // once into a jump (the matcher then visits far fewer states per value).
  auto thread_target = [&](std::uint32_t to) {
    for (std::size_t hops = 0; prog[to].op == code::jmp && hops < prog.size(); ++hops) to = prog[to].a;
    return to;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& in : prog) {
      if (in.op == code::jmp) {
        const auto to = thread_target(in.a);
        changed |= to != in.a;
        in.a = to;
      } else if (in.op == code::split) {
        in.a = thread_target(in.a);
        in.b = thread_target(in.b);
        if (prog[in.b].op == code::fail) {
          in = {.op = code::jmp, .a = in.a};
          changed = true;
        } else if (prog[in.a].op == code::fail) {
          in = {.op = code::jmp, .a = in.b};
          changed = true;
        }
      }
    }
  }
  result.group_of.assign(prog.size(), -1);
  for (const auto& r : named)
    for (std::size_t pc = r.begin; pc < r.end; ++pc) result.group_of[pc] = std::int32_t(r.group);
  return result;
}

uri_template::uri_template(std::string_view text) {
  auto p = std::make_shared<impl>();
  p->text = std::string(text);
  p->parse();
  p->strict = p->compile(true);
  p->lenient = p->compile(false);
  impl_ = std::move(p);
}

const std::string& uri_template::text() const noexcept { return impl_->text; }
const std::vector<std::string>& uri_template::variables() const noexcept { return impl_->variables; }
bool uri_template::is_literal() const noexcept { return impl_->literal_only; }

std::string uri_template::expand(const value_map& values) const {
  std::string out;
  out.reserve(impl_->text.size() + 16);
  for (const auto& part : impl_->parts) {
    if (const auto* l = std::get_if<literal>(&part)) {
      out += l->encoded;
      continue;
    }
    const auto& e = std::get<expression>(part);
    const op_info& op = *e.op;
    bool first = true;
    for (const auto& v : e.vars) {
      const auto it = values.find(v.name);
      if (it == values.end()) continue;  // undefined
      if (first) {
        if (op.first) out += op.first;
        first = false;
      } else {
        out += op.sep;
      }
      std::string_view value = it->second;
      if (op.named) {
        out += v.name;
        if (value.empty()) {
          out += op.ifemp;
          continue;
        }
        out += '=';
      }
      if (v.prefix) value = prefix_of(value, v.prefix, op.allow_reserved);
      for (std::size_t i = 0; i < value.size(); ++i) {
        const auto c = static_cast<unsigned char>(value[i]);
        if (is_unreserved(c) || (op.allow_reserved && is_reserved(c))) {
          out += char(c);
        } else if (op.allow_reserved && is_triplet(value, i)) {
          out.append(value.substr(i, 3));
          i += 2;
        } else {
          append_pct(out, c);
        }
      }
    }
  }
  return out;
}

namespace {

// One run of the matcher over one URI.
class matcher {
 public:
  matcher(const std::vector<instr>& prog, const std::vector<literal>& lits,
          const std::vector<std::string>& names, const std::vector<char_class>& classes,
          const std::vector<std::int32_t>& group_of,
          const std::vector<std::pair<std::uint32_t, std::uint32_t>>& groups, std::size_t slots,
          std::string_view uri)
      : prog_(prog), lits_(lits), names_(names), classes_(classes), group_of_(group_of),
        groups_(groups), u_(uri), n_(std::uint32_t(uri.size())), caps_(2 * slots, npos32) {
    tok_.assign(n_ + 1, 0);
    lead_count_.assign(n_ + 1, 0);
    valid_end_.assign(n_ / 64 + 1, 0);
    for (std::uint32_t i = 0; i < n_;) {
      const bool trip = is_triplet(u_, i);
      tok_[i] = trip ? 3 : 1;
      i += tok_[i];
    }
    for (std::uint32_t i = 0; i < n_; ++i) {
      const bool lead = tok_[i] && !is_continuation(byte_at(i));
      lead_count_[i + 1] = lead_count_[i] + (lead ? 1 : 0);
      if (lead) set_bit(valid_end_, i);
    }
    set_bit(valid_end_, n_);
    stride_ = std::size_t(n_) + 1;
    visited_.assign((prog_.size() * stride_) / 64 + 2, 0);
    cover_.assign(prog_.size(), {1, 0});
    next_bad_.resize(classes_.size());
  }

  // `tail`: the template's final literal, if it ends with one (a cheap
  // early rejection of most hopeless URIs).
  bool run(const literal* tail) {
    if (tail && !ends_with(*tail)) return false;
    push_run(0, 0);
    while (!stack_.empty()) {
      const frame f = stack_.back();
      stack_.pop_back();
      switch (f.kind) {
        case frame::restore:
          caps_[f.pc] = f.x;
          break;
        case frame::run:
          if (thread(f.pc, f.x)) return true;
          break;
        case frame::range:
          resume_range(f);
          break;
      }
    }
    return false;
  }

  const std::vector<std::uint32_t>& captures() const noexcept { return caps_; }

 private:
  struct frame {
    enum kind_t : std::uint8_t { run, restore, range } kind;
    std::uint32_t pc;
    std::uint32_t x;  // run: pos; restore: old value; range: value start
    std::uint32_t y;  // range: next candidate end
    std::uint32_t z;  // range: last candidate end
    std::uint32_t w;  // range: first candidate end
  };

  static void set_bit(std::vector<std::uint64_t>& v, std::size_t i) { v[i / 64] |= std::uint64_t(1) << (i % 64); }
  static bool get_bit(const std::vector<std::uint64_t>& v, std::size_t i) {
    return (v[i / 64] >> (i % 64)) & 1;
  }
  // 64 bits of `v` starting at bit `i` (zero past the end).
  static std::uint64_t bits_at(const std::vector<std::uint64_t>& v, std::size_t i) {
    const std::size_t w = i / 64, off = i % 64;
    std::uint64_t r = w < v.size() ? v[w] >> off : 0;
    if (off && w + 1 < v.size()) r |= v[w + 1] << (64 - off);
    return r;
  }

  unsigned byte_at(std::uint32_t i) const noexcept {
    return tok_[i] == 3 ? triplet_value(u_, i) : static_cast<unsigned char>(u_[i]);
  }

  void push_run(std::uint32_t pc, std::uint32_t pos) { stack_.push_back({frame::run, pc, pos, 0, 0, 0}); }
  void save(std::uint32_t idx, std::uint32_t value) {
    stack_.push_back({frame::restore, idx, caps_[idx], 0, 0, 0});
    caps_[idx] = value;
  }

  // Marks (pc, pos) visited; false when it already was.
  bool visit(std::uint32_t pc, std::uint32_t pos) {
    const std::int32_t g = group_of_[pc];
    if (g < 0) {
      const std::size_t bit = pc * stride_ + pos;
      if (get_bit(visited_, bit)) return false;
      set_bit(visited_, bit);
      return true;
    }
    const auto [lo, hi] = groups_[std::size_t(g)];
    std::uint64_t mask = 0;
    for (std::uint32_t s = lo; s < hi; ++s)
      if (caps_[2 * s] != npos32) mask |= std::uint64_t(1) << (s - lo);
    return visited_named_.insert({pc * stride_ + pos, mask}).second;
  }

  bool match_literal(const literal& l, std::uint32_t& pos) const {
    for (const unit want : l.units) {
      if (pos >= n_) return false;
      if (normalise(byte_at(pos), tok_[pos] == 3) != want) return false;
      pos += tok_[pos];
    }
    return true;
  }

  bool ends_with(const literal& l) const {
    std::uint32_t pos = n_;
    for (auto it = l.units.rbegin(); it != l.units.rend(); ++it) {
      if (pos == 0) return false;
      std::uint32_t start = pos - 1;
      while (start > 0 && tok_[start] == 0) --start;
      if (start + tok_[start] != pos || normalise(byte_at(start), tok_[start] == 3) != *it) return false;
      pos = start;
    }
    return true;
  }

  // Runs one thread until it fails, forks into a value range, or matches.
  bool thread(std::uint32_t pc, std::uint32_t pos) {
    for (;;) {
      if (!visit(pc, pos)) return false;
      const instr& in = prog_[pc];
      switch (in.op) {
        case code::lit:
          if (!match_literal(lits_[in.a], pos)) return false;
          ++pc;
          break;
        case code::chr:
          if (pos >= n_ || u_[pos] != in.ch) return false;
          ++pos, ++pc;
          break;
        case code::str: {
          const std::string& name = names_[in.a];
          if (u_.substr(pos, name.size()) != name) return false;
          pos += std::uint32_t(name.size());
          if (pos < n_ && tok_[pos] == 0) return false;
          ++pc;
          break;
        }
        case code::split:
          push_run(in.b, pos);
          pc = in.a;
          break;
        case code::jmp:
          pc = in.a;
          break;
        case code::save:
          save(in.a, pos);
          ++pc;
          break;
        case code::check_unset:
          if (caps_[2 * in.a] != npos32) return false;
          ++pc;
          break;
        case code::value:
          start_range(pc, pos);
          return false;
        case code::fail:
          return false;
        case code::match:
          return pos == n_;
      }
    }
  }

  const std::vector<std::uint32_t>& next_bad(std::uint32_t cls) {
    auto& nb = next_bad_[cls];
    if (nb.empty()) {
      const char_class& allowed = classes_[cls];
      nb.assign(n_ + 1, n_);
      for (std::uint32_t i = n_; i-- > 0;) {
        if (tok_[i] == 0) continue;
        const bool ok = tok_[i] == 3 ? allowed.triplet.has(static_cast<unsigned char>(byte_at(i)))
                                     : allowed.raw.has(static_cast<unsigned char>(u_[i]));
        nb[i] = ok ? nb[i + tok_[i]] : i;
      }
    }
    return nb;
  }

  void start_range(std::uint32_t pc, std::uint32_t s) {
    const instr& in = prog_[pc];
    std::uint32_t last = next_bad(in.cls)[s];
    if (in.maxcp) {
      // Largest q with at most maxcp characters in [s, q).
      const std::uint32_t target = lead_count_[s] + in.maxcp;
      const auto it = std::upper_bound(lead_count_.begin() + s, lead_count_.end(), target);
      last = std::min(last, std::uint32_t(it - lead_count_.begin()) - 1);
    }
    const std::uint32_t first = in.min1 ? s + 1 : s;
    if (first > last) return;
    const auto [clo, chi] = cover_[pc];
    if (group_of_[pc + 1] < 0 && clo <= first && last <= chi) return;  // all already explored
    stack_.push_back({frame::range, pc, s, first, last, first});
  }

  void resume_range(frame f) {
    const instr& in = prog_[f.pc];
    const std::uint32_t to = f.pc + 1;
    const bool named = group_of_[to] >= 0;
    std::uint32_t q = f.y;
    bool found = false;
    while (q <= f.z) {
      std::uint64_t bits = bits_at(valid_end_, q);
      if (!named) bits &= ~bits_at(visited_, to * stride_ + q);
      const std::uint32_t span = std::min<std::uint32_t>(64, f.z - q + 1);
      if (span < 64) bits &= (std::uint64_t(1) << span) - 1;
      if (bits) {
        q += std::uint32_t(std::countr_zero(bits));
        found = true;
        break;
      }
      q += span;
    }
    if (!found) {
      if (!named) {
        auto& [clo, chi] = cover_[f.pc];
        if (clo <= chi && f.w <= chi + 1 && clo <= f.z + 1) {
          clo = std::min(clo, f.w);
          chi = std::max(chi, f.z);
        } else {
          clo = f.w;
          chi = f.z;
        }
      }
      return;
    }
    f.y = q + 1;
    stack_.push_back(f);
    save(2 * in.a, f.x);
    save(2 * in.a + 1, q);
    push_run(to, q);
  }

  struct key {
    std::size_t state;
    std::uint64_t mask;
    friend bool operator==(const key&, const key&) = default;
  };
  struct key_hash {
    std::size_t operator()(const key& k) const noexcept {
      return std::hash<std::size_t>{}(k.state) ^ (std::hash<std::uint64_t>{}(k.mask) * 0x9E3779B97F4A7C15ull);
    }
  };

  const std::vector<instr>& prog_;
  const std::vector<literal>& lits_;
  const std::vector<std::string>& names_;
  const std::vector<char_class>& classes_;
  const std::vector<std::int32_t>& group_of_;
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& groups_;
  std::string_view u_;
  std::uint32_t n_;
  std::size_t stride_ = 0;
  std::vector<std::uint8_t> tok_;            // token length at each token start, 0 inside a triplet
  std::vector<std::uint32_t> lead_count_;    // characters (non-continuation tokens) before each position
  std::vector<std::uint64_t> valid_end_;     // positions a value may end at
  std::vector<std::uint64_t> visited_;
  std::unordered_set<key, key_hash> visited_named_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cover_;  // per value pc: ends fully explored
  std::vector<std::vector<std::uint32_t>> next_bad_;
  std::vector<std::uint32_t> caps_;
  std::vector<frame> stack_;
};

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_triplet(s, i)) {
      out += char(triplet_value(s, i));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::optional<uri_template::value_map> uri_template::match(std::string_view uri) const {
  const impl& t = *impl_;
  if (uri.size() > max_uri_length) return std::nullopt;
  const auto attempt = [&](const impl::program& prog) -> std::optional<value_map> {
    matcher m(prog.code, t.lits, t.names, t.classes, prog.group_of, prog.groups, t.slots.size(), uri);
    const literal* tail = t.parts.empty() ? nullptr : std::get_if<literal>(&t.parts.back());
    if (!m.run(tail)) return std::nullopt;

    // Gather each variable's occurrences and check they agree.
    const auto& caps = m.captures();
    std::vector<std::vector<std::pair<std::size_t, std::optional<std::string>>>> by_var(t.variables.size());
    for (std::size_t s = 0; s < t.slots.size(); ++s) {
      std::optional<std::string> bound;
      if (caps[2 * s] != npos32) bound = percent_decode(uri.substr(caps[2 * s], caps[2 * s + 1] - caps[2 * s]));
      by_var[t.slots[s].var].emplace_back(t.slots[s].prefix, std::move(bound));
    }
    value_map result;
    for (std::size_t v = 0; v < by_var.size(); ++v) {
      const std::string* longest = nullptr;
      for (const auto& [prefix, bound] : by_var[v])
        if (bound && (!longest || bound->size() > longest->size())) longest = &*bound;
      if (!longest) continue;
      for (const auto& [prefix, bound] : by_var[v]) {
        if (!bound) {
          if (!longest->empty()) return std::nullopt;
          continue;
        }
        const std::string_view expected =
            prefix ? prefix_of(*longest, unsigned(prefix), false) : std::string_view(*longest);
        if (*bound != expected) return std::nullopt;
      }
      result.emplace(t.variables[v], *longest);
    }
    return result;
  };
  if (auto exact = attempt(t.strict)) return exact;
  return attempt(t.lenient);
}

}  // namespace mcp
