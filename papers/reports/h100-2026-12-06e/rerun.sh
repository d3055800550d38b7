#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-fourth session, calls 2 and 5:
# the combine's first load with and without PDL, then with a control load
# first; trace builds of 6da236c's tree as is and with -DMLAB_NO_PDL (call
# 2), and of the probe's tree with -DMLAB_TRACE_CTRL and as is (call 5),
# fp8_wgmma_qrow and bf16_wgmma at 4 x 1024 and 32 x 1024).
#   rerun.sh   from the committed trace logs (pdltrace.tar.gz: pdl/ and
#              nopdl/; ctrltrace.tar.gz: ctrl/ and pdl/; each gpu_trace.sh's
#              folder): each build's merge table
#              and phase table (harness/tools/trace_summary.py --merge,
#              --table), the README's
# To re-measure (a GPU machine): at 6da236c, `bash papers/device-queue.sh
# pdltrace` (the entry left in the commit that wrote this up; git show its
# parent); call 5: harness/gpu_trace.sh b4_kv1024 b32_kv1024 -- --variants
# fp8_wgmma_qrow,bf16_wgmma --max-time 0.05, once with
# MLAB_TRACE_CUDA_FLAGS=-DMLAB_TRACE_CTRL and once without.
set -euo pipefail
. "$(dirname "$0")/../../../harness/report_lib.sh" # to the repository's root; here, M
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
tar xzf "$here/pdltrace.tar.gz" -C "$tmp" && mkdir -p "$tmp/c5" && tar xzf "$here/ctrltrace.tar.gz" -C "$tmp/c5"
for m in pdl nopdl c5/ctrl c5/pdl; do
  case $m in
    pdl) echo "== call 2, the combine launched as the decode's programmatic dependent" ;;
    nopdl) echo "== call 2, -DMLAB_NO_PDL: the combine launched plainly after the decode" ;;
    c5/ctrl) echo "== call 5, -DMLAB_TRACE_CTRL: 'combine past its wait' is a Q line's load back, issued first" ;;
    c5/pdl) echo "== call 5, the same machine, as built" ;;
  esac
  (cd "$tmp/$m" && python3 "$OLDPWD/harness/tools/trace_summary.py" --merge trace_b4_kv1024.log trace_b32_kv1024.log &&
    python3 "$OLDPWD/harness/tools/trace_summary.py" --table trace_b4_kv1024.log trace_b32_kv1024.log)
done
