#!/usr/bin/env python3
"""test_trace_summary.py: harness/tools/trace_summary.py sums up a -DMLAB_TRACE log.

Pins, on a synthetic trace with known times: phases are reported in us from
the first kernel's start (amax end 2.0, tile0 median 5.0), the time a tile
after the first ((60 - 6) / 15 = 3.6 us), the loop-end gap of two blocks on
one SM (10.0) and the count of SMs holding one block, the combine's end and
the call's span next to the event sample, the end phase (each block's end
minus its loop end), the P.V drain time where the blocks
recorded one (an eighth number), the a8w8 Q path (TQ lines: grid wait done,
amax known; no grid wait where each block took the amax itself), the unit
known (TK lines of the wgmma decodes: the producer's tok_kv in) and the
correlation of the blocks' first tile landed (TK) with their loop end, the
combine's inside (TE lines: lse back, weights stored) and the Q
quantized where recorded; fp8_wgmma's phase cycles a
tile (TW lines of -DMLAB_WG_PROF, and mxfp4_wgmma's producer's TP lines); the
barrier merge's phases (TC lines of kind 3); --merge, a row a split call's
merge by the combine; several variants in one log are
reported separately, each headed by the call's shape where the runner printed
it (query rows, longest sequence, splits, the variant's name); --table, one
Markdown row a run over several logs; a _qrow run whose TQ lines recorded no
Q row in (all 0) says so; a log without TRACE lines, one that cannot be read
or holds a malformed trace line (a TRACE line cut short before its sample
among them) exits non-zero with one line that names the file (and the
line), printing nothing else.
Usage: test_trace_summary.py PATH/TO/trace_summary.py   Exit 0 pass, 1 fail.
"""
import os
import subprocess
import sys

from mlabtest import FAILURES, check, finish, scratch

LOG = """TRACE variant 1 last cold sample 75.00 us query rows 4 longest 1024 splits 16 name fp8
TA 0 1000 3000
TD 0 5 16 2000 4000 6000 60000 61000
TD 1 5 16 2100 4100 5000 70000 71000
TD 2 7 16 2000 4000 4000 64000 65000
TC 0 61000 72000 74000 73200
TE 0 72300 72900
TQ 0 2500 3500
TQ 1 2600 3700
TK 0 1500 3500
TK 1 1700 0
TK 2 1600 3900
TRACE variant 0 last cold sample 99.00 us
TD 0 5 16 2000 0 6000 60000 61000
TRACE variant 4 last cold sample 20.00 us
TD 0 5 1 1000 0 3000 5000 9000 7000
TD 1 6 1 1000 0 3000 5000 9000 8000
TC 0 7500 8000 8600 3
TC 1 7700 8000 8800 3
TRACE variant 7 last cold sample 150.00 us query rows 64 longest 8192 splits 2
TW 0 tiles 32 prologue 9000 wait 3200 qk 12800 softmax 64000 pv 19200 epilogue 5000 all 113200
TW 1 tiles 32 prologue 11000 wait 6400 qk 16000 softmax 70400 pv 22400 epilogue 6000 all 132200
TRACE variant 10 last cold sample 120.00 us query rows 64 longest 8192 splits 2
TW 0 tiles 64 prologue 8000 wait 96000 qk 18560 softmax 43200 pv 26240 epilogue 6500 all 200000
TP 0 tiles 64 rawwait 17280 emptywait 2240 convert 112640 sync 57600
TP 1 tiles 64 rawwait 19200 emptywait 2560 convert 115200 sync 57600
TRACE variant 5 last cold sample 12.00 us query rows 4 longest 1024 splits 16 name fp8_xcd
TD 0 3 1 1000 3500 4000 5000 6000
TQ 0 0 3000
TRACE variant 12 last cold sample 11.00 us query rows 4 longest 1024 splits 16 name fp8_wgmma_qrow
TD 0 3 1 1000 4500 4800 6000 7000
TQ 0 2800 3900
TRACE variant 11 last cold sample 30.00 us query rows 4 longest 8192 splits 32 name bf16_wgmma
TD 0 1 4 1796447394698701000 1796447394698702000 1796447394698703000 1796447394698710000 1796447394698711000
TD 1 2 4 1796447394698701000 1796447394698702000 1796447394698703000 1796447394698710300 1796447394698711300
TD 2 3 4 1796447394698701000 1796447394698702000 1796447394698703000 1796447394698710100 1796447394698711100
TK 0 1796447394698701500 1796447394698703000
TK 1 1796447394698701500 1796447394698703100
TK 2 1796447394698701500 1796447394698703200
"""


