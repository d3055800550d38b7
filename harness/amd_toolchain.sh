#!/usr/bin/env bash
# amd_toolchain.sh [DIR]: an AMD GPU compiler for gfx942 (MI300X/MI325X) and
# gfx950 (MI355X) without ROCm, from Debian and PyPI packages. Idempotent.
#
# The compiler is upstream clang/LLD 22 with the AMDGPU back end, as shipped
# by PyPI's `ziglang` wheel (`zig clang` is a plain clang driver). HIP headers
# and device libraries come from Debian's `hipcc` package (HIP 5.2), clang's
# HIP wrapper headers from libclang-common-19-dev, the offload bundler from
# clang-tools-19. Debian 12's own hipcc (clang 15) knows neither gfx942 nor
# gfx950 well enough: it stops at gfx940 and has no gfx950 at all.
#
# DIR (default build/amd-toolchain, or $MLAB_AMD_TOOLCHAIN_DIR) receives:
#   venv/                   python venv with ziglang (clang/LLD 22)
#   bin/lld                 clang's amdgcn link step runs `lld -flavor gnu`;
#                           Debian's lld 14 has no elf64_amdgpu, so this
#                           forwards to zig's LLD 22
#   bin/clang-offload-bundler   Debian's clang-offload-bundler-19
#   devlibs/                Debian's device-library bitcode, plus the
#                           oclc_isa_version_942/950.bc it lacks (each is one
#                           i32 constant: 9402, 9500)
#   bin/hipcc-pypi          a hipcc stand-in: `hipcc-pypi --offload-arch=gfx950
#                           [-S|-c] ... [--cuda-device-only]` (one arch a call)
#   env                     ZIG, RESDIR, DEVLIBS, TOOLS, for scripts
# The workarounds hipcc-pypi applies, and why:
#   -resource-dir RESDIR    zig ships clang's builtin headers without the HIP
#                           wrappers (__clang_hip_runtime_wrapper.h); Debian's
#                           clang 19 headers have them
#   -D__AMDGCN_WAVEFRONT_SIZE=64   clang 22 dropped the macro; HIP 5.2's
#                           warpSize needs it (gfx9 is wave64)
#   -mcode-object-version=5 the 5.2 device libraries have no ABI-6 control file
#   hip.bc, oclc_daz_opt_off.bc    clang 22 no longer links them; HIP 5.2's
#                           __syncthreads and ocml need them
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
T=${1:-${MLAB_AMD_TOOLCHAIN_DIR:-$root/build/amd-toolchain}}
ZIGLANG_VERSION=0.17.1

. "$root/harness/apt_need.sh"
mlab_apt_need amd_toolchain hipcc libclang-common-19-dev clang-tools-19 python3-venv

mkdir -p "$T/bin" "$T/devlibs"
if ! "$T/venv/bin/python3" -c "import ziglang" 2>/dev/null; then
  echo "amd_toolchain: ziglang==$ZIGLANG_VERSION (clang/LLD 22) into $T/venv" >&2
  python3 -m venv "$T/venv"
  "$T/venv/bin/python3" -m pip install -q "ziglang==$ZIGLANG_VERSION"
fi
ZIG=$("$T/venv/bin/python3" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
[ -x "$ZIG" ] || { echo "amd_toolchain: no zig binary at $ZIG" >&2; exit 1; }

RESDIR=/usr/lib/llvm-19/lib/clang/19
[ -f "$RESDIR/include/__clang_hip_runtime_wrapper.h" ] ||
  { echo "amd_toolchain: no HIP wrapper headers in $RESDIR (libclang-common-19-dev)" >&2; exit 1; }
BUNDLER=/usr/bin/clang-offload-bundler-19
[ -x "$BUNDLER" ] || { echo "amd_toolchain: no $BUNDLER (clang-tools-19)" >&2; exit 1; }
BC=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
[ -f "$BC/ocml.bc" ] || { echo "amd_toolchain: no device libraries in $BC (hipcc)" >&2; exit 1; }

cat >"$T/bin/lld.tmp" <<EOF
#!/bin/sh
# clang calls "lld -flavor gnu ARGS" for the amdgcn link: LLD 22 from ziglang
[ "\$1" = "-flavor" ] && shift 2
exec "$ZIG" ld.lld "\$@"
EOF
chmod +x "$T/bin/lld.tmp" && mv "$T/bin/lld.tmp" "$T/bin/lld"
ln -sf "$BUNDLER" "$T/bin/clang-offload-bundler"

for f in "$BC"/*.bc; do ln -sf "$f" "$T/devlibs/"; done
for v in 942:9402 950:9500; do
  out=$T/devlibs/oclc_isa_version_${v%%:*}.bc
  [ -f "$out" ] && continue
  printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' \
    "${v#*:}" >"$T/isa_${v%%:*}.ll"
  "$ZIG" clang --target=amdgcn-amd-amdhsa -nogpulib -c -emit-llvm "$T/isa_${v%%:*}.ll" -o "$out.tmp"
  mv "$out.tmp" "$out"
done

cat >"$T/env" <<EOF
ZIG=$ZIG
RESDIR=$RESDIR
DEVLIBS=$T/devlibs
TOOLS=$T/bin
EOF

# hipcc stand-in. A full compile (host + device, -c) passes the device
# libraries as --hip-device-lib= (the -Xclang form would reach the host
# compile too); a device-only compile (--cuda-device-only, for -S listings)
# links them as builtin bitcode, as hipcc does.
cat >"$T/bin/hipcc-pypi.tmp" <<EOF
#!/bin/sh
# hipcc-pypi: hipcc stand-in on clang 22 (ziglang) with Debian's HIP 5.2
# headers and device libraries; written by harness/amd_toolchain.sh.
set -eu
arch= devonly=0
for a in "\$@"; do
  case "\$a" in
    --offload-arch=*) arch=\${a#--offload-arch=} ;;
    --cuda-device-only) devonly=1 ;;
    --version) exec "$ZIG" clang --version ;;
  esac
done
[ -n "\$arch" ] || { echo "hipcc-pypi: give one --offload-arch=gfxNNN" >&2; exit 2; }
case "\$arch" in gfx942|gfx950) ;; *) echo "hipcc-pypi: \$arch unsupported (gfx942, gfx950)" >&2; exit 2 ;; esac
libs=
if [ \$devonly = 1 ]; then
  for f in hip oclc_daz_opt_off; do libs="\$libs -Xclang -mlink-builtin-bitcode -Xclang $T/devlibs/\$f.bc"; done
  libs="\$libs --rocm-device-lib-path=$T/devlibs"
else
  for f in ocml ockl hip oclc_daz_opt_off oclc_unsafe_math_off oclc_finite_only_off \\
      oclc_correctly_rounded_sqrt_on oclc_wavefrontsize64_on oclc_isa_version_\${arch#gfx} oclc_abi_version_500; do
    libs="\$libs --hip-device-lib=\$f.bc"
  done
  libs="\$libs --hip-device-lib-path=$T/devlibs"
fi
exec "$ZIG" clang --target=x86_64-linux-gnu -x hip --rocm-path=/usr -resource-dir "$RESDIR" \\
  \$libs -mcode-object-version=5 -D__AMDGCN_WAVEFRONT_SIZE=64 -B "$T/bin" "\$@"
EOF
chmod +x "$T/bin/hipcc-pypi.tmp" && mv "$T/bin/hipcc-pypi.tmp" "$T/bin/hipcc-pypi"

"$T/bin/hipcc-pypi" --offload-arch=gfx950 --version | head -1 >&2
echo "$T/bin/hipcc-pypi"
