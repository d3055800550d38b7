# common.gp: what every figure script shares; each loads it first.
# Every script is run as
#     gnuplot -c plots/KIND.gp DATA.csv [OUT [png|svg [FILTER]]]
# DATA.csv is the tidy table of `mlabench export` (one line per run, case and
# variant; columns named in its header, data/README.md). OUT defaults to
# DATA without .csv plus .KIND.png; the format follows OUT's ending unless
# given. Nothing else is passed on the command line: the title's GPU, runtime
# and commit come from the data, so no name can break the command.
# (each script copies ARGC and ARG1..ARG4 to nargs, a1..a4 before loading
# this file: inside `load` they are this file's)
if (nargs < 1) { print "usage: gnuplot -c plots/", kind, ".gp DATA.csv [OUT [png|svg]]"; exit status 2 }
data = a1
base = data
if (strlen(base) > 4 && base[strlen(base) - 3:] eq '.csv') { base = base[1:strlen(base) - 4] }
fmt = nargs >= 3 && a3 ne '' ? a3 : (strlen(a2) > 4 && a2[strlen(a2) - 3:] eq '.svg' ? 'svg' : 'png')
out = nargs >= 2 && a2 ne '' ? a2 : sprintf('%s.%s.%s', base, kind, fmt)
filter = nargs >= 4 ? a4 : ''
if (fmt eq 'svg') {
    set terminal svg size 1100,650 dynamic noenhanced font 'Sans,12' background rgb 'white'
} else {
    if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
        set terminal pngcairo size 1100,650 noenhanced font 'Sans,10'
    } else {
        print "common.gp: this gnuplot has no pngcairo terminal: using png (libgd)"
        set terminal png size 1100,650 noenhanced
    }
}
set output out
set datafile separator ','
set datafile columnheaders
set datafile missing 'nan'

# One colour per variant name, the same in every figure, no two alike (black
# is the tolerance bars'): every variant, peer and CPU reference has its own
# (test_results_plot checks the list against the variant table: a new
# variant adds its colour here). Names not listed (a submission, a peer
# added later) get a spare colour by the name's length.
spare = '#bd9e39 #ad494a #8ca252 #6baed6 #fd8d3c #74c476'
pal(n) = n eq 'bf16' ? '#1f77b4' : n eq 'fp8' ? '#d62728' : n eq 'mxfp4' ? '#2ca02c' : \
         n eq 'mxfp4_unfused' ? '#98df8a' : n eq 'fp8_exp2rcp' ? '#ff7f0e' : \
         n eq 'fp8_xcd' ? '#9467bd' : n eq 'mxfp4_e4m3' ? '#393b79' : n eq 'fp8_wgmma' ? '#e377c2' : \
         n eq 'mxfp4_mfma_scale' ? '#637939' : n eq 'bf16_t32' ? '#9edae5' : \
         n eq 'mxfp4_wgmma' ? '#8c6d31' : n eq 'bf16_wgmma' ? '#843c39' : \
         n eq 'fp8_wgmma_qrow' ? '#7b4173' : n eq 'mxfp4_wgmma_qrow' ? '#31a354' : \
         n eq 'mxfp4_qrow_lazy' ? '#e6550d' : \
         n eq 'flashinfer_bf16' ? '#17becf' : n eq 'flashinfer_fp8' ? '#bcbd22' : \
         n eq 'flashmla_bf16' ? '#525252' : n eq 'flashmla_fp8' ? '#6b6ecf' : \
         n eq 'torch_bf16' ? '#8c564b' : n eq 'aiter_bf16' ? '#a55194' : n eq 'aiter_fp8' ? '#5254a3' : \
         n eq 'cpu_ref_bf16' ? '#aec7e8' : \
         n eq 'cpu_ref_fp8' ? '#ff9896' : n eq 'cpu_ref_fp8_pexact' ? '#c49c94' : \
         n eq 'cpu_ref_fp8_kvonly' ? '#f7b6d2' : n eq 'cpu_ref_mxfp4_up' ? '#7f7f7f' : \
         n eq 'cpu_ref_mxfp4_even' ? '#c7c7c7' : n eq 'cpu_ref_mxfp4_mx8' ? '#cedb9c' : \
         n eq 'cpu_ref_mxfp4_a8' ? '#e7ba52' : n eq 'cpu_ref_fp8_qrow' ? '#de9ed6' : \
         n eq 'cpu_ref_mxfp4_a8_qrow' ? '#9c9ede' : word(spare, strlen(n) % 6 + 1)
# One marker per case (case_index 0, 1, ...)
ptype(c) = word('7 5 9 11 13 15 6 4 8 10 12 14', int(c) % 12 + 1) + 0

# Names by index from the data: cases by case_index (ordered by bytes),
# variants by variant_index, run labels by run_index.
array cname[64]
array vname[64]
array vkind[64]
array vfmt[64]
array rname[64]
do for [i = 1:64] { cname[i] = ''; vname[i] = ''; vkind[i] = ''; vfmt[i] = ''; rname[i] = '' }
gpu = ''; runtime = ''; commit = ''
# a run's name: its label, else runtime (without a parenthesis), date and commit
shortrt(rt) = strstrt(rt, ' (') > 0 ? rt[1:strstrt(rt, ' (') - 1] : rt
runlabel(l, rt, d, c) = l ne '' ? l : sprintf("%s\n%s %s", shortrt(rt), d[1:10], c[1:7])
stats data using (ci = column('case_index') + 1, vi = column('variant_index') + 1, \
                  ri = column('run_index') + 1, \
                  cname[ci <= 64 ? ci : 64] = strcol('case_name'), \
                  vname[vi <= 64 ? vi : 64] = strcol('variant'), \
                  vkind[vi <= 64 ? vi : 64] = strcol('kind'), \
                  vfmt[vi <= 64 ? vi : 64] = strcol('kv_format'), \
                  rname[ri <= 64 ? ri : 64] = runlabel(strcol('label'), strcol('runtime'), strcol('date'), strcol('commit')), \
                  gpu = strcol('gpu'), runtime = strcol('runtime'), commit = strcol('commit'), 0) nooutput
nc = 0; do for [i = 1:64] { if (cname[i] ne '') { nc = i } }
nv = 0; do for [i = 1:64] { if (vname[i] ne '') { nv = i } }
nr = 0; do for [i = 1:64] { if (rname[i] ne '') { nr = i } }
if (gpu eq '') { gpu = 'no GPU' }
if (runtime eq '') { runtime = 'no GPU runtime' }
info = sprintf('%s | %s | commit %s', gpu, runtime, commit[1:12])
set grid ytics
set key outside right top vertical samplen 2 spacing 1.1
set xtics rotate by -30 nomirror
set xtics ()
do for [i = 1:nc] { set xtics add (cname[i] i - 1) }
