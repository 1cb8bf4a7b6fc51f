// Compiling a parsed template into a matching program (see match.cpp): a
// tiny assembler whose jump targets are labels, resolved at the end, then a
// peephole pass.

#include "program.hpp"

#include <algorithm>

namespace mcp::detail::rfc6570 {

namespace {

// What a matched value may contain (see char_class).
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

// The code of one program, built part by part.
class program_builder {
 public:
  program_builder(constants& c, bool strict) : t_(c), strict_(strict) {}

  program build(const std::vector<std::variant<literal, expression>>& parts) {
    for (const auto& part : parts) {
      if (const auto* l = std::get_if<literal>(&part)) {
        t_.lits.push_back(*l);
        emit({.op = code::lit, .a = std::uint32_t(t_.lits.size() - 1)});
      } else {
        add_expression(std::get<expression>(part));
      }
    }
    emit({.op = code::match});
    resolve_labels();
    thread_jumps();
    result_.group_of.assign(prog().size(), -1);
    for (const auto& r : named_)
      for (std::size_t pc = r.begin; pc < r.end; ++pc) result_.group_of[pc] = std::int32_t(r.group);
    return std::move(result_);
  }

 private:
  // The instructions of a lenient named loop, and its group of slots.
  struct named_range {
    std::size_t begin, end;
    std::uint32_t group;
  };

  std::vector<instr>& prog() { return result_.code; }
  std::uint32_t new_label() {
    labels_.push_back(npos32);
    return std::uint32_t(labels_.size() - 1);
  }
  void bind(std::uint32_t label) { labels_[label] = std::uint32_t(prog().size()); }
  void emit(instr in) { prog().push_back(in); }
  void split(std::uint32_t first, std::uint32_t second) { emit({.op = code::split, .a = first, .b = second}); }
  void jmp(std::uint32_t to) { emit({.op = code::jmp, .a = to}); }
  void chr(char c) { emit({.op = code::chr, .ch = c}); }
  void empty(std::size_t slot) {
    emit({.op = code::save, .a = std::uint32_t(2 * slot)});
    emit({.op = code::save, .a = std::uint32_t(2 * slot + 1)});
  }
  void value(const varspec& v, std::uint32_t cls, bool min1) {
    emit({.op = code::value, .min1 = min1, .a = std::uint32_t(v.slot), .cls = cls, .maxcp = v.prefix});
  }
  std::uint32_t class_of(const op_info& op, bool multi) {
    const char_class cls = value_class(op, multi, strict_);
    const auto it = std::find(t_.classes.begin(), t_.classes.end(), cls);
    if (it != t_.classes.end()) return std::uint32_t(it - t_.classes.begin());
    t_.classes.push_back(cls);
    return std::uint32_t(t_.classes.size() - 1);
  }

  void add_expression(const expression& e) {
    const op_info& op = *e.op;
    const auto end = new_label();
    const auto body = new_label();
    // An expression whose variables are all undefined expands to nothing;
    // without a first character (none, +) it must bind something though.
    if (op.first) split(body, end);
    bind(body);
    const auto cls = class_of(op, e.vars.size() > 1);
    if (op.named && !strict_)
      add_any_order(e, cls, end);
    else
      add_in_order(e, cls);
    bind(end);
  }

  // A named item: `name`, then `=value` or nothing. Expansion writes `;x`
  // and `?x=` for an empty value, `;x=v` and `?x=v` otherwise; the lenient
  // program also takes `;x=` and `?x`.
  void named_item(const op_info& op, const varspec& v, std::uint32_t cls, std::uint32_t done) {
    t_.names.push_back(v.name);
    emit({.op = code::str, .a = std::uint32_t(t_.names.size() - 1)});
    if (strict_ && !op.ifemp.empty()) {
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
    value(v, cls, strict_);
    jmp(done);
    bind(without);
    empty(v.slot);
    jmp(done);
  }

  // Lenient named parameters: in any order, each at most once.
  void add_any_order(const expression& e, std::uint32_t cls, std::uint32_t end) {
    const op_info& op = *e.op;
    const std::size_t k = e.vars.size();
    const std::size_t begin_pc = prog().size();
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
      named_item(op, e.vars[i], cls, after);
      bind(next);
    }
    emit({.op = code::fail});
    bind(after);
    const auto sep = new_label();
    split(sep, end);
    bind(sep);
    chr(op.sep);
    jmp(loop);
    result_.groups.emplace_back(std::uint32_t(e.vars.front().slot), std::uint32_t(e.vars.back().slot + 1));
    named_.push_back({begin_pc, prog().size(), std::uint32_t(result_.groups.size() - 1)});
  }

  // Template order. States before variable i: A (nothing emitted yet), B
  // (something emitted), C (only an empty value emitted: for operators
  // without a first character, an expression must not expand to nothing).
  void add_in_order(const expression& e, std::uint32_t cls) {
    const op_info& op = *e.op;
    const std::size_t k = e.vars.size();
    const bool need_c = op.first == '\0';
    std::vector<std::uint32_t> A(k + 1), B(k + 1), C(k + 1);
    for (std::size_t i = 0; i <= k; ++i) A[i] = new_label(), B[i] = new_label(), C[i] = new_label();
    const auto item = [&](std::size_t i) {
      if (op.named) {
        named_item(op, e.vars[i], cls, B[i + 1]);
      } else {
        value(e.vars[i], cls, false);
        jmp(B[i + 1]);
      }
    };
    if (op.first) chr(op.first);
    for (std::size_t i = 0; i < k; ++i) {
      const auto& v = e.vars[i];
      bind(A[i]);
      const auto included = new_label();
      split(included, A[i + 1]);
      bind(included);
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
        item(i);
      }
      // B_i and C_i: a separator, then the item.
      for (const auto state : {B[i], C[i]}) {
        if (state == C[i] && !need_c) continue;
        bind(state);
        const auto next_item = new_label();
        split(next_item, state == B[i] ? B[i + 1] : C[i + 1]);
        bind(next_item);
        chr(op.sep);
        item(i);
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
      if (labels_[C[i]] == npos32) labels_[C[i]] = labels_[A[k]];
  }

  void resolve_labels() {
    for (auto& in : prog()) {
      if (in.op == code::split) {
        in.a = labels_[in.a];
        in.b = labels_[in.b];
      } else if (in.op == code::jmp) {
        in.a = labels_[in.a];
      }
    }
  }

  // Peephole: thread jumps, and turn a split with a branch that fails at
  // once into a jump (the matcher then visits far fewer states per value).
  void thread_jumps() {
    auto& p = prog();
    const auto thread_target = [&p](std::uint32_t to) {
      for (std::size_t hops = 0; p[to].op == code::jmp && hops < p.size(); ++hops) to = p[to].a;
      return to;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& in : p) {
        if (in.op == code::jmp) {
          const auto to = thread_target(in.a);
          changed |= to != in.a;
          in.a = to;
        } else if (in.op == code::split) {
          in.a = thread_target(in.a);
          in.b = thread_target(in.b);
          if (p[in.b].op == code::fail) {
            in = {.op = code::jmp, .a = in.a};
            changed = true;
          } else if (p[in.a].op == code::fail) {
            in = {.op = code::jmp, .a = in.b};
            changed = true;
          }
        }
      }
    }
  }

  constants& t_;
  bool strict_;
  program result_;
  std::vector<std::uint32_t> labels_;
  std::vector<named_range> named_;
};

}  // namespace

program compile_program(const std::vector<std::variant<literal, expression>>& parts, constants& constants,
                        bool strict) {
  return program_builder(constants, strict).build(parts);
}

}  // namespace mcp::detail::rfc6570
