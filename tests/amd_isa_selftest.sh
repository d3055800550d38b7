#!/usr/bin/env bash
# amd_isa_selftest.sh DIR: harness/amd_isa.sh --check must fail on a committed
# summary that differs from the fresh one by one VGPR, and on a listing whose
# kernel uses scratch. DIR holds listings from amd_isa_summary_matches_committed.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
isa=$src/harness/amd_isa.sh
ls "$dir"/*.gfx950.s >/dev/null 2>&1 || { echo "selftest: no listings in $dir (toolchain absent?)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. the committed summary with one decode kernel's VGPR count raised by one
awk '!done && / mla_decode</ { sub(/vgpr=[0-9]+/, "vgpr=" substr($4, 6) + 1); done = 1 } { print }' \
  "$src/variants/isa/isa-summary.txt" >"$tmp/changed.txt"
cmp -s "$tmp/changed.txt" "$src/variants/isa/isa-summary.txt" && { echo "selftest: could not alter the summary"; exit 1; }
cp "$dir"/*.s "$tmp/"
if bash "$isa" --check --no-compile --out "$tmp" --committed "$tmp/changed.txt" >"$tmp/log1" 2>&1; then
  echo "FAIL: --check passed against a summary with a changed VGPR count"; fail=1
elif ! grep -q "differs from the committed" "$tmp/log1"; then
  echo "FAIL: --check failed without saying the summary differs:"; cat "$tmp/log1"; fail=1
else
  echo "ok: a changed VGPR count fails the check"
fi

# 2. a listing whose first kernel spills (ScratchSize 16)
sed -i '0,/^; ScratchSize: 0/s//; ScratchSize: 16/' "$tmp/fp8.gfx950.s"
if bash "$isa" --check --no-compile --out "$tmp" >"$tmp/log2" 2>&1; then
  echo "FAIL: --check passed with a kernel using scratch"; fail=1
elif ! grep -q "kernels using scratch" "$tmp/log2"; then
  echo "FAIL: --check failed without naming the scratch:"; cat "$tmp/log2"; fail=1
else
  echo "ok: scratch > 0 fails the check"
fi
exit $fail
