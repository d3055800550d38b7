# bandwidth.gp: achieved bandwidth (fewest bytes the call must move / median)
# for each case (x) and variant (bars), bars from the q3 to the q1 time, and
# the floor: the measured device copy bandwidth as a dashed line.
# in:  data = R.plot.csv written by `mlabench plot` (block 1+v: variant v's
#      rows, column 1 case index, 8 GB/s, 9 GB/s at q3, 10 GB/s at q1)
# vars: nc, nv, variants, copy_bw (GB/s; 0 = unknown, no line)
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
if (!exists("copy_bw")) copy_bw = 0
set title sprintf("Achieved bandwidth per case and variant vs measured copy bandwidth\n%s", info)
set ylabel 'GB/s (fewest bytes / median time)'
set xrange [-0.5:nc - 0.5]
set yrange [0:*]
set style fill solid 0.6 border -1
w = 0.8 / nv
floor_title = copy_bw > 0 ? sprintf('copy bandwidth %.0f GB/s', copy_bw) : ''
plot data index 0 using 1:(0):xtic(2) with dots lc rgb "#ff000000" notitle, \
     for [v = 1:nv] data index v + 1 using ($1 - 0.4 + w * (v - 0.5)):8:(w * 0.9) \
         with boxes lc v title word(variants, v), \
     for [v = 1:nv] data index v + 1 using ($1 - 0.4 + w * (v - 0.5)):8:9:10 \
         with yerrorbars lc rgb 'black' ps 0 notitle, \
     (copy_bw > 0 ? copy_bw : NaN) with lines dt 2 lw 2 lc rgb 'red' title floor_title
