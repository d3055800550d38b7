# history.gp: the median (bars q1..q3) of chosen (case, variant) series over
# many runs; x = run, labelled with its runtime version, date and commit. Log y.
# in:  data = R.history.csv written by `mlabench plot --history` (block 0:
#      run_idx,runtime_version,"date commit",file,min median; block s: run_idx,
#      median,q1,q3)
# vars: nr (runs), ns (series), series (their names "case/variant")
here = ''; do for [i = strlen(ARG0):1:-1] { if (here eq '' && ARG0[i:i] eq '/') { here = ARG0[1:i] } }
load here . 'common.gp'
set title sprintf("Latency history over %d runs (median, bars q1..q3)\n%s | runtime, date and commit per run below | commit %s", nr, gpu, commit)
set ylabel 'time per call (us, log scale)'
set logscale y
set offsets 0, 0, graph 0.05, graph 0.05
set xrange [-0.5:nr - 0.5]
set bmargin 6
plot data index 0 using 1:5:xtic(strcol(2) . "\n" . strcol(3)) with dots lc rgb "#ff000000" notitle, \
     for [s = 1:ns] data index s using 1:2:3:4 with yerrorlines pt 7 ps 0.8 title word(series, s)
