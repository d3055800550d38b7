/* splits.c: the KV split rule (splits.h). */
#include "splits.h"

#include <math.h>

#include "mla_params.h" /* MLA_MAX_SPLITS */

int mlab_choose_splits(int W, int T, int sms, int bps)
{
    if (T <= 1 || W < 1 || sms < 1 || bps < 1)
        return 1;
    const double B = (double)sms * bps;
    int best = 1;
    double best_cost = 0;
    for (int s = 1; s <= T && s <= MLA_MAX_SPLITS; s *= 2) {
        const double n = (double)W * s, waves = ceil(n / B);
        double k = waves > 1 ? bps : ceil(n / sms); /* blocks on the busiest SM */
        if (k > bps) k = bps;
        double cost = waves * k * (ceil((double)T / s) + MLAB_SPLIT_SETUP) / (k > 1 ? MLAB_SPLIT_SHARE : 1.0);
        if (s > 1) cost += n / B + 1;
        if (s == 1 || cost < best_cost) {
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
