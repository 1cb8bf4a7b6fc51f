#!/usr/bin/env python3
"""The C++ of README.md and docs/**/*.md, made into sources that CTest compiles.

Every ```cpp block of those pages is compiled by the test `docs.build`
(test/docs/CMakeLists.txt runs this script when it configures, into the build
folder); the programs marked `run` are run by tests of their own. How a block
is compiled is said by an HTML comment on the line just before its fence,
which the rendered page does not show:

    <!-- doc-test: DIRECTIVE; DIRECTIVE...
    given: C++ that the block assumes, placed before it
    -->

Without a comment, a block with an `int main(` is a whole program: it is
compiled as written, alone, into an executable linked with caduceus::mcp
(so it must include what it uses). Any other block is a fragment: the
fragments of one page are compiled together, as one translation unit that
starts with

    #include <mcp/mcp.hpp>
    #include <iostream>
    namespace asio = boost::asio;
    namespace json = boost::json;

each block in a namespace of its own, at namespace scope (declarations,
definitions), and are not linked. Directives:

  in: SIGNATURE   the fragment is the body of this function, e.g.
                  `in: asio::awaitable<void> f(mcp::client& client)`; the
                  parameters are the names the fragment takes as given
  given: C++      the rest of the comment is C++ placed before the block, at
                  namespace scope: the declarations a fragment assumes (a
                  function declared is enough: fragments are not linked); its
                  #include lines go first, outside the block's namespace
  continues       the block goes on in the namespace of the page's previous
                  block, seeing its declarations
  fragment        a block with a main() that is an excerpt, compiled as a fragment
  name: NAME      a program's executable (default doc-PAGE-N, N its block's
                  ordinal on the page); unique across pages
  run             CTest runs the program (in the folder of the programs, so
                  that one can start another by `./NAME`): it must exit 0
                  within 60 seconds
  expect: TEXT    with run: ...and print TEXT on stdout
  needs: PART...  compiled only where caduceus::PART is built (skills, cluster,
                  httplib, civetweb; docs/platforms.md); an #include of
                  <mcp/adapters/httplib.hpp>, <mcp/adapters/civetweb.hpp> or
                  <mcp/cluster/...> says so by itself
  skip: REASON    not compiled: a block that shows code that must not compile,
                  or a compiler's bug; say why

Compiler errors name the page and its line (#line directives).

Usage: check-doc-code.py [--root DIR] --out DIR    writes the sources and doc_code.cmake
       check-doc-code.py [--root DIR] --list       says what each block is
"""

import argparse
import os
import re
import sys

PRELUDE = """#include <mcp/mcp.hpp>

#include <iostream>

namespace asio = boost::asio;
namespace json = boost::json;
"""

PARTS = ("skills", "cluster", "httplib", "civetweb")
IMPLIED_PARTS = (
    (re.compile(r"<mcp/adapters/httplib\.hpp>"), "httplib"),
    (re.compile(r"<mcp/adapters/civetweb\.hpp>"), "civetweb"),
    (re.compile(r"<mcp/cluster/"), "cluster"),
)
MAIN = re.compile(r"\bint\s+main\s*\(")
INCLUDE = re.compile(r"^\s*#\s*include\b")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
KEYS = {"in", "given", "continues", "fragment", "name", "run", "expect", "needs", "skip"}


class DocError(Exception):
    pass


class Block:
    def __init__(self, page, ordinal, line, code):
        self.page = page          # relative path of the .md
        self.ordinal = ordinal    # 1-based among the page's cpp blocks
        self.line = line          # md line of the first line of code
        self.code = code          # list of lines, indentation removed
        self.directives = {}
        self.given = []           # list of lines
        self.given_line = 0       # md line of the first given line
        self.needs = set()
        self.namespace = None

    def where(self):
        return f"{self.page}:{self.line - 1}"

    @property
    def skipped(self):
        return "skip" in self.directives

    @property
    def is_program(self):
        return (not self.skipped and "fragment" not in self.directives
                and any(MAIN.search(l) for l in self.code))

    @property
    def runs(self):
        return "run" in self.directives


