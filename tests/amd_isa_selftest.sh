#!/usr/bin/env bash
# amd_isa_selftest.sh DIR: harness/amd_isa.sh --check must fail on a committed
# summary that differs from the fresh one by one VGPR, on a listing whose
# kernel uses scratch, and on one instruction changed (the isa= hash); it must
# pass on the same code with its labels renumbered. DIR holds listings from amd_isa_summary_matches_committed.
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
# 3. one instruction of a decode kernel changed (an immediate), nothing else:
# counts, registers and bytes stay, the instruction hash (isa=) must not
mkdir -p "$tmp/ins"
cp "$dir"/*.s "$tmp/ins/"
awk '!done && /^\t\.globl\t_Z10mla_decode/ { in_k = 1 }
     in_k && !done && /^\tv_mov_b32_e32 v[0-9]+, 0$/ { sub(/, 0$/, ", 1"); done = 1 }
     { print }' "$dir/fp8.gfx950.s" >"$tmp/ins/fp8.gfx950.s"
cmp -s "$tmp/ins/fp8.gfx950.s" "$dir/fp8.gfx950.s" && { echo "selftest: could not alter an instruction"; exit 1; }
if bash "$isa" --check --no-compile --out "$tmp/ins" >"$tmp/log3" 2>&1; then
  echo "FAIL: --check passed with an instruction of a decode kernel changed"; fail=1
elif ! grep -q "differs from the committed" "$tmp/log3" || ! grep -q "^+gfx950 fp8 mla_decode.* isa=" "$tmp/log3"; then
  echo "FAIL: --check failed without naming the changed kernel:"; cat "$tmp/log3"; fail=1
else
  echo "ok: one changed instruction fails the check (isa=)"
fi

# 4. the same code with its block labels renumbered (as when a kernel is
# added before it in its file): the check must still pass
mkdir -p "$tmp/lbl"
cp "$dir"/*.s "$tmp/lbl/"
sed -i 's/\.LBB2_/.LBB97_/g' "$tmp/lbl/fp8.gfx950.s"
cmp -s "$tmp/lbl/fp8.gfx950.s" "$dir/fp8.gfx950.s" && { echo "selftest: no label to renumber"; exit 1; }
if bash "$isa" --check --no-compile --out "$tmp/lbl" >"$tmp/log4" 2>&1; then
  echo "ok: renumbered labels leave the check passing"
else
  echo "FAIL: --check failed on renumbered labels:"; cat "$tmp/log4"; fail=1
fi
exit $fail
