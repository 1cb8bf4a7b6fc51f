#pragma once
// RFC 6570 URI templates for MCP resource templates: expanding a template
// with variable values, and matching a concrete URI (from resources/read)
// back to the variables that produce it.
//
// Supported: levels 1 to 3 in full (operators none, +, #, ., /, ;, ?, &,
// several variables per expression) and the level-4 prefix modifier
// `{var:n}`. Values are plain strings, so the level-4 explode modifier
// `{var*}`, which only means something for lists and associative arrays,
// is rejected by the constructor.
//
// @par Expansion
// Exactly RFC 6570 section 3.2 for string values: undefined variables
// (absent from the map) are skipped; an empty string is defined. Each
// operator's first/separator characters, named form (`;` gives `;x` for
// an empty value, `?` and `&` give `x=`), and allowed set apply: `+` and
// `#` leave unreserved, reserved characters and existing pct-encoded
// triplets as they are, every other operator leaves only unreserved
// characters. Everything else is percent-encoded octet by octet (UTF-8,
// upper-case hex). A prefix `:n` keeps the first n Unicode characters of
// the value (for `+` and `#` an existing triplet counts as one octet, so
// it is never split). Literal text is copied, its non-ASCII characters
// percent-encoded.
//
// @par Matching
// `match` accepts a URI when some assignment of the template's variables
// produces it, and returns the bound values percent-DECODED. It first looks
// for an exact inverse of expansion (values hold only what the operator
// emits, named parameters in template order, `;x` / `?x=` for empty
// values), so that `match(expand(v)) == v` whenever expansion is
// unambiguous; failing that it applies these more lenient rules, for URIs
// that clients build by hand:
//  - Literal text must appear exactly, compared per octet after RFC 3986
//    normalisation: hex case is ignored, `%41` equals `A` (unreserved
//    characters) and `%C3%A9` equals a raw `é`; `%2F` does NOT equal `/`.
//  - `{var}` binds one or more characters other than `/`, `?`, `#`
//    (`users://{id}/profile` takes `users://a@b/profile`, id = `a@b`); in
//    an expression of several variables a raw `,` separates them.
//  - `{+var}` binds one or more characters other than `?`, `#`, so it may
//    span `/`: `file:///{+path}` matches `file:///a/b/c.txt` with
//    path = `a/b/c.txt`. `{#var}` binds `#` then anything but `#`.
//  - An expression without a leading character (operator none or `+`)
//    must bind at least one character: `users://{id}/profile` does not
//    match `users:///profile`.
//  - `{.var}` binds a `.`-prefixed label, `{/var}` a `/`-prefixed segment
//    (no `/`, `?`, `#` inside), both possibly empty (`X.`, `/`).
//  - `{;x,y}` binds path parameters `;x=v` (`;x` or `;x=` mean empty; no
//    `/`, `?`, `#`, `;` inside a value); `{?x,y}` a query `?x=v&y=w` and
//    `{&x}` its continuation `&x=v` (no `#`, `&` inside a value; `x` alone
//    means empty). Parameters may come in any order, each is optional but
//    may appear at most once, and a name not in the expression fails the
//    match (`?state=open&page=2` does not match `{?state,labels}`).
//  - A variable the URI does not contain is absent from the result.
//  - Ambiguities go to the first variables, each taking the shortest value
//    that lets the rest of the URI match: `{date}.{format}` on
//    `2024.01.json` gives date = `2024`, format = `01.json`; `{x,y}` on
//    `1024` binds x only; `{+a,b}` on `1,2,3` gives a = `1`, b = `2,3`.
//    A prefix `{var:n}` binds at most n characters.
//  - A variable that occurs several times must bind consistent values (the
//    same; a prefix occurrence the prefix of the others). This is checked
//    after the search, on the split it found: if that split disagrees, the
//    match fails even when another split would have agreed.
//  - A bare `%` not followed by two hex digits makes a URI unmatchable.
//    Decoded values are the octets sent (not checked to be UTF-8); `+` is
//    not a space. Expansion is not injective for `{+var}` and `{#var}`
//    values holding pct-triplets (`%41` stays `%41` and reads back as `A`).
//  - URIs longer than max_uri_length never match. The search is memoised
//    on (program step, URI position): time and memory grow linearly with
//    the URI length times the template size, never exponentially.
//
// @par Thread safety
// Immutable after construction: const members may be called concurrently;
// copies share the parsed form.

#include <mcp/export.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// An RFC 6570 URI template (a resource template's `uriTemplate`), parsed
/// once: expand() fills it in with string values, match() reads a URI back
/// into the values that produce it. Levels 1 to 3 and the `{var:n}` prefix;
/// the exact rules of both directions are in this header's opening comment.
/// Immutable: const members may run on several threads; copies share the
/// parsed form.
class MCP_API uri_template {
 public:
  /// Variable values by name (looked up by std::string_view too).
  using value_map = std::map<std::string, std::string, std::less<>>;

  /// Longest URI `match` accepts.
  static constexpr std::size_t max_uri_length = 64 * 1024;
  /// Most variable occurrences a template may hold.
  static constexpr std::size_t max_variables = 64;

  /// Parses `text`. Throws mcp::invalid_argument whose message names the
  /// (1-based) column and the problem: unclosed or nested brace, stray `}`,
  /// empty expression or variable name, reserved or unknown operator,
  /// invalid character in a variable name or literal, bad percent-encoding,
  /// bad prefix length, unsupported explode modifier, too many variables.
  explicit uri_template(std::string_view text);

  /// The template as it was given to the constructor.
  const std::string& text() const noexcept;
  /// Variable names in order of first appearance, each once.
  const std::vector<std::string>& variables() const noexcept;
  /// True when the template has no expression at all.
  bool is_literal() const noexcept;

  /// RFC 6570 expansion; variables missing from `values` are undefined,
  /// entries the template does not use are ignored.
  std::string expand(const value_map& values) const;

  /// Matches the whole `uri` (see the rules above). On success, the
  /// variables it binds, percent-decoded; variables absent from the URI are
  /// absent from the map.
  std::optional<value_map> match(std::string_view uri) const;

 private:
  struct impl;
  std::shared_ptr<const impl> impl_;
};

}  // namespace mcp
