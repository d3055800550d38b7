# history.gp: each row's median relative to the first run that has it, over
# runs (x, in the order of run_index: the order `mlabench history` was given,
# or by label), one line per (variant, case): colour by variant name, one
# marker per case. A dashed line at 1 (= the first run). FILTER (optional
# 4th argument) draws only the rows of one KV format (bf16, fp8, mxfp4): one
# figure per format keeps the number of lines readable.
#   gnuplot -c plots/history.gp DATA.csv [OUT [png|svg [FILTER]]]
# DATA: `mlabench export --order series R1.h5 R2.h5 ...` (each row's runs in
# consecutive lines), or the .csv `mlabench history --keep-data` leaves
kind = 'history'
nargs = ARGC; a1 = ARG1; a2 = ARG2; a3 = ARG3; a4 = ARG4
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
keep(v) = vname[v] ne '' && vkind[v] ne 'cpu' && (filter eq '' || vfmt[v] eq filter)
sel(v, c) = column('timed') > 0 && strcol('variant') eq vname[v] && column('case_index') == c
row(v) = column('timed') > 0 && strcol('variant') eq vname[v]
stats data using (column('timed') > 0 && (filter eq '' || strcol('kv_format') eq filter) ? column('rel_to_first') : NaN) name 'R' nooutput
lo = R_min < 1 ? R_min : 1
hi = R_max > 1 ? R_max : 1
pad = (hi - lo) * 0.1 + 0.01
set yrange [lo - pad : hi + pad]
set xrange [-0.3 : nr - 0.7]
set xtics () rotate by 0
do for [i = 1:nr] { set xtics add (rname[i] i - 1) }
set grid xtics ytics
set title sprintf("Median relative to the first run%s, over %d runs (one line per variant and case)\n%s", \
                  filter eq "" ? "" : sprintf(" (KV format %s)", filter), nr, gpu)
set ylabel 'median / median in the first run'
set xlabel 'run (its label, else runtime, date and commit)'
set bmargin 6.5
set xlabel offset 0, -1.2
set key outside right top vertical
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black'
plot for [v = 1:nv] for [c = 0:nc - 1] data using 'run_index':(keep(v) && sel(v, c) ? column('rel_to_first') : NaN) \
         with lines lw 1.2 lc rgb pal(vname[v]) notitle, \
     for [v = 1:nv] data using 'run_index':(keep(v) && row(v) ? column('rel_to_first') : NaN):(ptype(column('case_index'))) \
         with points pt variable ps 1 lc rgb pal(vname[v]) notitle, \
     for [v = 1:nv] NaN with lines lw 3 lc rgb pal(vname[v]) title (keep(v) ? vname[v] : ''), \
     for [c = 1:nc] NaN with points pt ptype(c - 1) ps 1 lc rgb '#444444' title cname[c]
