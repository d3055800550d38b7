/* splits.c: the KV split rule (splits.h). */
#include "splits.h"

#include <math.h>

#include "mla_params.h" /* MLA_MAX_SPLITS */

int mlab_choose_splits(int W, int T, int B)
{
    if (T <= 1 || W < 1 || B < 1)
        return 1;
    int best = 1;
    double best_cost = ceil((double)W / B) * (T + 4);
    int smax = T < MLA_MAX_SPLITS ? T : MLA_MAX_SPLITS;
    for (int s = 2; s <= smax; s++) {
        double cost = ceil((double)W * s / B) * (ceil((double)T / s) + 4) + (double)W * s / B + 1;
        if (cost < best_cost) {
            best_cost = cost;
            best = s;
        }
    }
    return best;
}

int mlab_bf16_small_tiles(int W, int T, int sms)
{
    return sms > 0 && (long)W * T >= (long)MLAB_BF16_T32_TILES * sms;
}
