// uri_template: made from its text (parsed, and compiled twice for
// matching), and expanded (RFC 6570 section 3.2).

#include "program.hpp"

#include <memory>

namespace mcp {

using namespace detail::rfc6570;

uri_template::uri_template(std::string_view text) {
  auto p = std::make_shared<impl>();
  p->text = std::string(text);
  p->parse();
  p->strict = compile_program(p->parts, p->constants, true);
  p->lenient = compile_program(p->parts, p->constants, false);
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

}  // namespace mcp