def parse_comment(block, text, first_line):
    """Reads the doc-test comment `text` (after `doc-test:`), which starts on md line `first_line`."""
    given_at = text.find("given:")
    head = text if given_at < 0 else text[:given_at]
    for item in re.split(r"[;\n]", head):
        item = item.strip()
        if not item:
            continue
        key, _, value = item.partition(":")
        key, value = key.strip(), value.strip()
        if key not in KEYS:
            raise DocError(f"{block.where()}: unknown doc-test directive '{key}'")
        block.directives[key] = value
    if given_at >= 0:
        before = text[:given_at]
        block.given_line = first_line + before.count("\n")
        given = text[given_at + len("given:"):]
        block.given = given.split("\n")
        if block.given and not block.given[0].strip():
            block.given = block.given[1:]
            block.given_line += 1
    if "skip" in block.directives and not block.directives["skip"]:
        raise DocError(f"{block.where()}: `skip` needs a reason: `skip: why`")
    for part in block.directives.get("needs", "").replace(",", " ").split():
        if part not in PARTS:
            raise DocError(f"{block.where()}: needs '{part}': not one of {', '.join(PARTS)}")
        block.needs.add(part)


def read_page(root, page):
    with open(os.path.join(root, page), encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.group(1), m.group(2), m.group(3)
        j = i + 1
        closing = re.compile(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        while j < len(lines) and not closing.match(lines[j]):
            j += 1
        if lang == "cpp":
            code = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:j]]
            block = Block(page, len(blocks) + 1, i + 2, code)
            # The comment just before the fence, if it is ours.
            k = i - 1
            if k >= 0 and lines[k].strip().endswith("-->"):
                start = k
                while start >= 0 and "<!--" not in lines[start]:
                    start -= 1
                comment = "\n".join(lines[start:k + 1]).strip()
                m2 = re.match(r"<!--\s*doc-test:(.*)-->$", comment, re.S)
                if m2:
                    parse_comment(block, m2.group(1), start + 1)
            for line in block.code + block.given:
                for pattern, part in IMPLIED_PARTS:
                    if pattern.search(line):
                        block.needs.add(part)
            blocks.append(block)
        i = j + 1
    return blocks


def pages(root):
    found = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    for folder, dirs, files in os.walk(os.path.join(root, "docs")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".md"):
                found.append(os.path.relpath(os.path.join(folder, name), root))
    return found


def slug(page):
    return re.sub(r"[^A-Za-z0-9]+", "_", page[:-3] if page.endswith(".md") else page).strip("_")


def line_directive(line, path):
    return f'#line {line} "{path}"'


def cmake_quote(text):
    return '"' + re.sub(r'([\\"$;])', r"\\\1", text) + '"'


def guard(needs):
    return " && ".join(f"CADUCEUS_DOC_WITH_{p.upper()}" for p in sorted(needs))


def fragments_unit(root, page, blocks):
    """One translation unit holding every fragment of `page`."""
    path = os.path.join(os.path.abspath(root), page)
    out = [f"// Generated from {page} by scripts/check-doc-code.py: its fragments, compiled, not linked.",
           PRELUDE]
    previous = None
    for block in blocks:
        if block.skipped or block.is_program:
            continue
        if "continues" in block.directives:
            if previous is None:
                raise DocError(f"{block.where()}: `continues`, but no block before it")
            block.namespace = previous.namespace
            block.needs |= previous.needs
        else:
            block.namespace = f"block_{block.ordinal}"
        previous = block
        out.append(f"// {block.where()}")
        if block.needs:
            out.append(f"#if {guard(block.needs)}")
        # Includes first, outside the namespace.
        for first, lines in ((block.given_line, block.given), (block.line, block.code)):
            for n, line in enumerate(lines):
                if INCLUDE.match(line):
                    out.append(line_directive(first + n, path))
                    out.append(line)
        out.append(f"namespace {block.namespace} {{")
        if block.given:
            out.append(line_directive(block.given_line, path))
            out.extend("" if INCLUDE.match(l) else l for l in block.given)
        signature = block.directives.get("in")
        if signature:
            out.append(signature + " {")
        out.append(line_directive(block.line, path))
        out.extend("" if INCLUDE.match(l) else l for l in block.code)
        if signature:
            out.append("}")
        out.append(f"}}  // namespace {block.namespace}")
        if block.needs:
            out.append("#endif")
        out.append("")
    return "\n".join(out)


