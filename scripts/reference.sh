#!/usr/bin/env bash
# Generates the API reference (docs/reference/Doxyfile) into
# build/reference/html and fails on any Doxygen warning: every public class,
# function and member has a doc comment, and every comment is well formed.
set -euo pipefail
cd "$(dirname "$0")/.."
export CADUCEUS_REFERENCE_DIR=${CADUCEUS_REFERENCE_DIR:-$PWD/build/reference}
# MAJOR.MINOR.PATCH, from the header that is the one place it is written.
export CADUCEUS_VERSION=$(sed -n 's/^#define CADUCEUS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' include/mcp/version.hpp |
  paste -sd.)
command -v doxygen >/dev/null || { echo "reference: doxygen is not installed (apt-get install doxygen)" >&2; exit 1; }
rm -rf "$CADUCEUS_REFERENCE_DIR"
mkdir -p "$CADUCEUS_REFERENCE_DIR"
doxygen docs/reference/Doxyfile
warnings="$CADUCEUS_REFERENCE_DIR/warnings.txt"
if [[ -s $warnings ]]; then
  cat "$warnings" >&2
  echo "reference: $(grep -c 'warning:' "$warnings") Doxygen warnings" >&2
  exit 1
fi
echo "reference: $CADUCEUS_REFERENCE_DIR/html/index.html"
