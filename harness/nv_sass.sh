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
#   bash harness/nv_sass.sh --check BUILD    BUILD's lines against the committed
#                                            variants/isa/sass-summary.txt
#   bash harness/nv_sass.sh --update BUILD   ... and rewrite the committed one
#                                            (--committed FILE: another file)
#
# The committed summary is the NVIDIA side of variants/isa/isa-summary.txt:
# the SASS each kernel of the default CUDA build has at this commit, so a
# change that moves a measured kernel says so in the same commit (CI runs
# --check on its sm_90a build), and a kernel's SASS at any commit is in
# git's history of one file. Its first line names the build it holds: nvcc's
# version (the build's CMake cache), cuobjdump's, MLAB_CUDA_ARCH,
# CMAKE_BUILD_TYPE, MLAB_ONE_LAUNCH and CMAKE_CUDA_FLAGS (the experiments'
# -DWG_... knobs). --check of another build (another compiler, an
# experiment's flags) compares nothing: it says what differs and exits 77,
# unless MLAB_REQUIRE_NV_SASS=1 (then 1).
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
# Exit codes: 0 listed / the same, 1 --diff or --check found a difference,
# 2 usage, or no GPU object or no NVIDIA kernel in BUILD, or BUILD not a
# CUDA build (--check, --update), 77 no cuobjdump, or --check of a build
# other than the committed one's.
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
# the build a summary holds (the committed file's first line): the
# compiler, the disassembler and the configuration that shape the SASS
config() {
  local c=$1/CMakeCache.txt nv
  [ -f "$c" ] || die 2 "$1: no CMakeCache.txt (a CMake build folder?)"
  grep -q '^MLAB_GPU:STRING=cuda$' "$c" || die 2 "$1: not a CUDA build (MLAB_GPU=cuda)"
  nv=$(sed -n 's/^set(CMAKE_CUDA_COMPILER_VERSION "\(.*\)")$/\1/p' "$1"/CMakeFiles/*/CMakeCUDACompiler.cmake 2> /dev/null | head -1)
  cache() { sed -n "s/^$1:[A-Z]*=//p" "$c" | head -1; }
  echo "# build: nvcc=${nv:-?} cuobjdump=$("$tool" --version 2> /dev/null | sed -n 's/.*, V\([0-9.]*\).*/\1/p' | head -1)" \
    "arch=$(cache MLAB_CUDA_ARCH) type=$(cache CMAKE_BUILD_TYPE) one_launch=$(cache MLAB_ONE_LAUNCH)" \
    "cuda_flags='$(cache CMAKE_CUDA_FLAGS)'"
}
# two summaries' lines (A, B files) compared; exit 1 on a difference
compare() {
  awk '
    FNR == NR { a[$1 " " $2] = $0; next }
    { k = $1 " " $2; if (!(k in a)) { print "only in B: " $0; d++ }
      else { if (a[k] != $0) { print "differs:   " a[k]; print "       to: " $0; d++ } else same++; delete a[k] } }
    END { for (k in a) { print "only in A: " a[k]; d++ }
          printf "nv_sass: %d kernels the same, %d differences\n", same, d + 0
          exit d > 0 }' "$1" "$2"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
committed=$(cd "$(dirname "$0")/.." && pwd)/variants/isa/sass-summary.txt
case "${1:-}" in
  --diff)
    [ $# -eq 3 ] || die 2 "usage: nv_sass.sh --diff BUILD_A BUILD_B"
    summary "$2" > "$work/a"
    summary "$3" > "$work/b"
    compare "$work/a" "$work/b" ;;
  --check | --update)
    mode=$1; shift
    [ $# -ge 1 ] && [ "${1#-}" = "$1" ] || die 2 "usage: nv_sass.sh $mode BUILD [--committed FILE]"
    build=$1; shift
    if [ $# -gt 0 ]; then
      [ $# -eq 2 ] && [ "$1" = --committed ] || die 2 "usage: nv_sass.sh $mode BUILD [--committed FILE]"
      committed=$2
    fi
    cfg=$(config "$build")
    if [ "$mode" = --check ]; then
      [ -f "$committed" ] || die 2 "no committed summary $committed (write one: nv_sass.sh --update BUILD)"
      want=$(head -1 "$committed")
      if [ "$want" != "$cfg" ]; then
        echo "nv_sass: $build is not the build $committed holds: nothing compared" >&2
        echo "  committed: ${want#\# build: }" >&2
        echo "  this one:  ${cfg#\# build: }" >&2
        [ "${MLAB_REQUIRE_NV_SASS:-0}" = 1 ] && exit 1
        exit 77
      fi
    fi
    summary "$build" > "$work/now"
    if [ "$mode" = --update ]; then
      { echo "$cfg"
        echo "# NVIDIA SASS summary of that build's kernels: harness/nv_sass.sh (fields: see there)"
        echo "# regenerate: bash harness/nv_sass.sh --update BUILD (a CUDA build configured as above)"
        cat "$work/now"; } > "$committed.tmp.$$"
      mv "$committed.tmp.$$" "$committed"
      echo "nv_sass: $(wc -l < "$work/now") kernels written to $committed"
      exit 0
    fi
    grep -v '^#' "$committed" > "$work/was" || true
    if ! compare "$work/was" "$work/now"; then
      echo "nv_sass: the kernels' SASS is not the committed one (A: $committed, B: $build);" \
        "if the change is meant: bash harness/nv_sass.sh --update $build, and say in the commit" \
        "which kernels moved and what was measured" >&2
      exit 1
    fi ;;
  *)
    [ $# -eq 1 ] && [ "${1#-}" = "$1" ] || die 2 "usage: nv_sass.sh BUILD | --diff BUILD_A BUILD_B | --check|--update BUILD [--committed FILE]"
    summary "$1" ;;
esac