def program_unit(root, block):
    path = os.path.join(os.path.abspath(root), block.page)
    out = [f"// Generated from {block.where()} by scripts/check-doc-code.py: a whole program."]
    if block.given:
        out.append(line_directive(block.given_line, path))
        out.extend(block.given)
    out.append(line_directive(block.line, path))
    out.extend(block.code)
    out.append("")
    return "\n".join(out)


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def collect(root):
    result = []
    for page in pages(root):
        blocks = read_page(root, page)
        if blocks:
            result.append((page, blocks))
    return result


def check(collected):
    names = {}
    for page, blocks in collected:
        for block in blocks:
            if block.skipped:
                continue
            d = block.directives
            if block.is_program:
                if "in" in d or "continues" in d:
                    raise DocError(f"{block.where()}: a whole program takes no `in` or `continues`")
                name = d.get("name") or f"doc-{os.path.basename(page)[:-3]}-{block.ordinal}"
                if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                    raise DocError(f"{block.where()}: name '{name}': letters, digits, '_', '.', '-' only")
                if name in names:
                    raise DocError(f"{block.where()}: name '{name}' is {names[name]}'s too")
                names[name] = block.where()
                block.name = name
            else:
                for key in ("run", "expect", "name"):
                    if key in d:
                        raise DocError(f"{block.where()}: `{key}` is for whole programs (a block with main)")
            if "expect" in d and "run" not in d:
                raise DocError(f"{block.where()}: `expect` without `run`")


def generate(root, out_dir):
    collected = collect(root)
    check(collected)
    os.makedirs(out_dir, exist_ok=True)
    cmake = ["# Generated by scripts/check-doc-code.py; read by test/docs/CMakeLists.txt."]
    counts = {"fragments": 0, "programs": 0, "run": 0, "skipped": 0, "units": 0}
    written = {"doc_code.cmake"}
    for page, blocks in collected:
        fragments = [b for b in blocks if not b.skipped and not b.is_program]
        counts["skipped"] += sum(b.skipped for b in blocks)
        if fragments:
            name = f"{slug(page)}.cpp"
            write_if_changed(os.path.join(out_dir, name), fragments_unit(root, page, blocks))
            written.add(name)
            counts["fragments"] += len(fragments)
            counts["units"] += 1
            cmake.append(f"caduceus_doc_fragments({slug(page)} {cmake_quote(os.path.join(out_dir, name))})")
        for block in blocks:
            if not block.is_program:
                continue
            name = f"{slug(page)}_{block.ordinal}.cpp"
            write_if_changed(os.path.join(out_dir, name), program_unit(root, block))
            written.add(name)
            counts["programs"] += 1
            counts["units"] += 1
            args = [block.name, cmake_quote(os.path.join(out_dir, name)), cmake_quote(block.where())]
            if block.needs:
                args += ["NEEDS"] + sorted(block.needs)
            if block.runs:
                counts["run"] += 1
                args.append("RUN")
                if block.directives.get("expect"):
                    args += ["EXPECT", cmake_quote(block.directives["expect"])]
            cmake.append(f"caduceus_doc_program({' '.join(args)})")
    write_if_changed(os.path.join(out_dir, "doc_code.cmake"), "\n".join(cmake) + "\n")
    for stale in set(os.listdir(out_dir)) - written:
        if stale.endswith(".cpp"):
            os.remove(os.path.join(out_dir, stale))
    print(f"{counts['fragments']} fragments and {counts['programs']} programs ({counts['run']} run) "
          f"in {counts['units']} translation units; {counts['skipped']} blocks skipped")


def list_blocks(root):
    collected = collect(root)
    check(collected)
    for page, blocks in collected:
        for block in blocks:
            if block.skipped:
                kind = f"skipped: {block.directives['skip']}"
            elif block.is_program:
                kind = f"program {block.name}" + (" (run)" if block.runs else "")
            else:
                kind = "fragment" + (f" in {block.directives['in']}" if "in" in block.directives else "")
            needs = f" [needs {', '.join(sorted(block.needs))}]" if block.needs else ""
            print(f"{block.where()}: {kind}{needs}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", help="where to write the sources and doc_code.cmake")
    group.add_argument("--list", action="store_true", help="say what each block is")
    args = parser.parse_args()
    try:
        if args.list:
            list_blocks(args.root)
        else:
            generate(args.root, args.out)
    except DocError as e:
        print(f"check-doc-code.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
