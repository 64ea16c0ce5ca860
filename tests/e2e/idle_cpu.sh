# The tutor waiting for a key uses no CPU, also right after work on a long sentence:
# OpenBLAS's worker threads, once woken for a product, spin (sched_yield) for some
# 0.1 s before they sleep. The lab on 256 tokens (the longest sentence the mini-model
# takes: its 256×256×32 products reach the engine's two-thread threshold) with
# OPENBLAS_NUM_THREADS=2 set explicitly; each edit runs the model again. CPU time is read
# in ticks (user + system, /proc/PID/task/TID/stat), not wall time: a thread that
# sleeps uses none, whatever the machine's load.
#  - the worker threads (every thread but the main one): from before the edit until
#    2 s after the last one is on screen (five edits);
#  - the whole process: those 2 s.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

long=$(for i in $(seq 64); do printf 'the cat was tired '; done)
tutor_start 120 30 OPENBLAS_NUM_THREADS=2 -- --lang en lab "$long"
expect_screen "idle: the lab on 256 tokens" "256 tokens" 20
sh_pid=$($TM display-message -p '#{pane_pid}')
pid=$(pgrep -P "$sh_pid" | head -1)
# ticks [others]: CPU ticks of the process's threads (all, or all but the main one)
ticks() {
  for t in /proc/"$pid"/task/*; do
    [ "${1:-}" = others ] && [ "${t##*/}" = "$pid" ] && continue
    awk '{ print $14 + $15 }' "$t/stat" 2>/dev/null
  done | awk '{ s += $1 } END { print s + 0 }'
}
if [ -z "$pid" ] || [ ! -r "/proc/$pid/stat" ]; then
  not_ok "idle: the tutor's process is found" "pane pid $sh_pid"
  exit 0
fi
nthreads=$(ls /proc/"$pid"/task | wc -l)
sleep 1   # OpenBLAS's workers spin for some 0.1 s after they start, at load
w0=$(ticks others)
keys i Home
# five edits, each computed and drawn before the next: "athe", "aathe" … "aaaaathe",
# still 256 tokens, the model runs again each time
for e in a aa aaa aaaa aaaaa; do
  keys a
  wait_for "Query 1: ${e}the" 20 || break
done
expect_screen "idle: five edits computed" "Query 1: aaaaathe" 20
a=$(ticks)
sleep 2
b=$(ticks)
w1=$(ticks others)
hz=$(getconf CLK_TCK)
if [ $((w1 - w0)) -le 1 ]; then
  ok "idle: OpenBLAS's $((nthreads - 1)) worker thread(s) used $((w1 - w0)) ticks in five edits and 2 s after (at most 1; $hz a second)"
else
  not_ok "idle: OpenBLAS's worker threads used at most 1 tick in five edits and 2 s after" \
    "used $((w1 - w0)) ticks ($hz a second), $nthreads threads"
fi
if [ $((b - a)) -le 1 ]; then
  ok "idle: $((b - a)) ticks in 2 s waiting for a key (at most 1)"
else
  not_ok "idle: at most 1 tick in 2 s waiting for a key" "used $((b - a)) ticks"
fi
keys Escape q
wait_exit 10 || keys q
