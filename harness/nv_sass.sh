#!/usr/bin/env bash
# nv_sass.sh: the NVIDIA kernels' SASS, one line a kernel, and whether two
# builds' kernels are the same instructions (the NVIDIA side of
# harness/amd_isa.sh). Used to check that an edit meant to leave a measured
# kernel alone did (papers/perf-notes.md: every such edit since v20).
#
#   bash harness/nv_sass.sh BUILD            one line per (object, kernel) of
#                                            BUILD's GPU objects (CMake's
#                                            */mlab_gpu.dir/**/*.o)
#   bash harness/nv_sass.sh --diff A B       the two builds' lines compared:
#                                            kernels whose SASS differs, and
#                                            kernels in one build only
#
# A line: OBJECT KERNEL instrs=N regs=R stack=S local=L sass=MD5, where N
# counts every instruction of the kernel's listing (cuobjdump -sass; the
# whole listing, however long: an address pattern of four hex digits would
# stop at the 4096th) and MD5 (10 hex digits) hashes its instructions
# without their addresses, so a kernel moved in its object but unchanged
# hashes the same; branch targets are part of the instructions, so code
# moved inside a kernel does not. Kernels are matched by object and
# mangled name: a template argument added to a kernel renames it
# (--diff then lists it as removed and added; compare the sass= fields).
# cuobjdump: $MLAB_CUOBJDUMP, else on PATH, else /usr/local/cuda/bin; its
# -sass runs nvdisasm, which must be beside it or on PATH (PyPI's
# nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm put both in nvidia/cu13/bin).
# Exit codes: 0 listed / the same, 1 --diff found a difference, 2 usage, or
# no GPU object or no NVIDIA kernel in BUILD, 77 no cuobjdump.
set -euo pipefail
die() { echo "nv_sass.sh: $2" >&2; exit "$1"; }
tool=${MLAB_CUOBJDUMP:-$(command -v cuobjdump || true)}
[ -n "$tool" ] || { [ -x /usr/local/cuda/bin/cuobjdump ] && tool=/usr/local/cuda/bin/cuobjdump; }
[ -n "$tool" ] && [ -x "$tool" ] || die 77 "no cuobjdump (set MLAB_CUOBJDUMP, or put the CUDA toolkit's bin on PATH)"

# the summary lines of one build folder, sorted
summary() {
  local objs
  objs=$(find "$1" -path '*mlab_gpu.dir*' -name '*.o' 2> /dev/null | sort)
  [ -n "$objs" ] || die 2 "$1: no GPU object (*/mlab_gpu.dir/*.o): a CUDA build folder?"
  local o b
  for o in $objs; do
    b=${o#"$1"/}
    b=${b#*mlab_gpu.dir/}
    # registers, stack and local bytes of each function
    { "$tool" -res-usage "$o" 2> /dev/null || true; } | awk '
      /Function [^:]+:/ { f = $2; sub(/:$/, "", f) }
      /REG:/ { r = s = l = "?"
               for (i = 1; i <= NF; i++) { split($i, kv, ":")
                 if (kv[1] == "REG") r = kv[2]; if (kv[1] == "STACK") s = kv[2]; if (kv[1] == "LOCAL") l = kv[2] }
               print f, r, s, l }' > "$work/res"
    { "$tool" -sass "$o" 2> /dev/null || true; } | awk -v B="$b" -v W="$work" '
      BEGIN { k = 0 }
      function flush() { if (f != "") { print B, f, n > (W "/body." k); k++ } }
      /Function : / { flush(); f = $3; n = 0; next }
      /^[ \t]+\/\*[0-9a-f][0-9a-f][0-9a-f][0-9a-f]+\*\// {
        sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, ""); sub(/[ \t]*\/\*.*$/, ""); sub(/[ \t]*;[ \t]*$/, "")
        n++; print > (W "/ins." k) }
      END { flush() }'
    local i=0
    while [ -f "$work/body.$i" ]; do
      local ob fn ni md r s l
      read -r ob fn ni < "$work/body.$i"
      md=$( { [ -f "$work/ins.$i" ] && cat "$work/ins.$i"; } | md5sum | cut -c1-10)
      read -r r s l < <(awk -v F="$fn" '$1 == F { print $2, $3, $4; exit }' "$work/res"; echo "? ? ?")
      echo "$ob $fn instrs=$ni regs=$r stack=$s local=$l sass=$md"
      rm -f "$work/body.$i" "$work/ins.$i"
      i=$((i + 1))
    done
  done | sort > "$work/sum"
  [ -s "$work/sum" ] || die 2 "$1: no NVIDIA kernel listed from its GPU objects (a HIP build? or no nvdisasm beside cuobjdump or on PATH: cuobjdump -sass runs it)"
  cat "$work/sum"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "${1:-}" = "--diff" ]; then
  [ $# -eq 3 ] || die 2 "usage: nv_sass.sh --diff BUILD_A BUILD_B"
  summary "$2" > "$work/a"
  summary "$3" > "$work/b"
  awk '
    FNR == NR { a[$1 " " $2] = $0; next }
    { k = $1 " " $2; if (!(k in a)) { print "only in B: " $0; d++ }
      else { if (a[k] != $0) { print "differs:   " a[k]; print "       to: " $0; d++ } else same++; delete a[k] } }
    END { for (k in a) { print "only in A: " a[k]; d++ }
          printf "nv_sass: %d kernels the same, %d differences\n", same, d + 0
          exit d > 0 }' "$work/a" "$work/b"
else
  [ $# -eq 1 ] && [ "${1#-}" = "$1" ] || die 2 "usage: nv_sass.sh BUILD | --diff BUILD_A BUILD_B"
  summary "$1"
fi
