#!/bin/sh
# Runs the UI latency benchmark (build/bench/ui_latency) and puts its table in the
# "UI latency" section of bench/RESULTS.md, replacing that section only (the rest of
# the file belongs to the engine benchmark). Not a test: nothing passes or fails.
# Usage: bench/ui_latency.sh [EDITS] [STARTS]
set -eu
cd "$(dirname "$0")/.."
bin=build/bench/ui_latency
edits=${1:-2000}
starts=${2:-20}
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
table=$(XDG_STATE_HOME="$state" "$bin" "$edits" "$starts")
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
