"""harness/tools/ncu_banks.py: the shared-memory bank conflicts of a kernel
from Nsight Compute's per-instruction CSV (`ncu -i REP --page source --csv
--print-source sass`), on stand-in CSVs of that shape: the totals (all,
ideal, excess wavefronts), the instructions with excess sorted by it with
their multiple of ideal, --top, the kernel named; a CSV without the header
or without the shared-wavefront columns refused with exit 2 naming the file;
--metrics on ncu's raw page: the l1tex / smsp metrics of the kernel;
--opcodes: executed instructions, stall samples and stall reasons summed by
opcode (predicates and modifiers stripped), a CSV without those columns
refused.

Usage: test_ncu_banks.py SCRIPT"""
import os
import sys

from mlabtest import finish, run, say, scratch

SCRIPT = sys.argv[1]
tmp = scratch("ncu_banks")
HEAD = ('"Address","Source","Warp Stall Sampling (All Samples)","L1 Conflicts Shared N-Way",'
        '"L1 Wavefronts Shared Excessive","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal"\n')
ROWS = [
    ('0x7f01', 'STS.64 [R115+0x14800], R68', '10', '2', '131,072', '262,144', '131,072'),
    ('0x7f02', 'LDS.128 R44, [UR4+0x27000]', '3', '1', '0', '2,048', '2,048'),
    ('0x7f03', 'STS.128 [R39+UR4+0x12100], R12', '50', '4', '3,014,656', '4,194,304', '1,179,648'),
    ('0x7f04', 'FFMA R1, R2, R3, R4', '7', '0', '0', '0', '0'),
]


def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write(text)
    return p


good = write("good.csv", '"Kernel Name","void mla_decode<2, false, false>(mla_params)",\n' + HEAD +
             "".join(",".join('"%s"' % c for c in r) + "\n" for r in ROWS))
p = run([sys.executable, SCRIPT, good])
lines = p.stdout.splitlines()
say(p.returncode == 0 and "mla_decode<2, false, false>" in p.stdout, "the kernel named, exit 0", p.stdout + p.stderr)
say("shared wavefronts 4,458,496, ideal 1,312,768, excess 3,145,728 (70.6%)" in p.stdout,
    "totals over the instructions", p.stdout)
hot = [l for l in lines if l.strip().startswith("0x7f")]
say([h.split()[0] for h in hot] == ["0x7f03", "0x7f01"], "the instructions with excess, most first", p.stdout)
say(len(hot) == 2 and hot[0].split()[4] == "3.6" and hot[1].split()[4] == "2.0" and "STS.128" in hot[0],
    "each with its multiple of ideal and its SASS", p.stdout)
p = run([sys.executable, SCRIPT, good, "--top", "1"])
say(p.returncode == 0 and sum(1 for l in p.stdout.splitlines() if l.strip().startswith("0x7f")) == 1,
    "--top 1: one instruction", p.stdout)
bad = write("nocols.csv", '"Address","Source","Instructions Executed"\n"0x1","NOP","3"\n')
p = run([sys.executable, SCRIPT, bad])
say(p.returncode == 2 and "nocols.csv" in p.stderr and "SourceCounters" in p.stderr,
    "no shared-wavefront columns: exit 2 naming the file and the section", p.stderr)
junk = write("junk.csv", "hello\n")
p = run([sys.executable, SCRIPT, junk])
say(p.returncode == 2 and "junk.csv" in p.stderr and "header" in p.stderr, "no header: exit 2 naming the file", p.stderr)
raw = write("raw.csv", '"ID","Kernel Name","gpu__time_duration.sum","l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",'
            '"smsp__inst_executed.sum"\n"","","us","",""\n"0","void mla_decode<1, 0, 0>(mla_params)","90.1","2,170,727",'
            '"34870016"\n')
