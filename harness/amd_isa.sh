#!/usr/bin/env bash
# amd_isa.sh: the AMD kernels' ISA listings and their one-line summaries.
#
#   bash harness/amd_isa.sh [--out DIR]      listings + DIR/isa-summary.txt
#   bash harness/amd_isa.sh --check          ... and compare with the committed
#                                            variants/isa/isa-summary.txt
#   bash harness/amd_isa.sh --update         ... and rewrite the committed one
#
# Each variants/*.hip is compiled device-only (-S) for gfx942 (MI300X/MI325X)
# and gfx950 (MI355X) by the PyPI clang 22 toolchain (harness/amd_toolchain.sh;
# $MLAB_AMD_HIPCC names another hipcc, $MLAB_AMD_TOOLCHAIN_DIR another folder).
# The listings go to DIR (default build/isa): FILE.ARCH.s. One summary line per
# (architecture, source file, kernel):
#   vgpr agpr sgpr scratch   registers and scratch bytes a lane (the listing's)
#   lds=S+D                  static LDS + the dynamic LDS its launcher requests
#                            (mla_cfg<KVF>::SMEM for mla_decode<KVF,...>, read
#                            from variants/isa/lds_probe.hip's listing; 0 else)
#   occ=W                    waves a SIMD: the listing's register-bound figure,
#                            lowered by LDS (64 KB a CU on gfx942, 160 KB on
#                            gfx950); "occ=0(lds>N)" when the block cannot run
#   bytes                    code size
#   mfma:NAME=N              matrix instructions (v_mfma*, v_smfmac*), static counts
#   cvt=N                    conversions (v_cvt*), with the fp8/fp4 ones named
#   perm=N                   permutes (v_perm_b32, v_permlane*), then exp= rcp=
#                            (v_exp_f32, v_rcp_f32) and div= (IEEE divisions:
#                            v_div_fixup_f32)
#   lds_dma=N                global -> LDS loads (global_load_lds*: gfx950's
#                            dwordx4 form stages the KV tiles)
#   tr=N                     transposing LDS reads (ds_read_*_tr_*: gfx950's
#                            b16/b8 forms read V for P.V)
#   isa=MD5                  the kernel's instructions and block labels (10 hex
#                            digits of their MD5; comments dropped, labels
#                            numbered per kernel, so a kernel added before it
#                            in its file does not move it): any change of
#                            code, however small, shows here
# --check fails (exit 1) when the fresh summary differs from the committed one
# or any kernel uses scratch; exit 77 when the toolchain is absent (unless
# MLAB_REQUIRE_AMD_ISA=1, as in CI, where that is a failure too).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
committed=$root/variants/isa/isa-summary.txt
out=$root/build/isa mode=write compile=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --check) mode=check; shift ;;
    --update) mode=update; shift ;;
    --committed) committed=$2; shift 2 ;;  # tests: compare with another file
    --no-compile) compile=0; shift ;;      # tests: summarize the listings in --out
    *) echo "usage: amd_isa.sh [--out DIR] [--check|--update] [--committed FILE] [--no-compile]" >&2; exit 2 ;;
  esac
done
hipcc=${MLAB_AMD_HIPCC:-${MLAB_AMD_TOOLCHAIN_DIR:-$root/build/amd-toolchain}/bin/hipcc-pypi}
if [ ! -x "$hipcc" ]; then
  echo "amd_isa: no AMD compiler at $hipcc (set it up: bash harness/amd_toolchain.sh)" >&2
  [ "${MLAB_REQUIRE_AMD_ISA:-0}" = 1 ] && exit 1
  exit 77
fi
command -v c++filt >/dev/null || { echo "amd_isa: c++filt (binutils) not found" >&2; exit 1; }
archs="gfx942 gfx950"
mkdir -p "$out"

