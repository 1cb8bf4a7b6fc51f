// Matching a URI against a template: which values expand to it.
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

#include "program.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <unordered_set>

namespace mcp {

using namespace detail::rfc6570;

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
    matcher m(prog.code, t.constants.lits, t.constants.names, t.constants.classes, prog.group_of, prog.groups, t.slots.size(), uri);
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
