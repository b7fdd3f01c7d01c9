# The solver's measured thread scaling (docs/benchmarks.md#thread-scaling), from tbbench's CSV files
# in docs/scaling/: gnuplot scripts/scaling.gp, from the repository root, writes docs/scaling.svg.
set terminal svg size 720,460 font "sans,11" background rgb "white"
set output "docs/scaling.svg"
set title "tbbench on 16 cores: speedup of the solve against one thread"
set datafile separator ","
set xlabel "threads"
set ylabel "speedup (median wall time)"
set xrange [1:16]
set yrange [1:16]
set xtics (1,2,4,8,12,16)
set key top left
set grid
plot x title "ideal" with lines dashtype 2 lc rgb "gray", \
     0.85 * x title "85% efficiency" with lines dashtype 3 lc rgb "gray", \
     "docs/scaling/KRBvKR.csv" using 1:7 skip 1 title "KRBvKR" with linespoints pointtype 7 lw 2, \
     "docs/scaling/KQRvKN.csv" using 1:7 skip 1 title "KQRvKN" with linespoints pointtype 5 lw 2