# compile: two at a time (CI and this project's machines have 2 cores)
srcs=$(cd "$root" && ls variants/*.hip) probe=variants/isa/lds_probe.hip
fail=0 n=0
[ $compile = 1 ] || archs_c=""
for a in ${archs_c-$archs}; do
  for s in $srcs $probe; do
    b=$(basename "$s" .hip)
    ( cd "$root" && "$hipcc" --offload-arch="$a" --cuda-device-only -O3 -std=c++17 -I. \
        -S "$s" -o "$out/$b.$a.s" 2>"$out/$b.$a.log" ) &
    n=$((n + 1))
    if [ $n -ge 2 ]; then wait -n || fail=1; n=$((n - 1)); fi
  done
done
while [ $n -gt 0 ]; do wait -n || fail=1; n=$((n - 1)); done
if [ $fail -ne 0 ]; then
  for f in "$out"/*.log; do grep -l 'error' "$f" >/dev/null 2>&1 && { echo "amd_isa: $f:"; grep -m3 'error' "$f"; }; done >&2
  echo "amd_isa: a compile failed (logs in $out)" >&2
  exit 1
fi

summary=$out/isa-summary.txt
insdir=$out/isa-ins
rm -rf "$insdir" && mkdir -p "$insdir"
{
  echo "# AMD ISA summary: harness/amd_isa.sh (device-only -O3 listings of variants/*.hip)"
  hipv=$(printf '#include <hip/hip_version.h>\nHIPV HIP_VERSION_MAJOR.HIP_VERSION_MINOR\n' |
         "$hipcc" --offload-arch=gfx950 --cuda-device-only -E -x hip - 2>/dev/null | sed -n 's/^HIPV //p' | tr -d ' ')
  echo "# compiler: $("$hipcc" --version | grep -m1 'clang version' | sed 's/ (.*//'), HIP headers ${hipv:-unknown}"
  echo "# regenerate: bash harness/amd_isa.sh --update; fields: see harness/amd_isa.sh"
  for a in $archs; do
    case $a in gfx942) ldsmax=65536 ;; *) ldsmax=163840 ;; esac
    dyn=$(awk '/^mlab_dyn_lds_[0-9]+:/ { k = substr($1, 14, length($1) - 14); getline; printf "%s=%s ", k, $2 }' "$out/lds_probe.$a.s")
    for s in $srcs; do
      b=$(basename "$s" .hip)
      awk -v arch="$a" -v file="$b" -v dyn="$dyn" -v ldsmax="$ldsmax" -v insdir="$insdir" '
        BEGIN { n = split(dyn, d, " "); for (i = 1; i <= n; i++) { split(d[i], kv, "="); D[kv[1]] = kv[2] } }
        function sorted(a, pre,   o, n, i, j, t, r) { # " PRE NAME=N" for each, by name
          n = 0
          for (o in a) L[++n] = o
          for (i = 2; i <= n; i++)
            for (j = i; j > 1 && L[j - 1] > L[j]; j--) { t = L[j]; L[j] = L[j - 1]; L[j - 1] = t }
          r = ""
          for (i = 1; i <= n; i++) r = r pre L[i] "=" a[L[i]]
          return r
        }
        function flush() {
          if (k == "") return
          K[++nk] = k; V[k] = sprintf("vgpr=%s agpr=%s sgpr=%s scratch=%s", v, ag, sg, sc)
          SL[k] = l; OC[k] = oc; BY[k] = by
          ops = sorted(mf, " mfma:") " cvt=" (cv + 0) sorted(cn, " ")
          ops = ops " perm=" (pm + 0) " exp=" (ex + 0) " rcp=" (rc + 0) " div=" (dv + 0)
          ops = ops " lds_dma=" (ld + 0) " tr=" (tr + 0)
          OPS[k] = ops
          IF[k] = ins; close(ins)
          delete mf; delete cn; cv = pm = ex = rc = dv = ld = tr = 0; k = ""
        }
        /^\t\.globl\t/ { flush(); k = $2; if (k ~ /^__hip_cuid/) k = ""; ins = insdir "/" arch "." file "." (++nins); printf "" > ins }
        k != "" && (/^\t[a-z_]/ || /^\.LBB[0-9]+_[0-9]+:/) { # the instruction stream, for isa=
          line = $0; sub(/[ \t]*;.*$/, "", line); gsub(/\.LBB[0-9]+_/, ".LBB_", line); print line > ins
        }
        k != "" && /^\t[sv]_|^\t(ds|global|buffer)_/ {
          op = $1
          if (op ~ /^v_(mfma|smfmac)/) mf[op]++
          if (op ~ /^v_cvt/) { cv++; if (op ~ /fp8|bf8|fp4|scale/) cn[op]++ }
          if (op ~ /^v_perm_b32|^v_permlane/) pm++
          if (op ~ /^v_exp_f32/) ex++
          if (op ~ /^v_rcp_f32/) rc++
          if (op ~ /^v_div_fixup_f32/) dv++
          if (op ~ /^global_load_lds/) ld++
          if (op ~ /^ds_read.*_tr_/) tr++
        }
        /^; codeLenInByte = / { by = $4 }
        /^; TotalNumSgprs: / { sg = $3 }
        /^; NumVgprs: / { v = $3 }
        /^; NumAgprs: / { ag = $3 }
        /^; ScratchSize: / { sc = $3 }
        /^; LDSByteSize: / { l = $3 }
        /^; Occupancy: / { oc = $3 }
        /^[ \t]+\.max_flat_workgroup_size:/ { wg = $2 }
        /^[ \t]+\.name:/ { WG[$2] = wg }
        END {
          flush()
          for (i = 1; i <= nk; i++) {
            k = K[i]
            dl = 0
            if (match(k, /^_Z10mla_decodeILi[0-9]+E/)) dl = D[substr(k, 18, RLENGTH - 18)] + 0
            tot = SL[k] + dl
            occ = OC[k]
            if (tot > ldsmax) occ = "0(lds>" ldsmax ")"
            else if (tot > 0) {
              wpb = int((WG[k] + 63) / 64); if (wpb < 1) wpb = 1
              ol = int(int(ldsmax / tot) * wpb / 4); if (ol < 1) ol = 1
              if (ol < occ) occ = ol
            }
            printf "%s %s %s %s lds=%s+%s occ=%s bytes=%s%s isa=%s\n", arch, file, k, V[k], SL[k], dl, occ, BY[k], OPS[k], IF[k]
          }
        }' "$out/$b.$a.s"
    done
  done
} >"$summary.raw.ins"
# isa=FILE -> isa=MD5 of the kernel's instruction lines
while IFS= read -r line; do
  case $line in
    *" isa="*) f=${line##* isa=}; echo "${line% isa=*} isa=$(md5sum < "$f" | cut -c1-10)" ;;
    *) echo "$line" ;;
  esac