p = run([sys.executable, SCRIPT, "--metrics", raw])
say(p.returncode == 0 and p.stdout.split() == ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "2,170,727",
                                               "smsp__inst_executed.sum", "34870016"],
    "--metrics: the kernel's l1tex and smsp metrics, one a line (not its time)", p.stdout + p.stderr)
p = run([sys.executable, SCRIPT, "--metrics", good])
say(p.returncode == 2 and "good.csv" in p.stderr, "--metrics on a source CSV: exit 2 naming the file", p.stderr)
OHEAD = ('"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","stall_barrier",'
         '"stall_math","stall_math (Not Issued)"\n')
OROWS = [('0x1', '@!P0 PRMT R1, R2, 0x7610, R3', '30', '600', '0', '10', '9'),
         ('0x2', 'PRMT R4, R5, 0x5140, R6', '10', '200', '0', '5', '5'),
         ('0x3', 'IMAD.MOV.U32 R7, RZ, RZ, 0x8', '20', '200', '2', '3', '3'),
         ('0x4', 'BAR.SYNC.DEFER_BLOCKING 0x3, 0x80', '40', '0', '20', '0', '0')]
ops = write("ops.csv", '"Kernel Name","void mla_decode_wg<1, 1, 0, 1, 0>(mla_params)",\n' + OHEAD +
            "".join(",".join('"%s"' % c for c in r) + "\n" for r in OROWS))
p = run([sys.executable, SCRIPT, "--opcodes", ops])
out = p.stdout.splitlines()
say(p.returncode == 0 and len(out) == 4 and out[1] == "warp instructions executed 1,000: PRMT 80.0%, IMAD 20.0%",
    "--opcodes: executed by opcode, predicate and modifiers stripped, zero counts left out", p.stdout + p.stderr)
say(len(out) == 4 and out[2] == "stall samples 100: BAR 40.0%, PRMT 40.0%, IMAD 20.0%", "stall samples by opcode (ties by name)", p.stdout)
say(len(out) == 4 and out[3] == "stall reasons: barrier 55.0%, math 45.0%", "stall reasons, 'Not Issued' apart", p.stdout)
WHEAD = OHEAD.replace('"stall_barrier"', '"L1 Wavefronts Shared","stall_barrier"')
WROWS = [r[:4] + (w,) + r[4:] for r, w in zip(OROWS, ("4", "0", "12", "0"))]
opsw = write("opsw.csv", '"Kernel Name","void mla_decode_wg<1, 1, 0, 1, 0>(mla_params)",\n' + WHEAD +
             "".join(",".join('"%s"' % c for c in r) + "\n" for r in WROWS))
p = run([sys.executable, SCRIPT, "--opcodes", opsw])
out = p.stdout.splitlines()
say(p.returncode == 0 and len(out) == 5 and out[4] == "shared wavefronts 16: IMAD 75.0%, PRMT 25.0%"
    and out[3] == "stall reasons: barrier 55.0%, math 45.0%",
    "--opcodes with shared wavefronts: a fifth line by opcode (the other lines as before)", p.stdout + p.stderr)
p = run([sys.executable, SCRIPT, "--opcodes", good])
say(p.returncode == 2 and "good.csv" in p.stderr and "Instructions Executed" in p.stderr,
    "--opcodes without its columns: exit 2 naming the file and the column", p.stderr)
p = run([sys.executable, SCRIPT, "--top", "abc", good])
say(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "--top" in p.stderr,
    "--top not a count: one line, exit 2", p.stderr)
p = run([sys.executable, SCRIPT, "--top=3", "--opcodes", ops])
say(p.returncode == 0 and "PRMT 80.0%, IMAD 20.0%" in p.stdout, "--top=N as well", p.stdout + p.stderr)
p = run([sys.executable, SCRIPT, "--metrics", "--opcodes", ops])
say(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, "--metrics with --opcodes: one line, exit 2", p.stderr)
p = run([sys.executable, SCRIPT])
say(p.returncode == 2, "no file: usage, exit 2", p.stderr)
sys.exit(finish("test_ncu_banks", tmp))
