"""harness/nv_sass.sh: every instruction of a kernel listed, and two builds
told apart by their SASS. Three objects of one small CUDA source, laid out
as CMake's build folders (X/CMakeFiles/mlab_gpu.dir/k.cu.o): A and B the
same source, C differing only in the last instruction of a kernel of more
than 4096 instructions (where a listing parser keyed to four hex digits of
address would stop). nv_sass must count all of that kernel's instructions,
call A and B the same (exit 0), call A and C different and name that kernel
alone (exit 1); a folder without GPU objects and bad usage exit 2.
The committed summary's modes on those folders, each given a CMake cache
of a CUDA build: --update writes A's lines under a line naming the build
(nvcc, cuobjdump, arch, build type, one-launch, CUDA flags); --check of A
against it exits 0, of C exits 1 naming longk, of a build with other
CUDA flags compares nothing and exits 77 (1 with MLAB_REQUIRE_NV_SASS=1),
of a folder that is not a CUDA build exits 2.
Skips (77) without nvcc or cuobjdump ($MLAB_CUOBJDUMP, PATH or
/usr/local/cuda/bin).

Usage: test_nv_sass.py SCRIPT"""
import os
import re
import shutil
import sys

from mlabtest import check, finish, run, say, scratch

SCRIPT = sys.argv[1]
N = 5000  # dependent adds: past 4096 instructions

SOURCE = """
__global__ void longk(float *x)
{
    float a = x[threadIdx.x];
#pragma unroll
    for (int i = 0; i < %d; i++) asm volatile("add.f32 %%0, %%0, 0f3F800000;" : "+f"(a));
    asm volatile("add.f32 %%0, %%0, 0f%s;" : "+f"(a)); /* the last: 2.0 or 3.0 */
    x[threadIdx.x] = a;
}
__global__ void shortk(float *x) { x[threadIdx.x] = 1.f; }
"""


def tool(name, env_var=None):
    p = os.environ.get(env_var) if env_var else None
    p = p or shutil.which(name)
    if not p and os.access("/usr/local/cuda/bin/" + name, os.X_OK):
        p = "/usr/local/cuda/bin/" + name
    return p


def main():
    nvcc, cuobjdump = tool("nvcc"), tool("cuobjdump", "MLAB_CUOBJDUMP")
    if not nvcc or not cuobjdump:
        print("skipped: no nvcc or no cuobjdump")
        return 77
    tmp = scratch("nv_sass")
    env = dict(os.environ, MLAB_CUOBJDUMP=cuobjdump)
    for build, last in (("A", "40000000"), ("B", "40000000"), ("C", "40400000")):
        d = os.path.join(tmp, build, "CMakeFiles", "mlab_gpu.dir")
        os.makedirs(d)
        src = os.path.join(d, "k.cu")
        with open(src, "w") as f:
            f.write(SOURCE % (N, last))
        r = run([nvcc, "-c", "-O3", "-arch=sm_90a", "-o", os.path.join(d, "k.cu.o"), src])
        if r.returncode != 0:
            print(r.stdout + r.stderr)
            print("skipped: nvcc could not compile for sm_90a")
            shutil.rmtree(tmp, ignore_errors=True)
            return 77
    a = run(["bash", SCRIPT, os.path.join(tmp, "A")], env=env)
    lines = a.stdout.splitlines()
    say(a.returncode == 0 and len(lines) == 2, "A: two kernels listed, exit 0", a.stdout + a.stderr)
    longk = [ln for ln in lines if "longk" in ln]
    n = int(re.search(r"instrs=(\d+)", longk[0]).group(1)) if longk and "instrs=" in longk[0] else 0
    say(n > N, f"longk: every instruction counted ({n} > {N})", a.stdout)
    check(all(re.search(r"regs=\d+ stack=\d+ local=\d+ sass=[0-9a-f]{10}$", ln) for ln in lines),
          "each line: regs, stack, local and a 10-digit hash")
    same = run(["bash", SCRIPT, "--diff", os.path.join(tmp, "A"), os.path.join(tmp, "B")], env=env)
    say(same.returncode == 0 and "2 kernels the same, 0 differences" in same.stdout,
        "A against B: the same, exit 0", same.stdout + same.stderr)
    diff = run(["bash", SCRIPT, "--diff", os.path.join(tmp, "A"), os.path.join(tmp, "C")], env=env)
    named = [ln for ln in diff.stdout.splitlines() if ln.startswith("differs:")]
    say(diff.returncode == 1 and len(named) == 1 and "longk" in named[0]
        and "1 kernels the same, 1 differences" in diff.stdout,
        "A against C: longk differs (its last instruction), shortk the same, exit 1", diff.stdout + diff.stderr)
    os.makedirs(os.path.join(tmp, "empty"))
    e = run(["bash", SCRIPT, os.path.join(tmp, "empty")], env=env)
    say(e.returncode == 2 and "no GPU object" in e.stderr, "a folder without GPU objects: exit 2", e.stderr)
    for argv in ([], ["--diff", tmp], ["-x"]):
        u = run(["bash", SCRIPT] + argv, env=env)
        say(u.returncode == 2 and "usage" in u.stderr, f"usage {argv}: exit 2", u.stderr)
    nt = run(["bash", SCRIPT, os.path.join(tmp, "A")], env=dict(env, MLAB_CUOBJDUMP="/nonexistent/cuobjdump"))
    say(nt.returncode == 77, "no cuobjdump: exit 77", nt.stderr)
    committed_modes(tmp, env)
    return finish("test_nv_sass", tmp)


