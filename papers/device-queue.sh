#!/usr/bin/env bash
# device-queue.sh: the device calls prepared but not yet run, tracked so that
# a session without a GPU leaves them runnable for the next one (two
# sessions' untracked call scripts were lost with their checkouts). Each
# call is one `run` of the device tool (`bash papers/device-queue.sh CALL`,
# in the repository root of the copied tree; nvidia-h200), writes at most 8
# files under $OUT, and is weighed in papers/perf-notes.md (the entry named
# beside it) with its prediction before it runs. A call that has run and been
# written up leaves this file in the commit that writes it up. suite and
# pin remain (suite is run again each time the kernels or the harness's
# GPU side change: last in the forty-ninth session, on an H200, papers/
# reports/h200-2026-12-05g, v52). evict ran in the forty-ninth session
# (v52, -05h) and left; flush in the forty-eighth (perf-notes v51, papers/
# reports/h100-2026-12-05); ring in the forty-sixth (v49, h200-2026-12-05e);
# trace in the forty-fourth (v47, -05d); tests, hyb, direct, mx, lean and
# sweep in the forty-third (v46). The forty-seventh session (v50) got no
# machine. The tree with both peers' packs is over the device tool's 64 MiB
# since the forty-eighth session: carry FlashInfer's pack and its wheels
# (".peers/flashinfer-0.7.2-mla-sm90a.tar.xz", ".peers/wheels",
# ".peers/INSTALL.txt") and leave FlashMLA's out, or the other way round.
#
#   pin     (~5 min) two loose ends of the v52 suite, on an H200: (1)
#           mxfp4_wgmma 256 x 8192 ran 8.2% slower than in the v49 suite,
#           on a row NVML flagged (1755 MHz): v49's tree (35ba426, prepared
#           here first: `bash harness/gpu_ab.sh prepare 35ba426`, carry
#           [".ab", ".peers/flashmla", ".peers/INSTALL.txt"]) against this
#           one on that case alone, the three decodes whose copies there are
#           plain (mxfp4_wgmma, mxfp4_wgmma_qrow, fp8_wgmma); (2) FlashMLA
#           beside bf16_wgmma and fp8_wgmma on the 8 cases with v51's
#           probe (the v52 suite carried FlashInfer only). Prediction: (1)
#           the same within 2% (the kernel's SASS moved by a branch a copy,
#           v51), (2) FlashMLA bf16 ~1.9 of the stricter limit by geomean
#           (1.83 of the plain one in v49). After it, here: a report folder,
#           perf-notes v52's outcome, the README's FlashMLA note
#   suite   (~9 min) the suite of this tree: harness/gpu_session.sh (the
#           build, every test but the slow ones, GPU tests included, the
#           awkward cases validated, the 8 recorded cases with every variant
#           and the peers whose packs the tree carries: here first
#           `PYVERS=3.12 PYTHON=build/venv/bin/python bash
#           harness/peers/pack_flashinfer.sh .peers` (that Python needs torch:
#           `build/venv/bin/python -m pip install torch numpy`, ~5 min; the
#           pack ~10 min on 2 cores) and `bash harness/peers/pack_flashmla.sh
#           .peers`, then
#           carry the packs (64 MiB in all: one peer's, above; no wheels
#           of other Pythons)); MLAB_COMMIT=<hash> names the commit (the copy
#           has no .git).
#           After it, here: a report folder (harness/report_lib.sh), the
#           README's table (harness/tools/readme_table.py build/mlabench
#           FILE.h5), claims.md. $OUT: gpu_session.sh's files
#
# Exit codes: 0 the call ran (read its files: a test may have failed); 2
# usage; 4 a build failed (the log in $OUT).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) && cd "$root" || exit 2
die() { echo "device-queue.sh: $2" >&2; exit "$1"; }
case ${1:-} in
pin)
  [ -d .ab/35ba426 ] || die 2 "pin: .ab/35ba426 missing (bash harness/gpu_ab.sh prepare 35ba426 here, carry .ab)"
  export MLAB_AB_WORK=${TMPDIR:-/tmp}/mlab-pin
  MLAB_COMMIT=${MLAB_COMMIT:-worktree} MLAB_AB_SASS=off MLAB_AB_CASES_GLOB='b256_kv8192*.h5' \
    bash harness/gpu_ab.sh run 35ba426 --max-time 0.15 --variants mxfp4_wgmma,mxfp4_wgmma_qrow,fp8_wgmma \
    > "$MLAB_AB_WORK.log" 2>&1 || { tail -5 "$MLAB_AB_WORK.log"; die 4 "gpu_ab.sh failed"; }
  grep -E "^b256|^geomean|^summary" "$OUT/compare.txt"
  . harness/peers/use_pack.sh .peers
  build-ab-new/mlabench run --require-gpu --quiet --max-time 0.1 --label flashmla --variants bf16_wgmma,fp8_wgmma \
    --peers flashmla "$MLAB_AB_WORK"/cases/*.h5 -o "$OUT/pin_flashmla.h5" > "$OUT/pin_flashmla.txt" 2>&1 ||
    echo "device-queue.sh: the FlashMLA run exited $? (its log: pin_flashmla.txt)"
  tail -30 "$OUT/pin_flashmla.txt"
  ;;
suite)
  [ -n "${MLAB_COMMIT:-}" ] || die 2 "suite: MLAB_COMMIT=<hash> names the commit the results are of"
  bash harness/gpu_session.sh cuda || die 4 "gpu_session.sh failed (the build: its log in \$OUT)"
  ;;
*) die 2 "usage: papers/device-queue.sh pin|suite (the calls: this file's head)" ;;
esac
