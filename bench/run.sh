#!/bin/sh
# Runs the attention benchmarks and writes bench/RESULTS.md (not a test: nothing here
# passes or fails). One thread throughout (the targets are one-thread figures; a second
# thread on a 2-core machine shared with other work would measure the neighbours).
# In every round: one bench_peers process (the engine, oneDNN, a plain OpenBLAS user and
# llm.c's loop, interleaved) and one bench_python.py process (numpy, PyTorch,
# interleaved), alternately first, then OpenBLAS's square sgemm with the core in use and
# with the best core for this CPU. Then the fused kernel against the two-pass one, and
# the memory without weights. bench/report.py turns the JSON lines into the report; the
# UI latency section (make bench-ui) is kept as it was.
# Usage: bench/run.sh [--quick]        (--quick: n up to 256, 2 rounds)
#        ROUNDS=R bench/run.sh         (default 3 rounds)
set -eu
cd "$(dirname "$0")/.."
# Debian's interpreter, where python3-numpy and python3-torch are installed.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
sizes=8,16,64,256,1024,4096
rounds=${ROUNDS:-3}
cross=8,16,32,64,128,256,512,1024,4096
if [ "${1:-}" = --quick ]; then sizes=8,16,64,256 rounds=2 cross=8,16,64,256; fi
out=build/bench/results.jsonl
mkdir -p build/bench
cores=$(getconf _NPROCESSORS_ONLN)   # (nproc would follow OMP_NUM_THREADS, set below)
: > "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
date=$(date -u '+%Y-%m-%d %H:%M UTC')
c_round() {
  echo "bench: round $1: engine, oneDNN, plain OpenBLAS, llm.c loop (n = $sizes)"
  build/bench/bench_peers --sizes "$sizes" --round "$1" >> "$out"
}
py_round() {
  echo "bench: round $1: numpy, PyTorch (n = $sizes)"
  "$py" bench/bench_python.py --sizes "$sizes" --round "$1" >> "$out"
}
r=1
while [ "$r" -le "$rounds" ]; do
  printf '{"impl":"load","round":%d,"load":"%s"}\n' "$r" "$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
  if [ $((r % 2)) -eq 1 ]; then c_round "$r"; py_round "$r"; else py_round "$r"; c_round "$r"; fi
  echo "bench: round $r: square sgemm, the core in use and the best core for this CPU"
  build/bench/bench_peers --sgemm 2048 --round "$r" >> "$out"
  [ -n "${OPENBLAS_CORETYPE:-}" ] && env -u OPENBLAS_CORETYPE build/bench/bench_peers --sgemm 2048 --round "$r" >> "$out"
  r=$((r + 1))
done
echo "bench: the fused kernel against the two-pass one, interleaved (n = $cross)"
build/bench/bench_attention --sizes "$cross" --crossover 3 >> "$out"
echo "bench: memory without weights (n = 16384, 8 heads)"
build/bench/bench_memory --n 16384 >> "$out"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cmd="make bench"
[ "${1:-}" = --quick ] && cmd="bench/run.sh --quick"
[ -n "${ROUNDS:-}" ] && cmd="ROUNDS=$ROUNDS $cmd"
report=bench/RESULTS.md
tmp="$report.tmp.$$"
"$py" bench/report.py --command "$cmd" --date "$date" --load-before "$load_before" \
  --load-after "$load_after" --cores "$cores" "$out" > "$tmp"
# the UI latency section belongs to bench/ui_latency.sh (make bench-ui): keep it
if [ -f "$report" ] && grep -q '<!-- ui-latency' "$report"; then
  printf '\n' >> "$tmp"
  awk '/<!-- ui-latency/ { keep = 1 } keep { print } /<!-- \/ui-latency -->/ { keep = 0 }' "$report" >> "$tmp"
fi
mv "$tmp" "$report"
echo "bench: wrote $report"
