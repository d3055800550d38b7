# common.gp: what every figure script shares; each loads it first.
# Variables (gnuplot -e "..."), all optional but data:
#   data     the data file (CSV, blocks separated by two blank lines)
#   out      the figure to write (default: stdout)
#   fmt      'png' (pngcairo, or png when pngcairo is missing) or 'svg'
#   gpu, runtime, commit   named in every title
if (!exists("data")) { print "usage: gnuplot -e \"data='R.plot.csv'; out='R.latency.png'\" latency.gp"; exit status 2 }
if (!exists("fmt")) fmt = 'png'
if (!exists("gpu")) gpu = 'unknown GPU'
if (!exists("runtime")) runtime = 'unknown runtime'
if (!exists("commit")) commit = 'unknown commit'
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
if (exists("out")) { set output out }
set datafile separator ','
set datafile missing 'NaN'
info = sprintf('%s | %s | commit %s', gpu, runtime, commit)
set grid ytics
set key outside right top
set xtics rotate by -30 nomirror
