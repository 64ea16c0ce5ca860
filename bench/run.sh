#!/bin/sh
# Runs the attention benchmark and writes bench/RESULTS.md (not a test: nothing here
# passes or fails). Engine, numpy and PyTorch on the same shapes in the same run,
# with 1 and 2 threads, plus OpenBLAS's own sgemm, case 3 and thread thresholds.
# Usage: bench/run.sh [--quick]   (--quick: n up to 256, for trying it out)
set -eu
cd "$(dirname "$0")/.."
# Debian's interpreter, where python3-numpy and python3-torch are installed.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
bin=build/bench/bench_attention
sizes=8,16,64,256,1024,4096
[ "${1:-}" = --quick ] && sizes=8,16,64,256
out=build/bench/results.jsonl
mkdir -p build/bench
: > "$out"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
date=$(date -u '+%Y-%m-%d %H:%M UTC')

echo "bench: case 3 (default configuration, then one thread)"
env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS "$bin" --case3 100000 >> "$out"
echo "bench: where a second thread pays"
env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS "$bin" --thread-thresholds >> "$out"
for t in 1 2; do
  for n in $(echo "$sizes" | tr ',' ' '); do
    echo "bench: $t thread(s), n = $n: engine, numpy, PyTorch"
    sgemm=0
    [ "$n" = "$(echo "$sizes" | cut -d, -f1)" ] && sgemm=2048
    OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t "$bin" --sizes "$n" --sgemm "$sgemm" >> "$out"
    OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t "$py" bench/bench_python.py --threads "$t" \
      --sizes "$n" >> "$out"
  done
done
echo "bench: memory without weights (n = 16384, 8 heads, 1 thread)"
OPENBLAS_NUM_THREADS=1 build/bench/bench_memory --n 16384 >> "$out"
echo "bench: the O(n) kernel against the two-pass one, interleaved (1 thread)"
OPENBLAS_NUM_THREADS=1 build/bench/bench_memory --compare 256,1024,4096 --rounds 9 >> "$out"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cmd="make bench"
[ "${1:-}" = --quick ] && cmd="bench/run.sh --quick"
"$py" bench/report.py --command "$cmd" --date "$date" --load-before "$load_before" \
  --load-after "$load_after" "$out" > bench/RESULTS.md
echo "bench: wrote bench/RESULTS.md"
