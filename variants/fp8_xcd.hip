/* fp8_xcd.hip: variant 'fp8_xcd' (id 5).
 * Idea: fp8_exp2rcp with its blocks placed by query row on the XCDs
 * (variants/xcd_map.h). MI300X and MI355X are 8 XCDs, each with its own L2
 * (4 MB), and deal a grid's blocks round-robin over them (block b on XCD
 * b % 8, in the one-partition mode). Unplaced, the S split blocks of a row
 * land on up to 8 XCDs, and the combine's 16 head blocks of that row on 8
 * others. Placed, XCD x runs rows x*RP .. x*RP+RP-1 (RP = rows / 8, rounded
 * up): the row's split blocks, then its 16 combine blocks (mla_combine_xcd),
 * all on one XCD; padding blocks (grid rounded up to 8 x RP x blocks a row)
 * return at once.
 * Expected on MI355X: (1) the row's Q (16 x 576 bf16, 18 KB) and Q-amax
 * maxima are fetched into one L2 instead of up to 8: S - 1 of the S reads
 * hit; (2) the combine reads the row's S x 16 KB of f16 partials from the L2
 * the decode wrote them to, if they survive the kernel boundary there (the
 * kernel-end release writes L2 back; whether the next kernel's acquire also
 * invalidates it depends on the memory's coherence mode and the runtime, so
 * this part may show nothing); (3) queries of one item (consecutive rows)
 * share an XCD, so their common KV is fetched into one L2. Cost: with fewer
 * than 8 rows only that many XCDs work (4x1024 and 4x8192: 4 of 8, expect a
 * loss there), and rows not a multiple of 8 leave XCDs unevenly loaded.
 * The gain, if any, is a few us on split cases (the combine's read latency
 * and Q's misses), not bandwidth: KV, the bulk, is read once either way.
 * The H200 has one L2 and no XCDs: there it can only show the cost of the
 * padding and the changed block order (a control: it should be within noise
 * of fp8_exp2rcp on 32+ rows and slower on the 4-row cases), never the
 * locality it is built for.
 * Parent: fp8_exp2rcp.
 * Measured (H200, v6 2041b49, recorded inputs, with the earlier remap of
 * consecutive blocks onto one XCD, without the combine's placement): within
 * 1.5% of fp8_exp2rcp on every case (256x8192 419 vs 423 us; geomean 51.6 vs
 * 51.3 us). The placement above, on the H200 (c043d91, recorded inputs,
 * papers/reports/h200-2026-12-01c): +0.1..+4% against fp8_exp2rcp, the most
 * on the 4-row cases (4x8192 25.95 vs 24.96 us, 4x1024 13.7 vs 13.3),
 * within 0.6% on 256 rows; geomean 52.4 vs 51.4 us: the control's cost, as
 * predicted. On an AMD GPU it is not measured yet; its mapping is tested on
 * the CPU (tests/test_xcd_map.c).
 * v10 (e4b7b14, papers/reports/h200-2026-12-01i): with split rule v10's 32
 * splits at 4x8192 (one block an SM for fp8_exp2rcp) the padded grid costs
 * more: 27.6 against fp8_exp2rcp's 21.7 us (1.27x); 1.00-1.03x elsewhere.
 * v11 (107c52b, papers/reports/h200-2026-12-01m suite file): 25.5 against
 * fp8_exp2rcp's 20.4 us at 4x8192 (1.25x), 0.99-1.03x elsewhere.
 * v12 (17bec0f, papers/reports/h200-2026-12-01v): 4x8192 25.5 us against
 * fp8_exp2rcp's 19.7 (its own combine, fp8_xcd's placed one, does not load
 * ahead); geomean 49.3 us. Bulk-copy tiles (ecb8c24, -x): -1.0..-1.5%.
 * v13 (papers/reports/h200-2026-12-01y): the placed combine loads every
 * split's partial ahead too (the same instances as its parent's, chosen the
 * same way), so the rung compares the placement alone: 4x1024 -6.6 / -5.9%
 * (12.1 -> 11.3 us, fp8_exp2rcp 10.7-10.9), 4x8192 -2.3 / -1.6% (24.4 us
 * against fp8_exp2rcp's 19.6: the padded grid's cost remains).
 * v14 (2b085cf, papers/reports/h200-2026-12-01zi): its parent's fp8 core
 * changes (-ze, -zg): 4x1024 11.2 us, 4x8192 21.9, 256x8192 321; geomean
 * 42.6 us, 1.49x the read limit.
 * v15 (f6cf942, papers/reports/h200-2026-12-01zm): the host-planned split
 * for ragged batches, its table placed by XCD (splits.c, mlab_plan_table;
 * padded to whole rounds of 8): 64.4 -> 25.2, 67.7 -> 35.5, 140.7 -> 70.4 us
 * on ragged_1long32, ragged_b64, ragged_mix64 (-zl) (fp8_exp2rcp 20.2, 26.7,
 * 66.3); the 8 cases unchanged (geomean 42.6 us, 1.50x, -zl).
 * v23 (5148d8f): its parent's S rows padded (fp8's header; not A/B-measured
 * here); the v23 suite (papers/reports/h200-2026-12-02x) geomean 42.1 us,
 * 1.49x, 4x8192 21.6 us against fp8_exp2rcp's 18.8 (the padded grid).
 */
#include "launch_common.h"
#include "variants.h"

static int bps(void) { return blocks_per_sm_fit<KV_FP8, true, true>(); }
static int smem_now(void) { return smem_fit<KV_FP8>(); }
static hipError_t launch(const mla_params *p, hipStream_t s, uint16_t *scratch)
{
    (void)scratch;
    return launch_fit<KV_FP8, true, true>(p, s);
}
#ifndef __HIP_DEVICE_COMPILE__ /* host-only table entry (clang would emit it for the GPU too) */
extern const mlab_variant_impl mlab_impl_fp8_xcd = {MLAB_V_fp8_xcd, 1, bps, mla_smem_min<KV_FP8>(), launch, 0, 0, NULL,
                                                   smem_now, 0, NULL, 1 /* xcd_placed */};
#endif
