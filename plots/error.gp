# error.gp: relative RMS error of each variant (x, labelled with the KV
# format it reads), one point per case: the kernel error (against a
# reference on the same quantized inputs), the total error (against bf16
# truth), and the tolerance row's max rel_rms as a black bar. Log y.
# in:  data = R.plot.csv written by `mlabench plot` (block 1: variant labels;
#      block 1+v: variant v's rows, column 1 case index, 13 kernel rel_rms,
#      14 total rel_rms, 15 tolerance max rel_rms, 17 variant index)
# vars: nc, nv. Zero errors (bf16 truth against itself) cannot sit on a log axis: dropped.
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
set title sprintf("Relative RMS error per variant [KV format], one point per case\n%s", info)
set ylabel 'rel_rms = ||out - ref|| / ||ref|| (log scale)'
set logscale y
set offsets 0, 0, graph 0.05, graph 0.05
set xrange [-0.5:nv - 0.5]
jit(c) = nc > 1 ? -0.25 + 0.5 * c / (nc - 1) : 0
plot data index 1 using 1:3:xtic(2) with dots lc rgb "#ff000000" notitle, \
     for [v = 1:nv] data index v + 1 using ($17 + jit($1)):($13 > 0 ? $13 : NaN) with points pt 7 ps 1 lc 1 \
         title (v == 1 ? 'kernel (same quantized inputs)' : ''), \
     for [v = 1:nv] data index v + 1 using ($17 + jit($1)):($14 > 0 ? $14 : NaN) with points pt 6 ps 1 lc 2 \
         title (v == 1 ? 'total (vs bf16 truth)' : ''), \
     for [v = 1:nv] data index v + 1 using 17:15:($17 - 0.35):($17 + 0.35) \
         with xerrorbars ps 0 lw 2 lc rgb 'black' title (v == 1 ? 'max rel_rms of its tolerance row' : '')