def main():
    script = sys.argv[1]
    tmp = scratch("trace")
    log = os.path.join(tmp, "trace.log")
    with open(log, "w") as f:
        f.write(LOG)
    r = subprocess.run([sys.executable, script, log], capture_output=True, text=True)
    out = r.stdout
    check(r.returncode == 0, f"exit {r.returncode} on a good log: {r.stderr}")
    check(out.count("TRACE variant") == 8, "one block of lines per variant")
    wg = out.split("TRACE variant 7")[1] if "TRACE variant 7" in out else ""
    check("qk       min 400.0 med 450.0 max 500.0" in wg and "softmax  min 2000.0" in wg,
          "fp8_wgmma's phase cycles a tile (TW lines: qk 12800 / 32 = 400)")
    check("prologue min 9000.0 med 10000.0 max 11000.0" in wg, "prologue cycles a block")
    check("wgmma consumer" not in out.split("TRACE variant 7")[0], "no wgmma phases where none were recorded")
    mx = out.split("TRACE variant 10")[1] if "TRACE variant 10" in out else ""
    check("convert   min 1760.0 med 1780.0 max 1800.0" in mx and "rawwait   min 270.0 med 285.0 max 300.0" in mx,
          "mxfp4_wgmma's producer cycles a tile (TP lines: convert 112640 / 64 = 1760)")
    check("mxfp4 producer" not in wg.split("TRACE variant 10")[0], "no producer phases where none were recorded")
    check("query rows 4 longest 1024 splits 16 name fp8" in out and "sample 75.0 us)" in out,
          "the call's shape in its header, the sample still read where the shape is given")
    check("end min 2.0 med 2.0 max 2.0" in out, "amax end at 2.0 us from the first start")
    check("tile0 ready   min 3.0 med 4.0 max 5.0" in out, "tile0 times from the first start")
    check("us a tile after the first: min 3.6" in out, "time a tile (60 - 6) / 15 = 3.6 us")
    check("SMs with two blocks: 1, loop-end gap min 10.0" in out, "loop-end gap of the SM with two blocks")
    check("SMs with one: 1" in out, "the SM with one block is counted")
    check("end min 73.0" in out, "combine end")
    check("wait done min 71.0 med 71.0 max 71.0 | lse back min 71.3 med 71.3 max 71.3 | weights stored min 71.9"
          in out and "weights known min 72.2" in out,
          "inside the combine (TE lines: lse back 72300 ns, weights stored 72900; TC's weights known 73200)")
    check("lse back" not in out.split("TRACE variant 0")[1], "no lse back where none was recorded")
    check("span, first start to last end: 73.0 us (event-timed sample 75.0 us)" in out, "span and sample")
    v0 = out.split("TRACE variant 0")[1].split("TRACE variant 4")[0] if "TRACE variant 0" in out else ""
    check("Q quantized" not in v0, "no Q quantization where none was recorded")
    check("Q quantized   min 3.0" in out.split("TRACE variant 0")[0], "the Q quantized where it was recorded")
    check("unit known    min 0.5 med 0.6 max 0.7" in out.split("TRACE variant 0")[0]
          and "tile0 landed  min 2.5 med 2.7 max 2.9" in out.split("TRACE variant 0")[0]
          and "unit known" not in v0,
          "the unit known and the first tile landed (TK lines: 1500..1700 ns, 3500 and 3900 (0: none),"
          " 1000 the first start), only where recorded")
    check("Q path        grid wait done min 1.5 med" in out and "max 1.6 | amax known min 2.5" in out,
          "the a8w8 Q path: grid wait done and amax known (TQ lines)")
    check("Q path" not in v0, "no Q path where none was recorded")
    v4 = out.split("TRACE variant 4")[1].split("TRACE variant 7")[0] if "TRACE variant 4" in out else ""
    check("barrier merge arrived min 6.5 med 6.6 max 6.7 | passed min 7.0 med 7.0 max 7.0 | merged min 7.6" in v4
          and "combine " not in v4, "the barrier merge's phases (TC lines of kind 3), not read as a combine")
    check("P.V drained   min 6.0 med 6.5 max 7.0" in out.split("TRACE variant 4")[1],
          "the epilogue's P.V drain time where the blocks recorded it")
    check("P.V drained" not in out.split("TRACE variant 4")[0], "no drain time where none was recorded")
    check("end phase     min 1.0 med 1.0 max 1.0" in out.split("TRACE variant 0")[0]
          and "end phase     min 4.0 med 4.0 max 4.0" in v4,
          "the end phase, each block's end minus its loop end (61000 - 60000 ns = 1.0 us; 9000 - 5000 = 4.0)")
    v5 = out.split("TRACE variant 5")[1] if "TRACE variant 5" in out else ""
    check("Q path        grid wait done none (no amax pass) | amax known min 2.0" in v5,
          "the Q path of blocks that took the amax themselves (MLAB_AMAX=inline: no grid wait recorded)")
    v12 = out.split("TRACE variant 12")[1] if "TRACE variant 12" in out else ""
    check("Q path        Q row in min 1.8 med 1.8 max 1.8 | heads' amax known min 2.9" in v12
          and "grid wait" not in v12 and "Q path        grid wait done none" in v5.split("TRACE variant 12")[0],
          "the _qrow decodes' Q path (no pass: TQ's values are the Q row in and its heads' amax known)")
    # a _qrow run whose TQ lines recorded no Q row in (0): the amax known alone, no traceback
    q0 = os.path.join(tmp, "qrow0.log")
    with open(q0, "w") as f:
        f.write("TRACE variant 12 last cold sample 11.00 us query rows 4 longest 1024 splits 16 name fp8_wgmma_qrow\n"
                "TD 0 3 1 1000 4500 4800 6000 7000\nTQ 0 0 3900\n")
    r = subprocess.run([sys.executable, script, q0], capture_output=True, text=True)
    check(r.returncode == 0 and "Q path        Q row in none (not recorded) | heads' amax known min 2.9" in r.stdout,
          f"a _qrow run without its Q row in (TQ 0): exit {r.returncode}, {r.stdout[-200:]!r} {r.stderr[-300:]!r}")
    v11 = out.split("TRACE variant 11")[1] if "TRACE variant 11" in out else ""
    check("loop end against first tile landed: correlation 0.33 over 3 blocks" in v11
          and "correlation" not in out.split("TRACE variant 11")[0],
          "the blocks' loop ends against their first tiles' landing (TK: 3.0, 3.1, 3.2 us; loop ends 10.0, 10.3,"
          " 10.1: correlation 0.327, from %globaltimer's ns since 1970, which as floats keep 256 ns steps), only"
          " over three blocks or more (the fp8 run has two with a landing)")
    # --table: one Markdown row a variant's run, medians over blocks (the fp8
    # run: amax end 2.0, decode start 1.0, unit known 0.6, Q path 1.55 / 2.6, tile0 landed 2.7, Q 3.0, tile0 4.0,
    # loop end 63.0, block end 64.0, end phase 1.0, combine 71.0 / 73.0), over
    # every log given, under one header
    r = subprocess.run([sys.executable, script, "--table", log, log], capture_output=True, text=True)
    rows = r.stdout.splitlines()
    check(r.returncode == 0 and rows[0].startswith("| case (splits) | variant | amax pass end | decode start |")
          and rows[1].startswith("| --- | --- | ---: |") and len(rows) == 2 + 2 * 8,
          f"--table: a header and a row a run of each log ({len(rows)} lines)")
    fp8_row = "| 4 x 1024 (16) | fp8 | 2.0 | 1.0 | 0.6 | 1.6 | 2.6 | 3.0 | 2.7 | 4.0 | 63.0 | 64.0 | 1.0 | 71.0 | 73.0 | 75.00 |"
    check(fp8_row in rows,
          "--table: the fp8 run's medians, us from the first kernel's start")
    check("| - | variant 4 | - | 0.0 | - | - | - | - | - | 2.0 | 4.0 | 8.0 | 4.0 | - | - | 20.00 |" in rows,
          "--table: a run without a combine (the barrier merge's lines are not one), its shape unnamed")
    check("| 64 x 8192 (2) | variant 10 | - | - | - | - | - | - | - | - | - | - | - | - | - | 120.00 |" in rows,
          "--table: a run of phase cycles only")
    # --merge: one row a run with a combine (the barrier merge's run and the
    # runs without a combine are left out): the last decode block's end (71000
    # ns, 70.0 us from the first start), then the combine's medians and spans
    r = subprocess.run([sys.executable, script, "--merge", log], capture_output=True, text=True)
    rows = r.stdout.splitlines()
    check(r.returncode == 0 and rows[0].startswith("| case (splits) | variant | last decode block end |")
          and len(rows) == 3 and rows[2] == "| 4 x 1024 (16) | fp8 | 70.0 | 71.0 | 71.3 | 72.2 | 73.0 | 0.3 | 0.8 |",
          f"--merge: the split call's merge, one row ({rows})")
    r = subprocess.run([sys.executable, script, log, log], capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout.count(f"== {log}") == 2, "two logs summed up in turn, each headed by its path")
    # bad input: one line naming the file (and the line), exit 1, nothing on stdout
    short = os.path.join(tmp, "short.log")
    with open(short, "w") as f:
        f.write("TRACE variant 1 last cold sample 5.00 us\nTD 0 5 1\n")
    notnum = os.path.join(tmp, "notnum.log")
    with open(notnum, "w") as f:
        f.write("TRACE variant 1 last cold sample 5.00 us\nTQ 0 x 3000\n")
    # a TRACE line cut short (before its sample): an error, not its blocks joined to the run before
    trace = os.path.join(tmp, "trace_short.log")
    with open(trace, "w") as f:
        f.write("TRACE variant 1 last cold sample 5.00 us\nTD 0 5 1 1000 0 3000 5000 9000\n"
                "TRACE variant 2 last\nTD 0 5 1 1000 0 3000 6000 9500\n")
    for args, want in (([short], "short.log:2: a malformed TD line"),
                       ([trace], "trace_short.log:3: a malformed TRACE line"),
                       (["--table", log, notnum], "notnum.log:2: a malformed TQ line"),
                       ([os.path.join(tmp, "nosuch.log")], "nosuch.log: cannot read")):
        r = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        check(r.returncode == 1 and want in r.stderr and len(r.stderr.strip().splitlines()) == 1 and not r.stdout,
              f"{want}: exit {r.returncode}, {r.stderr.strip()!r}, stdout {r.stdout[:60]!r}")
    bad = os.path.join(tmp, "empty.log")
    with open(bad, "w") as f:
        f.write("mlabench: nothing traced\n")
    r = subprocess.run([sys.executable, script, bad], capture_output=True, text=True)
    check(r.returncode != 0 and "empty.log" in r.stderr and "MLAB_TRACE" in r.stderr,
          f"a log without TRACE lines: exit {r.returncode}, {r.stderr.strip()}")
    if FAILURES:
        print(out)
    return finish("test_trace_summary", tmp)


if __name__ == "__main__":
    sys.exit(main())