done <"$summary.raw.ins" >"$summary.raw"
rm -rf "$summary.raw.ins" "$insdir"
# readable kernel names: "void mla_decode<1, false, false>(mla_params)" -> mla_decode<1,false,false>
awk '!/^#/ { print $3 }' "$summary.raw" | c++filt | sed 's/^void //; s/(.*//; s/ //g' >"$summary.names"
awk 'NR == FNR { n[FNR] = $0; next } /^#/ { print; next } { $3 = n[++i]; print }' \
  "$summary.names" "$summary.raw" >"$summary"
rm -f "$summary.raw" "$summary.names"

status=0
if grep -v '^#' "$summary" | grep -v ' scratch=0 ' >"$out/scratch.txt"; then
  echo "amd_isa: kernels using scratch (spills):" >&2
  cat "$out/scratch.txt" >&2
  status=1
fi
case $mode in
  write) echo "amd_isa: $summary" ;;
  update)
    cp "$summary" "$committed.tmp" && mv "$committed.tmp" "$committed"
    echo "amd_isa: wrote $committed" ;;
  check)
    if [ ! -f "$committed" ]; then
      echo "amd_isa: no committed summary $committed (bash harness/amd_isa.sh --update)" >&2; exit 1
    fi
    if ! diff -u "$committed" "$summary" >&2; then
      echo "amd_isa: the ISA summary differs from the committed $committed (- committed, + fresh);" \
           "if the change is meant, run: bash harness/amd_isa.sh --update" >&2
      status=1
    else
      echo "amd_isa: summary matches $committed ($(grep -vc '^#' "$summary") kernels)"
    fi ;;
esac
exit $status
