#!/usr/bin/env python3
"""test_combine_params: the combine's kernel parameters held before its grid
wait (variants/mla_kernel.h combine_params_in, MLAB_COMB_PARAMS_EARLY: their
constant-cache lines come in while the decode drains, perf-notes v35) are
every parameter the combine reads: the `p.<field>` names in combine_one,
mla_combine and mla_combine_xcd against those combine_params_in holds. The
list is kept by hand; a field added to the combine and not to the list
would be read cold after the wait again, and fails here (--self-test: the
check sees a field dropped from the list). A diagnostic probe's block
(`#if defined(MLAB_TRACE) && defined(MLAB_TRACE_CTRL)` .. `#endif`, trace
builds only) is left out: its read after the wait is what it times."""
import os
import re
import sys

src = os.environ.get("MLAB_SRC") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
text = open(os.path.join(src, "variants", "mla_kernel.h")).read()


def body(name, text):
    """the text of the first definition of function or kernel `name` (to its matching brace)"""
    m = re.search(r"\b" + name + r"\s*\(const mla_params &?\s*p\b[^)]*\)\s*\{", text)
    if not m:
        sys.exit(f"FAIL: mla_kernel.h: no definition of {name}(const mla_params &p, ...)")
    i, depth = m.end(), 1
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[m.end():i]


PROBE = re.compile(r"^#if defined\(MLAB_TRACE\) && defined\(MLAB_TRACE_CTRL\)\n.*?^#endif", re.M | re.S)


def fields(s):
    return set(re.findall(r"\bp\.([a-z_0-9]+)", PROBE.sub("", s)))


def check(text):
    held = fields(body("combine_params_in", text))
    read = set()
    for k in ("combine_one", "mla_combine", "mla_combine_xcd"):
        read |= fields(body(k, text))
    return held, read


held, read = check(text)
fails = []
if read - held:
    fails.append("read by the combine, not held before its wait: " + ", ".join(sorted(read - held)))
if held - read:
    fails.append("held, but never read by the combine: " + ", ".join(sorted(held - read)))
if "--self-test" in sys.argv:  # the check must see a dropped field
    f = sorted(read)[0]
    b = body("combine_params_in", text)
    mutated = text.replace(b, re.sub(r"\bp\." + f + r"\b", "p.__dropped", b, count=1), 1)
    h2, r2 = check(mutated)
    if f in h2 or not (r2 - h2):
        fails.append(f"self-test: dropping p.{f} from combine_params_in went unseen")
for f in fails:
    print("FAIL:", f)
print("test_combine_params:", "ok (%d fields held, every one the combine reads)" % len(held) if not fails else "failed")
sys.exit(1 if fails else 0)
