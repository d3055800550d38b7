"""The MXFP4 wgmma decodes' stage protocol (variants/mla_wgmma.h wg_produce_mx
and the consumers' loop), modelled on the CPU and run under many random
schedules: two producer warpgroups (tile i is producer i % 2's) fill raw
stages by bulk copies and convert them into e4m3 stages; two consumers
(tile i is consumer i % 2's) read them. Waits are on mbarrier phase
parities, as the hardware's are (a wait for parity P passes while the
barrier's current phase has the other parity); a stage's "empty" signal is a
named barrier (bar.arrive by the consumer, bar.sync by the next producer),
where a second arrival before the sync is undefined, and counted here as an
error.

Checked, for every tile count 1 .. 14 a block and many schedules: every
producer reads the raw tile it means to, every consumer reads the tile it
means to (no wait passing on an earlier phase), no named barrier is arrived
on twice, and nothing deadlocks. Rings: main's (4 e4m3 stages, a stage one
consumer's; 3 raw), and a shared odd ring (3 e4m3 stages both consumers
share, the full and the empty signals keyed by (stage, consumer); 5 raw):
the form of papers/wip/mx_ring.patch that ran on an H100 without a hang and
was dropped as slower (perf-notes v64; git show
75c504a:papers/wip/mx_ring.patch), kept here for the next ring that hands a
stage between consumers. Its two earlier forms must fail: one full barrier a
stage (its first GPU run hung, perf-notes v63) and that with the stage's
phase before waited first (a deadlock), or this test could not fail.

Usage: test_mx_ring_model.py"""
import random
import sys

from mlabtest import finish, say


class Bar:
    """An mbarrier as the waits see it: completed phases k; a wait on parity P passes iff k & 1 != P."""

    def __init__(self):
        self.k = 0

    def passes(self, parity):
        return (self.k & 1) != parity


