#!/bin/sh
# Runs the UI latency benchmark (build/bench/ui_latency) RUNS times, one after the
# other, and puts the merged table (median [min–max] over the runs of each median and
# p95, bench/ui_latency_merge.awk) in the "UI latency" section of bench/RESULTS.md,
# replacing that section only (the rest of the file belongs to the engine benchmark).
# Not a test: nothing passes or fails.
# Usage: bench/ui_latency.sh [EDITS] [STARTS] [HF_EDITS] [RUNS]   (RUNS: 3)
set -eu
cd "$(dirname "$0")/.."
bin=build/bench/ui_latency
edits=${1:-2000}
starts=${2:-20}
hf_edits=${3:-200}
runs=${4:-3}
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
loads=""
i=1
while [ "$i" -le "$runs" ]; do
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  XDG_STATE_HOME="$state" "$bin" "$edits" "$starts" "$hf_edits" > "$state/run.$i"
  loads="$loads${loads:+; }$before → $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "bench: UI latency run $i of $runs done"
  i=$((i + 1))
done
files=$(i=1; while [ "$i" -le "$runs" ]; do printf '%s ' "$state/run.$i"; i=$((i + 1)); done)
# shellcheck disable=SC2086
table=$(awk -f bench/ui_latency_merge.awk $files)
cpus=$(nproc)
section=$(cat <<EOT
<!-- ui-latency: written by bench/ui_latency.sh (make bench-ui) -->
## UI latency (the lab)

$(date -u '+%Y-%m-%d %H:%M UTC'); $cpus cores; $runs runs one after the other.
Load average (1, 5, 15 minutes) before → after each run: $loads.
Other programs were running: wall-clock times include waiting for a core, and CPU times
waiting for the memory they also use.

$table

- Each figure is the median over the runs, with the lowest and highest in brackets.
  CPU time is the whole process's (the tutor's thread and OpenBLAS's threads).
- Keystroke: the lab on a 40-token sentence at 100×30; each edit (a letter, then
  Backspace) runs the screen's key handler (tokenise, run the mini-model: every layer and
  head), then the full redraw and ncurses' doupdate into a terminal that discards its
  output, so the terminal emulator's own time is not counted.
- Start-up: \`attn-tutor lab SENTENCE\` forked on a 100×30 pseudo-terminal, until the first
  frame's text ("40 tokens") has been written; the process is then killed.
- GPT-2 small: a Hugging Face folder of GPT-2 small's shapes (12 layers × 12 heads,
  d_model 768, 124 M parameters, F32, GPT-2's real vocabulary) with random weights, written
  once into build/bench/gpt2-small. Open: config.json, mapping and checking every tensor,
  the tokenizer. Typing at the end: a letter then Backspace at the end of the sentence
  through the lab and its key/value cache: a letter computes the one new token, each
  block's weights streamed once by sgemv; Backspace back to the sentence before computes
  nothing. An edit at the start: the same at the first character (every token computed
  again, by sgemm). The lab computes a layer when it is shown (layers above wait until
  [ ] or f asks for them): "layer 1 shown" is the lab's first view, "layer 12 shown"
  computes all 12 layers on every edit. "The letters alone" is the p95 of the typed
  letters without the Backspaces.
- The benchmark runs on the OpenBLAS core attn-tutor would run (its start-up: the core
  for the CPU's features unless OPENBLAS_CORETYPE is set), named under the table.
<!-- /ui-latency -->
EOT
)
out=bench/RESULTS.md
touch "$out"
tmp="$out.tmp.$$"
# drop an earlier UI latency section, then append this one
awk '/<!-- ui-latency/ { skip = 1 } !skip { print } /<!-- \/ui-latency -->/ { skip = 0 }' "$out" > "$tmp"
printf '\n%s\n' "$section" >> "$tmp"
mv "$tmp" "$out"
printf '%s\n' "$table"
echo "bench: UI latency written to $out"
