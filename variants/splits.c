/* splits.c: the KV split rule (splits.h). */
#include "splits.h"

#include <math.h>

#include "mla_params.h" /* MLA_MAX_SPLITS */
#include "xcd_map.h"

int mlab_head_pairs(int grid, int sms);

/* the split rule's cost (splits.h) of `units` (row, split) units whose
 * busiest has `piece` tiles, plus the merge where any row is split. A decode
 * that pairs heads (d->pair_pct > 0) runs a unit as two blocks where the
 * units fill at most half the SMs (mlab_head_pairs, as the runner does),
 * each block's tiles at pair_pct % of a tile's time. A DRAM share (bw_pct >
 * 0): a wave whose busy SMs outnumber bw_pct % of the SMs (a pair's two
 * counted once: they read the same bytes) takes its tiles slower by busy /
 * (sms bw_pct / 100), but for the first wave's first free_bytes a block
 * (tiles of tile_bytes), which land at the SM's own pace; and the merge
 * weighs merge_pct % of the v10 rule's (free_bytes and merge_pct only with
 * a share: without one the v10 rule, pairs counted) */
static double plan_cost(double units, double piece, int split, int sms, int bps, const mlab_split_dram *d,
                        int tile_bytes)
{
    const int pairs = d && d->pair_pct > 0 && units <= sms && mlab_head_pairs((int)units, sms);
    const double B = (double)sms * bps, blocks = pairs ? 2 * units : units, waves = ceil(blocks / B);
    const double tw = pairs ? d->pair_pct / 100.0 : 1.0; /* a tile's time in a block */
    double cost = 0, merge = 1.0;
    if (!d || d->bw_pct <= 0) { /* every wave as busy as the first: the rule of v10 */
        double k = waves > 1 ? bps : ceil(blocks / sms);
        if (k > bps) k = bps;
        cost = waves * k * (piece * tw + MLAB_SPLIT_SETUP) / (k > 1 ? MLAB_SPLIT_SHARE : 1.0);
    } else { /* wave by wave: the full ones, then the last, each as busy as it is */
        const double sat = (double)sms * d->bw_pct / 100.0, last = blocks - (waves - 1) * B;
        const double free = tile_bytes > 0 && d->free_bytes > 0 ? fmin(piece, (double)d->free_bytes / tile_bytes) : 0.0;
        for (int w = 0; w < (int)waves; w++) {
            const double k = w + 1 < waves ? bps : fmin(bps, ceil(last / sms));
            const double busy = w + 1 < waves ? sms : fmin(sms, ceil(last / bps));
            const double reads = pairs ? busy / 2 : busy; /* a pair's two blocks read one unit's bytes */
            const double slow = reads > sat ? reads / sat : 1.0, first = w == 0 ? free : 0.0;
            cost += k * ((first + (piece - first) * slow) * tw + MLAB_SPLIT_SETUP) / (k > 1 ? MLAB_SPLIT_SHARE : 1.0);
        }
        merge = d->merge_pct / 100.0;
    }
    return split ? cost + merge * (units / B + 1) : cost;
}

int mlab_choose_splits(int W, int T, int sms, int bps, const mlab_split_dram *dram, int tile_bytes)
{
    if (T <= 1 || W < 1 || sms < 1 || bps < 1)
        return 1;
    int best = 1;
    double best_cost = 0;
    for (int s = 1; s <= T && s <= MLA_MAX_SPLITS; s *= 2) {
        const double cost = plan_cost((double)W * s, ceil((double)T / s), s > 1, sms, bps, dram, tile_bytes);
        if (s == 1 || cost < best_cost) {
            best_cost = cost;
            best = s;
        }
    }
    return best;
}

