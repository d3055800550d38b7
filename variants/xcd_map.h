/* xcd_map.h: where fp8_xcd places its blocks on a GPU of several XCDs
 * (accelerator complex dies, each with its own L2: 8 on MI300X and MI355X in
 * their one-partition mode). The GPU deals a grid's blocks round-robin over
 * the XCDs: block b runs on XCD b % xcds. Plain host/device functions, so
 * tests/test_xcd_map.c checks them on the CPU.
 *
 * A kernel whose blocks come in rows of per_row blocks (the decode: a query
 * row's splits; the combine: a row's 16 heads) launches mlab_xcd_grid blocks
 * and block b does work item mlab_xcd_work(b) = row * per_row + j, or nothing
 * (-1, padding). XCD x owns the rows x * RP .. x * RP + RP - 1 (RP = rows
 * over xcds, rounded up), so consecutive rows (the queries of one item, which
 * read the same KV) share an XCD too, and a row's blocks in both kernels run
 * on XCD row / RP: the decode's split partials of a row and the combine that
 * reads them back meet in one L2. The grid is padded to xcds x RP x per_row
 * (padding blocks return at once); with fewer rows than XCDs, only `rows`
 * XCDs work, and the rest idle (the price of the placement, stated in
 * variants/fp8_xcd.hip). xcds <= 1: the identity. */
#ifndef MLAB_XCD_MAP_H
#define MLAB_XCD_MAP_H

#include "mlab_hd.h" // MLAB_HD

/* the XCDs fp8_xcd deals its blocks over (mla_params.xcd_count): MI300X's and
 * MI355X's 8; elsewhere the same dealing, as a control */
#define MLAB_XCD_COUNT 8

/* rows per XCD */
MLAB_HD int mlab_xcd_rows_per(int rows, int xcds) { return (rows + xcds - 1) / xcds; }
/* blocks to launch */
MLAB_HD int mlab_xcd_grid(int rows, int per_row, int xcds)
{
    return xcds <= 1 ? rows * per_row : xcds * mlab_xcd_rows_per(rows, xcds) * per_row;
}
/* the work item (row * per_row + j) of block pid, or -1 (padding) */
MLAB_HD int mlab_xcd_work(int pid, int rows, int per_row, int xcds)
{
    if (xcds <= 1) return pid;
    const int x = pid % xcds, local = pid / xcds;
    const int row = x * mlab_xcd_rows_per(rows, xcds) + local / per_row;
    return row < rows ? row * per_row + local % per_row : -1;
}
/* the decode's grid: a ragged batch's plan's blocks (plan_blocks > 0:
 * splits.h, mlab_plan_table, placed already where placed), else the placed
 * grid (fp8_xcd) or rows x splits */
MLAB_HD int mlab_decode_grid(int plan_blocks, int rows, int splits, int xcds, int placed)
{
    return plan_blocks > 0 ? plan_blocks : placed ? mlab_xcd_grid(rows, splits, xcds) : rows * splits;
}
/* the XCD a row's blocks run on */
MLAB_HD int mlab_xcd_of_row(int row, int rows, int xcds) { return xcds <= 1 ? 0 : row / mlab_xcd_rows_per(rows, xcds); }

#endif
