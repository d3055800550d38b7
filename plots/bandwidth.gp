# bandwidth.gp: achieved bandwidth (a row's fewest bytes / its median) for
# each case (x, ordered by bytes) and GPU or peer variant (colour by name),
# bars from the q3 to the q1 time, and each row's floor as a dash of its
# colour: the bandwidth of its measured read limit, else the copy bandwidth.
# Linear y from 0, fitted to the data.
#   gnuplot -c plots/bandwidth.gp DATA.csv [OUT [png|svg]]   (DATA: mlabench export)
kind = 'bandwidth'
nargs = ARGC; a1 = ARG1; a2 = ARG2; a3 = ARG3; a4 = ARG4
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
ng = 0; do for [i = 1:nv] { if (vkind[i] ne 'cpu' && vname[i] ne '') { ng = i } }
if (ng == 0) { print sprintf('%s.gp: %s has no GPU or peer rows: nothing to draw', kind, data); exit status 1 }
gb(us) = column('bytes') / (us * 1e3)
stats data using (column('timed') > 0 ? gb(column('q1_us')) : NaN) name 'HI' nooutput
stats data using (column('timed') > 0 ? column('floor_gbps') : NaN) name 'FL' nooutput
hi = FL_records > 0 && FL_max > HI_max ? FL_max : HI_max
set title sprintf("Achieved bandwidth per case and variant: fewest bytes / cold median (bars q3..q1)\ndashes: each row's floor, its measured read limit, else the copy bandwidth\n%s", info)
set ylabel 'GB/s (fewest bytes / median time)'
set xlabel 'case (ordered by bytes moved)'
set yrange [0 : hi * 1.15]
set xrange [-0.5 : nc - 0.5]
w = ng > 0 ? 0.8 / ng : 0.8
x(v) = column('case_index') - 0.4 + w * (v - 0.5)
sel(v) = column('timed') > 0 && strcol('variant') eq vname[v]
set style fill solid 0.7 noborder
plot for [v = 1:ng] data using (x(v)):(sel(v) ? gb(column('median_us')) : NaN):(w * 0.85) \
         with boxes lc rgb pal(vname[v]) title vname[v], \
     for [v = 1:ng] data using (x(v)):(sel(v) ? gb(column('q3_us')) : NaN):(0):(gb(column('q1_us')) - gb(column('q3_us'))) \
         with vectors nohead lc rgb '#333333' lw 1.2 notitle, \
     for [v = 1:ng] data using (x(v) - w * 0.45):(sel(v) ? column('floor_gbps') : NaN):(w * 0.9):(0) \
         with vectors nohead lw 2.5 lc rgb pal(vname[v]) notitle, \
     NaN with lines lw 2.5 lc rgb 'black' title 'floor (see title)'
