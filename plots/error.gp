# error.gp: relative RMS error per variant (x), one marker per case, in two
# panels. Top: the kernel error (against a reference on the same quantized
# inputs) of each GPU or peer variant, with the max rel_rms of the tolerance
# row it is judged by as a black bar: a point above its bar fails. Bottom:
# the total error against bf16 truth of every row, the CPU references of each
# KV format included: what the format costs, informative (no bar). Log y,
# fitted to the data; zero errors (bf16 truth against itself) are left out.
#   gnuplot -c plots/error.gp DATA.csv [OUT [png|svg]]   (DATA: mlabench export)
kind = 'error'
nargs = ARGC; a1 = ARG1; a2 = ARG2; a3 = ARG3; a4 = ARG4
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
ng = 0; do for [i = 1:nv] { if (vkind[i] ne 'cpu' && vname[i] ne '') { ng = i } }
pos(v) = v > 0 ? v : NaN
K_records = 0; T_records = 0; E_records = 0
if (ng > 0) {
    stats data using (strcol('kind') ne 'cpu' && column('kernel_n') > 0 ? pos(column('kernel_rel_rms')) : NaN) name 'K' nooutput
    stats data using (strcol('kind') ne 'cpu' ? pos(column('tol_max_rel_rms')) : NaN) name 'T' nooutput
}
stats data using (column('total_n') > 0 ? pos(column('total_rel_rms')) : NaN) name 'E' nooutput
if (E_records == 0) { E_min = 1e-3; E_max = 1 }
if (K_records == 0) { K_min = 1e-4; K_max = 1e-2 }
if (T_records == 0) { T_max = K_max }
jit(c) = nc > 1 ? -0.3 + 0.6 * c / (nc - 1) : 0
set multiplot title sprintf("Relative RMS error per variant, one marker per case\n%s", info)
# both panels share the x axis (every variant; the top one has no CPU rows)
set lmargin at screen 0.09
set rmargin at screen 0.79
set xrange [-0.6 : nv - 0.4]
set xtics () rotate by 90 right  # upright: 26 names side by side
do for [i = 1:nv] { set xtics add ('' i - 1) }
set grid xtics ytics
set logscale y
set format y '%.0e'
set key outside right top vertical spacing 0.95 samplen 1.5 font ',9'  # one column beside the short top panel
if (ng > 0) {
    set tmargin at screen 0.86
    set bmargin at screen 0.6
    set ylabel "kernel rel_rms\n(vs same quantized inputs)"
    klo = K_records > 0 ? K_min : 1e-4
    khi = T_records > 0 && T_max > K_max ? T_max : K_max
    set yrange [klo / 2 : khi * 2]
    set label 1 'GPU and peer rows: kernel error; a point above its bar fails' at screen 0.09, screen 0.875 left
    plot for [v = 1:ng] data using (column('variant_index') + jit(column('case_index'))):\
             (strcol('variant') eq vname[v] && column('kernel_n') > 0 ? pos(column('kernel_rel_rms')) : NaN):\
             (ptype(column('case_index'))) with points pt variable ps 1.1 lc rgb pal(vname[v]) notitle, \
         data using 'variant_index':(strcol('kind') ne 'cpu' && column('case_index') == 0 ? pos(column('tol_max_rel_rms')) : NaN):\
             (column('variant_index') - 0.42):(column('variant_index') + 0.42) \
             with xerrorbars ps 0 lw 2.5 lc rgb 'black' title 'its tolerance (max rel_rms)', \
         for [c = 1:nc] NaN with points pt ptype(c - 1) ps 1.1 lc rgb '#444444' title cname[c]
}
set tmargin at screen (ng > 0 ? 0.55 : 0.86)
set bmargin at screen 0.365
set xtics ()
do for [i = 1:nv] { set xtics add (sprintf('%s [%s]', vname[i], vfmt[i]) i - 1) }
set ylabel "total rel_rms\n(vs bf16 truth)"
set yrange [E_min / 2 : E_max * 2]
set label 1 (ng > 0 ? 'every row, the CPU references of each format included: what the format costs (informative, no tolerance)' : 'no GPU or peer rows: the CPU references of each KV format against bf16 truth (what the format costs)') at screen 0.09, screen (ng > 0 ? 0.565 : 0.875) left
plot for [v = 1:nv] data using (column('variant_index') + jit(column('case_index'))):\
         (strcol('variant') eq vname[v] && column('total_n') > 0 ? pos(column('total_rel_rms')) : NaN):\
         (ptype(column('case_index'))) with points pt variable ps 1.1 lc rgb pal(vname[v]) notitle, \
     for [c = 1:(ng > 0 ? 0 : nc)] NaN with points pt ptype(c - 1) ps 1.1 lc rgb '#444444' title cname[c]
unset multiplot
