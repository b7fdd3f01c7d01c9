# Amdahl's bound on the speedup from the serial shares scripts/serial-share.py measured (docs/benchmarks.md):
# gnuplot scripts/amdahl.gp, from the repository root, writes docs/scaling.svg.
set terminal svg size 640,420 font "sans,11"
set output "docs/scaling.svg"
set title "Amdahl's bound from the serial share measured on one thread"
set xlabel "threads"
set ylabel "speedup"
set xrange [1:16]
set yrange [1:16]
set xtics (1,2,4,8,12,16)
set key top left
set grid
amdahl(s, n) = 1 / (s + (1 - s) / n)
plot x title "ideal" with lines dashtype 2 lc rgb "gray", \
     amdahl(0.0045, x) title "KRBvKR, serial 0.45%" with lines lw 2, \
     amdahl(0.0025, x) title "KQRvKN, serial 0.25%" with lines lw 2
