#!/usr/bin/env bash
# Re-run this report (H200, 2026-12-01, the fp8_wgmma versions): fp8_wgmma's
# median relative to run 1 over the eight runs, fp8_exp2rcp as the control
# (CPU only, from the committed files). MLAB_BIN names the mlabench program.
set -euo pipefail
here=papers/reports/h200-2026-12-01d
cd "$(dirname "$0")/../../.."
M=${MLAB_BIN:-build/mlabench}
"$M" history "$here/h200_wgmma_run1.h5" "$here/h200_wgmma_run2.h5" "$here/h200_wgmma_run3.h5" \
     "$here/h200_wgmma_run3_4stages.h5" "$here/h200_wgmma_run4.h5" "$here/h200_wgmma_run5.h5" \
     "$here/h200_wgmma_run6.h5" "$here/h200_wgmma_run6_ss6.h5" --variants fp8_wgmma,fp8_exp2rcp --no-plot
