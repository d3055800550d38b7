/* split_pick.c (mlab_split_pick): the KV split rule's pick
 * (variants/splits.c, mlab_choose_splits) for each line
 * "W T SMS BPS BW FREE MERGE PAIR FMT" on stdin (BW, FREE, MERGE, PAIR:
 * mlab_split_dram's bw_pct, free_bytes, merge_pct, pair_pct; FMT: the KV format, bf16,
 * fp8 or mxfp4, whose tile's bytes the rule takes), one split count a line
 * on stdout. harness/tools/split_sweep.py fit asks it what the rule would
 * pick at each share, so the rule is written once, in C. Exit: 0; 2 a
 * malformed line (its number named). */
#include <stdio.h>
#include <string.h>

#include "reference/case.h" /* mlab_kv_fmt_name */
#include "variants/splits.h"

int main(void)
{
    char line[256];
    long n = 0;
    while (fgets(line, sizeof line, stdin)) {
        int W, T, sms, bps;
        mlab_split_dram d;
        char fmt[16], extra;
        n++;
        const int got = sscanf(line, "%d %d %d %d %d %d %d %d %15s %c", &W, &T, &sms, &bps, &d.bw_pct, &d.free_bytes,
                               &d.merge_pct, &d.pair_pct, fmt, &extra);
        int f = -1; /* the format named as results files name it */
        for (int k = MLAB_KV_BF16; got == 9 && k <= MLAB_KV_MXFP4; k++)
            if (!strcmp(fmt, mlab_kv_fmt_name((mlab_kv_fmt)k))) f = k;
        if (f < 0 || W < 1 || T < 0 || sms < 1 || bps < 1 || d.bw_pct < 0 || d.bw_pct > 100 || d.free_bytes < 0 ||
            d.merge_pct < 0 || d.pair_pct < 0) {
            fprintf(stderr, "mlab_split_pick: line %ld: want W T SMS BPS BW FREE MERGE PAIR FMT (W, SMS, BPS >= 1; T, "
                    "FREE, MERGE, PAIR >= 0; BW 0..100; FMT bf16, fp8 or mxfp4)\n", n);
            return 2;
        }
        printf("%d\n", mlab_choose_splits(W, T, sms, bps, &d, mlab_kv_tile_bytes((mlab_kv_fmt)f)));
    }
    return 0;
}
