#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with ASan and UBSan and runs each on
# its corpus for a while. Exits non-zero when any target crashes, leaks,
# hangs or runs out of memory; the input that did it is kept in
# build-asan/fuzz/artifacts/<target>/ (fuzz/README.md: reproducing a crash).
#
#   scripts/fuzz.sh [--seconds N] [--jobs J] [--keep] [target...]
#
#   --seconds N  how long each target runs (default 30)
#   --jobs J     targets run at once (default: the number of cores)
#   --keep       merge what the run found into the stored corpus, fuzz/corpus/
#   target...    some targets only (default: every one, fuzz/CMakeLists.txt)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30
jobs=$(nproc)
keep=false
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
scripts/setup.sh --fuzz
if [[ ${#targets[@]} -eq 0 ]]; then
  scripts/build-asan.sh --target fuzzers
  for binary in build-asan/bin/fuzz/fuzz_*; do targets+=("${binary##*/fuzz_}"); done
else
  scripts/build-asan.sh --target "${targets[@]/#/fuzz_}"
fi

# The dictionary each target mutates with.
dictionary_of() {
  case "$1" in
    http_request) echo http ;;
    sse_parser) echo sse ;;
    uri_template) echo uri_template ;;
    auth_headers) echo auth ;;
    *) echo json ;;
  esac
}

out=build-asan/fuzz
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# Runs one target: the stored corpus is read, what it finds goes to a work
# corpus of its own (merged back into fuzz/corpus/ with --keep).
run_target() {
  local target=$1
  local work="$out/corpus/$target" artifacts="$out/artifacts/$target" log="$out/logs/$target.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  local started="$out/logs/$target.started"  # artifacts newer than this are this run's
  touch "$started"
  local status=0
  build-asan/bin/fuzz/fuzz_"$target" "$work" "fuzz/corpus/$target" \
    -dict="fuzz/dict/$(dictionary_of "$target").dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$log" 2>&1 || status=$?
  local execs coverage
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  if [[ $status -eq 0 ]]; then
    printf '%-18s ok     %10s runs  %s  corpus %s\n' "$target" "${execs:-?}" "$coverage" "$(ls "$work" | wc -l)"
  else
    printf '%-18s FAILED (exit %d): %s\n' "$target" "$status" \
      "$(find "$artifacts" -type f -newer "$started" -printf '%f ' | head -c 300)"
    grep -m1 -E 'ERROR: |runtime error:|Timeout|out-of-memory' "$log" | sed 's/^/    /' || true
    echo "    log: $log"
  fi
  if $keep && [[ $status -eq 0 ]]; then
    build-asan/bin/fuzz/fuzz_"$target" -merge=1 "fuzz/corpus/$target" "$work" >/dev/null 2>&1
  fi
  return $status
}

echo "fuzzing ${#targets[@]} targets, ${seconds} s each, ${jobs} at a time"
failures=0
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [[ $running -ge $jobs ]]; then
    wait -n || failures=$((failures + 1))
    running=$((running - 1))
  fi
done
while [[ $running -gt 0 ]]; do
  wait -n || failures=$((failures + 1))
  running=$((running - 1))
done
[[ $failures -eq 0 ]] || { echo "fuzz.sh: $failures target(s) failed" >&2; exit 1; }
