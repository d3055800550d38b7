#!/usr/bin/env python3
"""trace_summary.py: sum up the phase trace of a -DMLAB_TRACE build.

Usage: mlabench run ... 2> trace.log; python3 harness/tools/trace_summary.py trace.log
       python3 harness/tools/trace_summary.py --table trace1.log [trace2.log ...]

A trace build (cmake -DCMAKE_CUDA_FLAGS=-DMLAB_TRACE, NVIDIA only) prints,
after each variant's cold samples, one line per block of the last cold call
(variants/runner.hip; %globaltimer, ns):
  TRACE variant ID last cold sample US us [query rows N longest L splits S name V]
  TA block start end                                  (Q amax pass, a8w8)
  TD block smid tiles start amax_wait tile0 loop_end end [drained]   (decode;
     drained: thread 0 past its last P.V result, in the epilogue; the wgmma
     decodes' consumer 0: amax_wait is its first unit's Q stored ("Q
     quantized"), loop_end its last unit's, tiles the block's)
  TC block start wait_done end 1                       (split combine)
  TC block synced weights data_read 2                  (cluster merge, by decode block)
  TC block arrived passed merged 3                     (barrier merge, by decode block)
  TQ block grid_wait_done amax_known                   (a8w8 decode: before the Q quantization)
  TW block tiles T prologue P wait W qk Q softmax S pv V epilogue E all A
                                                       (fp8_wgmma, -DMLAB_WG_PROF: clock64
                                                        cycles of thread 0's consumer)
  TP block tiles T rawwait R emptywait E convert C sync S
                                                       (mxfp4_wgmma, -DMLAB_WG_PROF: cycles
                                                        of producer 0's thread 0, T its
                                                        own tiles)
For each variant this prints, in us from the call's first kernel start: each
phase's min / median / max over blocks, the end phase (each block's end
minus its own loop end, the phase perf-notes v25-v26 followed), the time a
tile after the first, the gap between the loop ends of the two blocks
sharing an SM, and the span of the call next to the event-timed sample; and for TW lines each phase's
cycles a tile (prologue and epilogue: a block) over blocks.
"""
import collections
import re
import statistics
import sys


def q(v):
    v = sorted(v)
    return f"min {v[0]:.1f} med {statistics.median(v):.1f} max {v[-1]:.1f}"


def report(run):
    a, d, c = run["A"], list(run["D"].values()), list(run["C"].values())
    w = [x for x in run.get("W", {}).values() if x["tiles"] > 0]
    if w:
        print(f"  wgmma consumer phases, cycles a tile over {len(w)} blocks:")
        for k in ("wait", "qk", "softmax", "pv"):
            print(f"    {k:8s} {q([x[k] / x['tiles'] for x in w])}")
        print(f"    prologue {q([x['prologue'] for x in w])} | epilogue {q([x['epilogue'] for x in w])} (a block)")
    pw = [x for x in run.get("P", {}).values() if x["tiles"] > 0]
    if pw:
        print(f"  mxfp4 producer phases, cycles a tile over {len(pw)} blocks:")
        for k in ("rawwait", "emptywait", "convert", "sync"):
            print(f"    {k:9s} {q([x[k] / x['tiles'] for x in pw])}")
    if not d:
        print("  (no decode blocks recorded)")
        return
    o = min([x[0] for x in a.values()] + [x[2] for x in d])
    us = lambda t: (t - o) / 1e3
    if a:
        print(f"  amax          start {q([us(x[0]) for x in a.values()])} | end {q([us(x[1]) for x in a.values()])}")
    print(f"  decode start  {q([us(x[2]) for x in d])}")
    qp = list(run.get("Q", {}).values())
    if qp:
        gw = [us(x[0]) for x in qp if x[0]]  # none where each block took the amax itself (MLAB_AMAX=inline)
        print(f"  Q path        grid wait done {q(gw) if gw else 'none (no amax pass)'} | amax known {q([us(x[1]) for x in qp])}")
    if any(x[3] for x in d):
        print(f"  Q quantized   {q([us(x[3]) for x in d if x[3]])}")
    print(f"  tile0 ready   {q([us(x[4]) for x in d])}")
    print(f"  loop end      {q([us(x[5]) for x in d])}")
    if all(len(x) > 7 for x in d):
        print(f"  P.V drained   {q([us(x[7]) for x in d])}")
    print(f"  block end     {q([us(x[6]) for x in d])}")
    print(f"  end phase     {q([(x[6] - x[5]) / 1e3 for x in d])} (block end - loop end, a block's own)")
    rates = [(x[5] - x[4]) / 1e3 / (x[1] - 1) for x in d if x[1] > 1]
    if rates:
        print(f"  us a tile after the first: {q(rates)}")
    by_sm = collections.defaultdict(list)
    for x in d:
        by_sm[x[0]].append(us(x[5]))
    gaps = [max(v) - min(v) for v in by_sm.values() if len(v) == 2]
    if gaps:
        solo = sum(1 for v in by_sm.values() if len(v) == 1)
        print(f"  SMs with two blocks: {len(gaps)}, loop-end gap {q(gaps)}; SMs with one: {solo}")
    k = [x for x in c if x[3] == 2]  # the cluster merge's phases, recorded by the decode blocks
    b = [x for x in c if x[3] == 3]  # the barrier merge's, likewise
    c = [x for x in c if x[3] not in (2, 3)]
    if c:
        print(f"  combine       start {q([us(x[0]) for x in c])} | wait done {q([us(x[1]) for x in c])}"
              f" | end {q([us(x[2]) for x in c])}")
    if b:
        print(f"  barrier merge arrived {q([us(x[0]) for x in b])} | passed {q([us(x[1]) for x in b])}"
              f" | merged {q([us(x[2]) for x in b])}")
    if k:
        print(f"  cluster merge synced {q([us(x[0]) for x in k])} | weights {q([us(x[1]) for x in k])}"
              f" | data read {q([us(x[2]) for x in k])}")
    span = max([us(x[6]) for x in d] + [us(x[2]) for x in c])
    print(f"  span, first start to last end: {span:.1f} us (event-timed sample {run['sample']} us)")


