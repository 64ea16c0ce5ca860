#!/bin/sh
# Runs the UI latency benchmark (build/bench/ui_latency) and puts its table in the
# "UI latency" section of bench/RESULTS.md, replacing that section only (the rest of
# the file belongs to the engine benchmark). Not a test: nothing passes or fails.
# Usage: bench/ui_latency.sh [EDITS] [STARTS] [HF_EDITS]
set -eu
cd "$(dirname "$0")/.."
bin=build/bench/ui_latency
edits=${1:-2000}
starts=${2:-20}
hf_edits=${3:-200}
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
table=$(XDG_STATE_HOME="$state" "$bin" "$edits" "$starts" "$hf_edits")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
cpus=$(nproc)
section=$(cat <<EOT
<!-- ui-latency: written by bench/ui_latency.sh (make bench-ui) -->
## UI latency (the lab)

$(date -u '+%Y-%m-%d %H:%M UTC'); $cpus cores; load average $load_before before, $load_after after
(other programs were running: wall-clock times include waiting for a core, CPU times do not).

$table

- Keystroke: the lab on a 40-token sentence at 100×30; each edit (a letter, then
  Backspace) runs the screen's key handler (tokenise, run the mini-model: every layer and
  head), then the full redraw and ncurses' doupdate into a terminal that discards its
  output, so the terminal emulator's own time is not counted.
- Start-up: \`attn-tutor lab SENTENCE\` forked on a 100×30 pseudo-terminal, until the first
  frame's text ("40 tokens") has been written; the process is then killed.
- GPT-2 small: a Hugging Face folder of GPT-2 small's shapes (12 layers × 12 heads,
  d_model 768, 124 M parameters, F32, GPT-2's real vocabulary) with random weights, written
  once into build/bench/gpt2-small. Open: config.json, mapping and checking every tensor,
  the tokenizer. Typing at the end: a letter then Backspace at the end of the sentence,
  each through the lab with its key/value cache (only the changed last tokens are
  computed, the weights streamed once by sgemv); an edit at the start: the same at the
  first character (every token computed again). The benchmark process does not pick
  OpenBLAS's core as \`attn-tutor\` does at start-up (set OPENBLAS_CORETYPE to compare).
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
