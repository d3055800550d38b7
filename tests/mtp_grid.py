#!/usr/bin/env python3
"""The MTP unit's grid check, one place for its two callers: tests/gpu.cmake's
gpu_mtp_grid_{on,off} and papers/device-queue.sh's mtprule (its carried-program
path, which runs no ctest).

    mlabench export RESULTS.h5 | python3 tests/mtp_grid.py on|off

Each GPU row of a run of q2_long (rows as many tiles, no head pairs) must
have launched an item's unit (`unit` item, grid = rows x splits / 2) with
MLAB_MTP=on and a row's (`unit` row, grid = rows x splits) with it off.
Exit 0 when every row does, 1 otherwise or with no GPU row, 2 on usage."""
import csv
import sys


def check(rows, mode):
    """rows: export's dicts, GPU rows only; mode: 'on' or 'off'. 0 or 1."""
    u = [(x['variant'], int(x['grid']), int(x['total_q']) * int(x['splits']), x['unit']) for x in rows]
    print('variant, grid, rows x splits, unit:', u)
    per = 2 if mode == 'on' else 1
    want = 'item' if mode == 'on' else 'row'
    bad = [x for x in u if x[1] * per != x[2] or x[3] != want]
    for v, g, n, w in bad:
        print(f'{v}: grid {g}, rows x splits {n}, unit {w}: wanted grid {n // per}, unit {want}')
    if not u:
        print('no GPU row')
    return 0 if u and not bad else 1


def main(argv):
    if len(argv) != 2 or argv[1] not in ('on', 'off'):
        print('usage: mlabench export RESULTS.h5 | python3 tests/mtp_grid.py on|off', file=sys.stderr)
        return 2
    rows = [x for x in csv.DictReader(sys.stdin) if x['kind'] == 'gpu']
    return check(rows, argv[1])


if __name__ == '__main__':
    sys.exit(main(sys.argv))
