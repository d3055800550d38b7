"""harness/nv_sass.sh: every instruction of a kernel listed, and two builds
told apart by their SASS. Three objects of one small CUDA source, laid out
as CMake's build folders (X/CMakeFiles/mlab_gpu.dir/k.cu.o): A and B the
same source, C differing only in the last instruction of a kernel of more
than 4096 instructions (where a listing parser keyed to four hex digits of
address would stop). nv_sass must count all of that kernel's instructions,
call A and B the same (exit 0), call A and C different and name that kernel
alone (exit 1); a folder without GPU objects and bad usage exit 2.
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
    return finish("test_nv_sass", tmp)


sys.exit(main())
