# latency.gp: median time per call for each case (x, ordered by bytes) and
# GPU or peer variant (colour by name), bars q1..q3, and each row's floor (its
# measured read limit, else its fewest bytes at copy bandwidth) as a dash of
# the variant's colour. Log y, fitted to the data.
#   gnuplot -c plots/latency.gp DATA.csv [OUT [png|svg]]   (DATA: mlabench export)
kind = 'latency'
nargs = ARGC; a1 = ARG1; a2 = ARG2; a3 = ARG3; a4 = ARG4
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
ng = 0; do for [i = 1:nv] { if (vkind[i] ne 'cpu' && vname[i] ne '') { ng = i } }
if (ng == 0) { print sprintf('%s.gp: %s has no GPU or peer rows: nothing to draw', kind, data); exit status 1 }
stats data using (column('timed') > 0 ? column('q1_us') : NaN) name 'LO' nooutput
stats data using (column('timed') > 0 ? column('q3_us') : NaN) name 'HI' nooutput
stats data using (column('timed') > 0 ? column('floor_us') : NaN) name 'FL' nooutput
lo = FL_records > 0 && FL_min < LO_min ? FL_min : LO_min
set title sprintf("Latency per case and variant: cold median, bars q1..q3\ndashes: each row's floor, its measured read limit, else its fewest bytes at copy bandwidth\n%s", info)
set ylabel 'time per call (us, log scale)'
set xlabel 'case (ordered by bytes moved)'
set logscale y
set yrange [lo / 1.4 : HI_max * 1.4]
set xrange [-0.5 : nc - 0.5]
w = ng > 0 ? 0.8 / ng : 0.8
x(v) = column('case_index') - 0.4 + w * (v - 0.5)
sel(v) = column('timed') > 0 && strcol('variant') eq vname[v]
plot for [v = 1:ng] data using (x(v)):(sel(v) ? column('median_us') : NaN):'q1_us':'q3_us' \
         with yerrorbars pt 7 ps 0.9 lw 1.5 lc rgb pal(vname[v]) title vname[v], \
     for [v = 1:ng] data using (x(v) - w * 0.45):(sel(v) ? column('floor_us') : NaN):(w * 0.9):(0) \
         with vectors nohead lw 2 dt 2 lc rgb pal(vname[v]) notitle, \
     NaN with lines dt 2 lw 2 lc rgb 'black' title 'floor (see title)'