def cmake_cache(build, flags=""):
    """what nv_sass reads of a CMake build folder: the cache's options and
    the CUDA compiler's version"""
    with open(os.path.join(build, "CMakeCache.txt"), "w") as f:
        f.write("MLAB_GPU:STRING=cuda\nMLAB_CUDA_ARCH:STRING=90a\nCMAKE_BUILD_TYPE:STRING=Release\n"
                f"MLAB_ONE_LAUNCH:BOOL=OFF\nCMAKE_CUDA_FLAGS:STRING={flags}\n")
    d = os.path.join(build, "CMakeFiles", "3.99.0")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "CMakeCUDACompiler.cmake"), "w") as f:
        f.write('set(CMAKE_CUDA_COMPILER_VERSION "13.0.88")\n')


def committed_modes(tmp, env):
    """--update and --check against a committed summary (here a scratch file)"""
    for b in "ABC":
        cmake_cache(os.path.join(tmp, b))
    summ = os.path.join(tmp, "sass-summary.txt")
    up = run(["bash", SCRIPT, "--update", os.path.join(tmp, "A"), "--committed", summ], env=env)
    lines = open(summ).read().splitlines() if os.path.exists(summ) else []
    say(up.returncode == 0 and len(lines) == 5
        and lines[0].startswith("# build: nvcc=13.0.88 cuobjdump=") and "arch=90a type=Release" in lines[0]
        and "one_launch=OFF cuda_flags=''" in lines[0] and sum(not ln.startswith("#") for ln in lines) == 2,
        "--update: the build's line, two comment lines, A's two kernels", up.stdout + up.stderr + "\n".join(lines))
    same = run(["bash", SCRIPT, "--check", os.path.join(tmp, "A"), "--committed", summ], env=env)
    say(same.returncode == 0 and "2 kernels the same, 0 differences" in same.stdout,
        "--check A: the committed SASS, exit 0", same.stdout + same.stderr)
    moved = run(["bash", SCRIPT, "--check", os.path.join(tmp, "C"), "--committed", summ], env=env)
    named = [ln for ln in moved.stdout.splitlines() if ln.startswith("differs:")]
    say(moved.returncode == 1 and len(named) == 1 and "longk" in named[0] and "--update" in moved.stderr,
        "--check C: longk moved, exit 1, how to update said", moved.stdout + moved.stderr)
    cmake_cache(os.path.join(tmp, "B"), "-DWG_MX_KB=4")
    other = run(["bash", SCRIPT, "--check", os.path.join(tmp, "B"), "--committed", summ], env=env)
    say(other.returncode == 77 and "nothing compared" in other.stderr and "-DWG_MX_KB=4" in other.stderr,
        "--check of a build with other CUDA flags: nothing compared, exit 77", other.stdout + other.stderr)
    req = run(["bash", SCRIPT, "--check", os.path.join(tmp, "B"), "--committed", summ],
              env=dict(env, MLAB_REQUIRE_NV_SASS="1"))
    say(req.returncode == 1, "... exit 1 with MLAB_REQUIRE_NV_SASS=1", req.stdout + req.stderr)
    os.remove(os.path.join(tmp, "A", "CMakeCache.txt"))
    nc = run(["bash", SCRIPT, "--check", os.path.join(tmp, "A"), "--committed", summ], env=env)
    say(nc.returncode == 2 and "CMakeCache.txt" in nc.stderr, "--check of a folder without a CMake cache: exit 2",
        nc.stderr)
    after = open(summ).read().splitlines()
    say(after == lines, "--check never writes the committed file", "\n".join(after))


sys.exit(main())