COLUMNS = ("amax pass end", "decode start", "grid wait done", "amax known", "Q ready", "first tile", "loop end",
           "block end", "end phase", "combine past its wait", "combine end", "sample")


def table_row(run):
    """A run's medians over blocks, us from the call's first kernel start, as
    COLUMNS ("-" where the run recorded no such phase); the case and variant
    from its TRACE line (query rows x longest (splits), the variant's name)"""
    a, d = run["A"], list(run["D"].values())
    c = [x for x in run["C"].values() if x[3] not in (2, 3)]
    shape = re.search(r"query rows (\d+) longest (\d+) splits (\d+)(?: name (\S+))?", run["head"])
    case = f"{shape[1]} x {shape[2]} ({shape[3]})" if shape else "-"
    variant = shape[4] if shape and shape[4] else "variant " + run["head"].split()[2]
    cells = dict.fromkeys(COLUMNS, "-")
    cells["sample"] = f"{run['sample']:.2f}"
    if d:
        o = min([x[0] for x in a.values()] + [x[2] for x in d])
        m = lambda v: f"{statistics.median(v):.1f}" if v else "-"
        us = lambda t: (t - o) / 1e3
        qp = list(run.get("Q", {}).values())
        cells.update({
            "amax pass end": m([us(x[1]) for x in a.values()]), "decode start": m([us(x[2]) for x in d]),
            "grid wait done": m([us(x[0]) for x in qp if x[0]]), "amax known": m([us(x[1]) for x in qp]),
            "Q ready": m([us(x[3]) for x in d if x[3]]), "first tile": m([us(x[4]) for x in d]),
            "loop end": m([us(x[5]) for x in d]), "block end": m([us(x[6]) for x in d]),
            "end phase": m([(x[6] - x[5]) / 1e3 for x in d]),
            "combine past its wait": m([us(x[1]) for x in c]), "combine end": m([us(x[2]) for x in c])})
    return case, variant, [cells[k] for k in COLUMNS]


def main():
    args = sys.argv[1:]
    table = bool(args) and args[0] == "--table"
    logs = args[1:] if table else args
    if not logs:
        sys.exit("usage: trace_summary.py [--table] TRACE_LOG... (the stderr of -DMLAB_TRACE mlabench runs)")
    if table:
        print("| case (splits) | variant | " + " | ".join(COLUMNS) + " |")
        print("| --- | --- |" + " ---: |" * len(COLUMNS))
    for log in logs:
        runs = read(log)
        if not table and len(logs) > 1:
            print(f"== {log}")
        for run in runs:
            if table:
                case, variant, cells = table_row(run)
                print(f"| {case} | {variant} | " + " | ".join(cells) + " |")
            else:
                print(run["head"])
                report(run)


def read(path):
    runs = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "TRACE" and len(w) >= 7:
                runs.append({"head": line.strip(), "sample": float(w[6]), "A": {}, "D": {}, "C": {}, "Q": {},
                             "W": {}, "P": {}})
            elif runs and w[0] == "TA":
                runs[-1]["A"][int(w[1])] = [int(x) for x in w[2:4]]
            elif runs and w[0] == "TD":
                runs[-1]["D"][int(w[1])] = [int(x) for x in w[2:10]]
            elif runs and w[0] == "TW" and len(w) >= 18:
                runs[-1]["W"][int(w[1])] = {k: int(v) for k, v in zip(w[2::2], w[3::2])}
            elif runs and w[0] == "TP" and len(w) >= 12:
                runs[-1]["P"][int(w[1])] = {k: int(v) for k, v in zip(w[2::2], w[3::2])}
            elif runs and w[0] == "TQ":
                runs[-1]["Q"][int(w[1])] = [int(x) for x in w[2:4]]
            elif runs and w[0] == "TC":
                runs[-1]["C"][int(w[1])] = [int(x) for x in w[2:5]] + [int(w[5]) if len(w) > 5 else 1]
    if not runs:
        sys.exit(f"{path}: no TRACE lines (was mlabench built with -DMLAB_TRACE?)")
    return runs


if __name__ == "__main__":
    main()