int mlab_plan_splits(int W, const int *n, int sms, int bps, const mlab_split_dram *dram, int tile_bytes, int *s)
{
    if (W < 1 || !n || !s || sms < 1 || bps < 1)
        return 0;
    int nmax = 0;
    for (int i = 0; i < W; i++) {
        if (n[i] < 0)
            return 0;
        if (n[i] > nmax) nmax = n[i];
    }
    double best_cost = 0;
    int best_p = 0;
    for (int k = 1; k <= MLA_MAX_SPLITS; k++) {
        const int P = nmax > 0 ? (nmax + k - 1) / k : 1;
        if (k > 1 && P == (nmax + k - 2) / (k - 1)) /* the same piece as k - 1's */
            continue;
        double blocks = 0, piece = 0;
        int split = 0;
        for (int i = 0; i < W; i++) {
            int si = n[i] > 0 ? (n[i] + P - 1) / P : 1;
            if (si > MLA_MAX_SPLITS) si = MLA_MAX_SPLITS;
            const double pi = n[i] > 0 ? ceil((double)n[i] / si) : 0;
            blocks += si;
            if (pi > piece) piece = pi;
            split |= si > 1;
        }
        const double cost = plan_cost(blocks, piece, split, sms, bps, dram, tile_bytes);
        if (best_p == 0 || cost < best_cost) {
            best_cost = cost;
            best_p = P;
        }
        if (P <= 1)
            break;
    }
    int smax = 1;
    for (int i = 0; i < W; i++) {
        int si = n[i] > 0 ? (n[i] + best_p - 1) / best_p : 1;
        s[i] = si > MLA_MAX_SPLITS ? MLA_MAX_SPLITS : si;
        if (s[i] > smax) smax = s[i];
    }
    return smax;
}

int mlab_plan_table_max(int W, int xcds)
{
    return W < 1 ? 0 : mlab_xcd_grid(W, MLA_MAX_SPLITS, xcds);
}

int mlab_plan_table(int W, const int *s, int xcds, int *w)
{
    if (W < 1 || !s || !w)
        return 0;
    for (int i = 0; i < W; i++)
        if (s[i] < 1 || s[i] > MLA_MAX_SPLITS)
            return 0;
    int nb = 0;
    if (xcds <= 1) {
        for (int i = 0; i < W; i++)
            for (int k = 0; k < s[i]; k++, nb++) {
                w[2 * nb] = i;
                w[2 * nb + 1] = k;
            }
        return nb;
    }
    /* XCD x owns rows x RP .. x RP + RP - 1; its j-th block goes to b = j xcds + x */
    const int rp = mlab_xcd_rows_per(W, xcds);
    int most = 0;
    for (int x = 0; x < xcds; x++) {
        int n = 0;
        for (int i = x * rp; i < W && i < (x + 1) * rp; i++) n += s[i];
        if (n > most) most = n;
    }
    for (int b = 0; b < most * xcds; b++) {
        w[2 * b] = -1;
        w[2 * b + 1] = 0;
    }
    for (int x = 0; x < xcds; x++) {
        int j = 0;
        for (int i = x * rp; i < W && i < (x + 1) * rp; i++)
            for (int k = 0; k < s[i]; k++, j++) {
                w[2 * (j * xcds + x)] = i;
                w[2 * (j * xcds + x) + 1] = k;
            }
    }
    return most * xcds;
}

int mlab_bf16_small_tiles(int W, int T, int sms)
{
    return sms > 0 && (long)W * T >= (long)MLAB_BF16_T32_TILES * sms;
}

int mlab_combine_chunks(int W, int S, int sms, int max_c)
{
    int c = 1;
    if (S <= MLA_COMBINE_AHEAD) return c; /* the spread pays only past 16 splits (perf-notes v21) */
    while (2 * c <= max_c && 2 * c <= 4 && (long)2 * c * W * 16 <= (long)MLAB_COMBINE_SPREAD_BPS * sms) c *= 2;
    return c;
}

int mlab_combine_capped(int grid, int sms, int bps)
{
    return grid >= 1 && sms > 0 && bps > 0 && 2L * grid >= (long)sms * bps;
}

int mlab_head_pairs(int grid, int sms)
{
    return grid >= 1 && sms > 0 && 2L * grid <= (long)sms;
}
