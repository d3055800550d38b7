/* split_pick.c (mlab_split_pick): the KV split rule's pick
 * (variants/splits.c, mlab_choose_splits) for each line "W T SMS BPS BW" on
 * stdin, one split count a line on stdout. harness/tools/split_sweep.py fit
 * asks it what the rule would pick at each bandwidth factor, so the rule is
 * written once, in C. Exit: 0; 2 a malformed line (its number named). */
#include <stdio.h>

#include "variants/splits.h"

int main(void)
{
    char line[256];
    long n = 0;
    while (fgets(line, sizeof line, stdin)) {
        int W, T, sms, bps, bw;
        char extra;
        n++;
        if (sscanf(line, "%d %d %d %d %d %c", &W, &T, &sms, &bps, &bw, &extra) != 5 || W < 1 || T < 0 || sms < 1 ||
            bps < 1 || bw < 0 || bw > 100) {
            fprintf(stderr, "mlab_split_pick: line %ld: want W T SMS BPS BW (W, SMS, BPS >= 1; T >= 0; BW 0..100)\n",
                    n);
            return 2;
        }
        printf("%d\n", mlab_choose_splits(W, T, sms, bps, bw));
    }
    return 0;
}