def simulate(n, nst, nraw, full_wait, seed, pro=None):
    """One block of n tiles under one random schedule: None, or the first error.
    full_wait, how a consumer waits for its tile in a ring of odd nst: "one"
    (the stage's one barrier, its own phase's parity: v63's first run),
    "before" (that barrier, the phase before first: v63's first mend), "keyed"
    (a barrier a (stage, consumer): 2 nst of them, tile g's g % 2 nst); pro:
    the raw tiles asked for at the start, the rest of the nraw once tile 0
    has landed (WG_NRAW_PRO; None: all nraw at the start)"""
    rng = random.Random(seed)
    odd = nst % 2 == 1
    keyed = odd and full_wait == "keyed"
    fmod = 2 * nst if keyed else nst  # the full barriers and a tile's: g % fmod, phase g // fmod
    full = [Bar() for _ in range(fmod)]  # the producer's arrival completes a phase
    rawb = [Bar() for _ in range(nraw)]  # raw stage r: its copy's landing completes a phase
    reiss = [Bar() for _ in range(nraw)]  # raw stage r: read by its producer and reissued
    stage = [None] * nst  # the tile each e4m3 stage holds
    raw = [None] * nraw  # the tile each raw stage holds (once landed)
    inflight = []  # (raw stage, tile) copies not landed yet
    pending = {}  # named barrier key -> arrivals waiting for the producer's sync

    def key_sync(li):  # the producer of tile li syncs here
        return li % (2 * nst) if odd else li % nst

    def key_arrive(g):  # the consumer of tile g arrives here (for tile g + nst)
        return (g + nst) % (2 * nst) if odd else g % nst

    def issue(li):
        inflight.append((li % nraw, li))

    pro = nraw if pro is None else pro
    for li in range(min(pro, n)):  # the prologue: producer 0's thread 0
        issue(li)
    # each actor: a generator yielding a predicate to wait on, or an error string
    def producer(q):
        for li in range(q, n, 2):
            if li >= nraw:
                yield lambda li=li: reiss[li % nraw].passes(((li - nraw) // nraw) & 1)
            yield lambda li=li: rawb[li % nraw].passes((li // nraw) & 1)
            if li == 0:  # producer 0, tile 0 in: the rest of the ring (WG_NRAW_PRO)
                for k in range(pro, min(nraw, n)):
                    issue(k)
            if raw[li % nraw] != li:
                yield f"producer {q} read raw tile {raw[li % nraw]} for tile {li}"
            if li >= nst:
                k = key_sync(li)
                yield lambda k=k: pending.get(k, 0) > 0
                pending[k] -= 1
            stage[li % nst] = li
            full[li % fmod].k += 1
            if li + nraw < n:
                issue(li + nraw)
                reiss[li % nraw].k += 1

    def consumer(c):
        for g in range(c, n, 2):
            s, f = g % nst, g % fmod
            if full_wait == "before" and odd and g >= nst:
                yield lambda f=f, g=g: full[f].passes((g // fmod - 1) & 1)
            yield lambda f=f, g=g: full[f].passes((g // fmod) & 1)
            if stage[s] != g:
                yield f"consumer {c} read stage {s} holding tile {stage[s]} as tile {g}"
            k = key_arrive(g)
            if pending.get(k, 0) > 0:
                yield f"consumer {c}: a second arrival on empty barrier {k} (tile {g})"
            pending[k] = pending.get(k, 0) + 1

    actors = {f"p{q}": producer(q) for q in range(2)}
    actors.update({f"c{c}": consumer(c) for c in range(2)})
    waits = {name: None for name in actors}

    def step(name):
        """Run actor name until it blocks or ends: False if it cannot move now."""
        w = waits[name]
        if w is not None and not w():
            return False
        while True:
            try:
                x = next(actors[name])
            except StopIteration:
                del actors[name]
                return True
            if isinstance(x, str):
                raise RuntimeError(x)
            if not x():
                waits[name] = x
                return True
            waits[name] = None

    try:
        while actors or inflight:
            movers = [a for a in actors if waits[a] is None or waits[a]()]
            if inflight and (not movers or rng.random() < 0.3):  # a copy lands
                r, li = inflight.pop(rng.randrange(len(inflight)) if rng.random() < 0.2 else 0)
                raw[r] = li
                rawb[r].k += 1
                continue
            if not movers:
                return f"deadlock with {sorted(actors)} waiting"
            step(rng.choice(movers))
    except RuntimeError as e:
        return str(e)
    return None


def errors(nst, nraw, full_wait, seeds, pro=None):
    """The first error of each tile count, over `seeds` schedules each."""
    out = {}
    for n in range(1, 15):
        for seed in range(seeds):
            e = simulate(n, nst, nraw, full_wait, 1000 * n + seed, pro)
            if e:
                out[n] = e
                break
    return out


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    for nst, nraw, fw, pro, what in ((4, 3, "one", None, "main's rings (4 e4m3 stages a consumer each, 3 raw)"),
                                     (3, 5, "keyed", None, "the shared odd ring (v63-v64: 3 e4m3 stages, full and empty "
                                                           "barriers a (stage, consumer); 5 raw)"),
                                     (3, 5, "keyed", 3, "the same, 3 raw tiles asked for first (WG_NRAW_PRO=3)"),
                                     (3, 3, "keyed", None, "a shared ring of 3, keyed, with 3 raw")):
        e = errors(nst, nraw, fw, seeds, pro)
        say(not e, f"{what}: {seeds} schedules of 1 .. 14 tiles, no error", str(e))
    for fw, what in (("one", "one full barrier a stage (v63's first run, which hung)"),
                     ("before", "one a stage, the phase before waited first (v63's first mend)")):
        e = errors(3, 5, fw, seeds)
        say(bool(e), f"a shared ring with {what}: the model finds its error", "no error found")
        if e:
            print(f"      e.g. {min(e)} tiles: {e[min(e)]}")
    return finish("test_mx_ring_model", None)


if __name__ == "__main__":
    sys.exit(main())
