#!/usr/bin/env bash
# Re-run this report (H100, 2026-12-06, fifty-fifth session, call 1: the
# combine's first read of the decode's freshly written lines under the
# default flush, MLAB_FLUSH=load and MLAB_KV_EVICT=off, then with
# -DMLAB_TRACE_CTRL2; trace builds of f8fd9e7's tree, fp8_wgmma_qrow and
# bf16_wgmma at 4 x 1024 and 32 x 1024). A trace build's times are a few
# percent off the plain build's, so its results files and logs are not kept;
# this prints the call's summaries from README.md.
# To re-measure (a GPU machine): at f8fd9e7, `bash papers/device-queue.sh
# flushtrace` (the entry and papers/wip/combine_ctrl2.patch left after it:
# git show f8fd9e7:papers/device-queue.sh).
set -euo pipefail
sed -n '/^## The summaries/,$p' "$(dirname "$0")/README.md"
