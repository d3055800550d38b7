# latency.gp: median time per call for each case (x) and variant (points),
# bars from q1 to q3, log y.
# in:  data = R.plot.csv written by `mlabench plot` (block 0: case labels
#      with a y for the invisible label points;
#      block 1+v: variant v's rows, column 1 case index, 5 median, 6 q1, 7 q3)
# vars: nc (cases), nv (variants), variants (their names, space-separated)
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
set title sprintf("Latency per case and variant (median, bars q1..q3; cold)\n%s", info)
set ylabel 'time per call (us, log scale)'
set logscale y
set offsets 0, 0, graph 0.05, graph 0.05
set xrange [-0.5:nc - 0.5]
w = 0.8 / nv
plot data index 0 using 1:3:xtic(2) with dots lc rgb "#ff000000" notitle, \
     for [v = 1:nv] data index v + 1 using ($1 - 0.4 + w * (v - 0.5)):5:6:7 \
         with yerrorbars pt 7 ps 0.8 lw 1.5 title word(variants, v)
