/* test_xcd_map.c: fp8_xcd's block placement (variants/xcd_map.h) on the CPU.
 * The GPU deals block b to XCD b % xcds; for every (rows, splits, xcds) tried:
 *   - the decode's blocks (per_row = splits) and the combine's (per_row = 16
 *     heads) each cover every work item exactly once (a bijection onto
 *     rows x per_row, the rest of the padded grid doing nothing);
 *   - every block of a row, in both kernels, runs on one XCD, the same one;
 *   - with xcds <= 1 the map is the identity on the plain grid;
 *   - no XCD holds more rows than ceil(rows / xcds) (the balance it can get).
 * And the check can fail: fp8_xcd's old "consecutive blocks" remap and the
 * plain combine grid are caught splitting rows over XCDs. */
#include <stdio.h>  // printf
#include <stdlib.h> // calloc, free

#include "tests/mlab_check.h"  // check, CHECK
#include "variants/xcd_map.h" // mlab_xcd_grid, mlab_xcd_work, mlab_xcd_of_row

/* the XCD of each row's blocks under a map from block id to work item, -2
 * if a row's blocks land on several XCDs; returns 0 unless every item is hit
 * exactly once */
static int place(int rows, int per_row, int xcds, int grid, int (*work)(int, int, int, int), int *xcd_of)
{
    int *hit = calloc((size_t)rows * per_row, sizeof *hit), ok = 1;
    for (int r = 0; r < rows; r++) xcd_of[r] = -1;
    for (int b = 0; b < grid; b++) {
        const int w = work(b, rows, per_row, xcds);
        if (w == -1) continue;
        if (w < 0 || w >= rows * per_row) { ok = 0; continue; }
        hit[w]++;
        const int r = w / per_row, x = xcds > 1 ? b % xcds : 0;
        if (xcd_of[r] == -1) xcd_of[r] = x;
        else if (xcd_of[r] != x) xcd_of[r] = -2;
    }
    for (int i = 0; i < rows * per_row; i++) ok &= hit[i] == 1;
    free(hit);
    return ok;
}

/* the remap fp8_xcd had before (consecutive block ids onto one XCD) */
static int old_remap(int pid, int rows, int per_row, int xcds)
{
    const int grid = rows * per_row;
    int per = (grid + xcds - 1) / xcds, tall = grid % xcds;
    if (tall == 0) tall = xcds;
    int xcd = pid % xcds, local = pid / xcds;
    return xcd < tall ? xcd * per + local : tall * per + (xcd - tall) * (per - 1) + local;
}

static int identity(int pid, int rows, int per_row, int xcds)
{
    (void)rows; (void)per_row; (void)xcds;
    return pid;
}

int main(void)
{
    static const int rows_list[] = {1, 3, 4, 7, 8, 9, 12, 32, 33, 64, 100, 256};
    static const int split_list[] = {1, 2, 3, 7, 8, 16, 64};
    static const int xcd_list[] = {0, 1, 2, 8};
    int bad_bij = 0, bad_xcd = 0, bad_same = 0, bad_id = 0, bad_bal = 0, n = 0;
    for (size_t a = 0; a < sizeof rows_list / sizeof *rows_list; a++)
        for (size_t b = 0; b < sizeof split_list / sizeof *split_list; b++)
            for (size_t c = 0; c < sizeof xcd_list / sizeof *xcd_list; c++) {
                const int rows = rows_list[a], S = split_list[b], X = xcd_list[c];
                int *xd = malloc(sizeof(int) * rows), *xc = malloc(sizeof(int) * rows);
                const int gd = mlab_xcd_grid(rows, S, X), gc = mlab_xcd_grid(rows, 16, X);
                if (!place(rows, S, X, gd, mlab_xcd_work, xd) || !place(rows, 16, X, gc, mlab_xcd_work, xc)) {
                    if (bad_bij++ < 3) printf("  not a bijection: rows %d splits %d xcds %d\n", rows, S, X);
                }
                int load[8] = {0};
                for (int r = 0; r < rows; r++) {
                    if (xd[r] < 0 || xc[r] < 0) {
                        if (bad_xcd++ < 3) printf("  row %d on several XCDs: rows %d splits %d xcds %d\n", r, rows, S, X);
                    } else if (xd[r] != xc[r] || xd[r] != mlab_xcd_of_row(r, rows, X)) {
                        if (bad_same++ < 3)
                            printf("  row %d: decode XCD %d, combine XCD %d: rows %d splits %d xcds %d\n", r, xd[r],
                                   xc[r], rows, S, X);
                    } else if (X > 1) {
                        load[xd[r]]++;
                    }
                }
                for (int x = 0; x < 8 && X > 1; x++)
                    if (load[x] > (rows + X - 1) / X) bad_bal++;
                if (X <= 1) {
                    if (gd != rows * S) bad_id++;
                    for (int p = 0; p < gd; p++) bad_id += mlab_xcd_work(p, rows, S, X) != p;
                }
                n++;
                free(xd); free(xc);
            }
    CHECK(bad_bij == 0, "the decode and combine maps hit every work item once (%d of %d configurations failed)", bad_bij, n);
    CHECK(bad_xcd == 0, "a row's blocks run on one XCD (%d rows split)", bad_xcd);
    CHECK(bad_same == 0, "a row's split blocks and its combine blocks share the XCD (%d rows apart)", bad_same);
    CHECK(bad_id == 0, "one XCD (or none): the identity on the plain grid");
    CHECK(bad_bal == 0, "no XCD runs more than ceil(rows / xcds) rows");
    /* padding is bounded: at most (xcds - 1) rows' worth a grid */
    check(mlab_xcd_grid(256, 8, 8) == 256 * 8, "256 rows over 8 XCDs: no padding");
    check(mlab_xcd_grid(4, 32, 8) == 8 * 32, "4 rows over 8 XCDs: padded to 8 rows of blocks");
    /* the decode's grid (launch_sequence and the results row alike): a plan's blocks first */
    check(mlab_decode_grid(0, 5, 4, 8, 0) == 20 && mlab_decode_grid(0, 5, 4, 8, 1) == mlab_xcd_grid(5, 4, 8),
          "decode grid without a plan: rows x splits, or the placed grid");
    check(mlab_decode_grid(77, 5, 4, 8, 0) == 77 && mlab_decode_grid(88, 5, 4, 8, 1) == 88,
          "decode grid of a ragged batch's plan: its blocks, placed or not");
    /* the checker can fail: fp8_xcd's old remap (consecutive blocks onto one
     * XCD) splits rows whose splits straddle two XCDs, and its combine (the
     * plain grid) spreads a row's 16 heads over all 8 */
    {
        int xd[4], xc[32];
        place(4, 3, 8, 12, old_remap, xd);
        int split = 0;
        for (int r = 0; r < 4; r++) split += xd[r] == -2;
        check(split > 0, "negative control: the old remap is caught splitting a row (4 rows, 3 splits)");
        place(32, 16, 8, 32 * 16, identity, xc);
        split = 0;
        for (int r = 0; r < 32; r++) split += xc[r] == -2;
        check(split == 32, "negative control: the plain combine grid spreads every row over XCDs");
    }
    printf("test_xcd_map: %d checks, %d failed (%d configurations)\n", checked, failed, n);
    return failed ? 1 : 0;
}
