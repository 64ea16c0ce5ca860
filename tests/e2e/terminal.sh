# Terminal behaviour: resize storms (case 8), the smallest size, NO_COLOR, TERM=dumb
# and no terminal at all.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

tutor_start 100 30 -- --lang en lab "小明今天没来学校"
expect_screen "resize: an 8-token heatmap on screen" "8 tokens"
resize 20 5
expect_screen "resize 20×5: says the terminal is too small" "too small"
expect_screen "resize 20×5: says how big it must be" "40×12"
resize 1 1
if pane_dead; then not_ok "resize 1×1: still running" "exit status $DEAD_STATUS"; else ok "resize 1×1: still running"; fi
resize 80 24
expect_screen "resize back to 80×24: full redraw" "8 tokens"
wait_gone "too small" && ok "resize 80×24: the too-small message is gone" || not_ok "resize 80×24: the too-small message is gone" "$SCREEN"
# one resize after another, without waiting for the frames between (100×30 only last:
# a frame of that size is the one after the storm)
frame
for s in "30 8" "1 1" "120 40" "2 3" "41 13" "1 1" "99 29" "5 60"; do
  $TM resize-window -x ${s% *} -y ${s#* }
done
resize 100 30
expect_screen "resize storm, back to 100×30: heatmap redrawn" "8 tokens"
expect_screen "resize storm: row labels intact" "学校"
if pane_dead; then not_ok "resize storm: no crash" "exit status $DEAD_STATUS"; else ok "resize storm: no crash"; fi

# 40×12 is enough, 39×11 is not.
tutor_start 40 12 -- --lang en lab "小明今天没来学校"
expect_screen "40×12 works" "Sentence:"
expect_not_screen "40×12 is not too small" "too small"
resize 39 11
expect_screen "39×11 says too small" "Terminal too small"
expect_screen "39×11 names the size it needs" "needs 40×12"
resize 40 12
expect_screen "40×12 again: back" "Sentence:"

# NO_COLOR: no colour escapes; the heatmap uses shade characters instead.
tutor_start 100 30 NO_COLOR=1 -- --lang en lab "The animal didn't cross the road because it was too tired."
expect_screen "NO_COLOR: lab drawn" "12 tokens"
esc=$(screen -e)
case "$esc" in
  *"[3"[0-7]"m"*|*"38;5;"*|*"48;5;"*|*"[4"[0-7]"m"*) not_ok "NO_COLOR: no colour escapes" ;;
  *) ok "NO_COLOR: no colour escapes" ;;
esac
case "$SCREEN" in *░*|*▒*|*▓*|*█*) ok "NO_COLOR: shade characters in the heatmap" ;; *) not_ok "NO_COLOR: shade characters in the heatmap" "$SCREEN" ;; esac
tutor_start 100 30 -- --lang en lab "The animal didn't cross the road because it was too tired."
expect_screen "colour: lab drawn" "12 tokens"
esc=$(screen -e)
case "$esc" in *"48;5;"*) ok "colour: a 256-colour ramp" ;; *) not_ok "colour: a 256-colour ramp" ;; esac

# Without a usable terminal: a clear message naming the commands that need none.
out=$(TERM=dumb "$AT_BIN" --lang en lab 2>&1 </dev/null); rc=$?
expect_eq "no terminal: exit status 1" 1 "$rc"
expect_contains "no terminal: points at attend" "attn-tutor attend" "$out"
# TERM=dumb inside a real terminal: the exit status is echoed by a wrapper shell.
e2e_next_server
$TM new-session -d -x 100 -y 30 -- sh -c 'TERM=dumb "$0" --lang en; echo "exit status: $?"; exec sleep 600' "$AT_BIN"
expect_screen "TERM=dumb in a terminal: exit status 1" "exit status: 1"
expect_screen "TERM=dumb: says why" 'this terminal type (TERM=dumb) cannot draw'
expect_screen "TERM=dumb: points at attend" "attn-tutor attend"
# the terminal type is the reason even when stdin is redirected, and for unknown types
e2e_next_server
$TM new-session -d -x 100 -y 30 -- sh -c 'TERM=dumb "$0" --lang en </dev/null; TERM=no-such-term "$0" lab </dev/null; echo "both ended"; exec sleep 600' "$AT_BIN"
expect_screen "TERM=dumb, stdin redirected: both ended" "both ended"
case "$SCREEN" in *"are not one"*) not_ok "TERM=dumb in a terminal: not blamed on stdin" "$SCREEN" ;; *) ok "TERM=dumb in a terminal: not blamed on stdin" ;; esac
expect_screen "unknown TERM: named as the reason" 'this terminal type (TERM=no-such-term) cannot draw'

# Bad use of the screen commands: a clear message and exit status 2, before any terminal.
out=$("$AT_BIN" --lang en lesson no-such-lesson 2>&1 </dev/null); rc=$?
expect_eq "lesson with an unknown id: exit status 2" 2 "$rc"
expect_contains "lesson with an unknown id: names the lessons there are" "there are: why-attention" "$out"
expect_status "lab with two arguments: exit status 2" 2 "$AT_BIN" lab one two
expect_status "quiz with an argument: exit status 2" 2 "$AT_BIN" quiz now
out=$("$AT_BIN" lab --help); rc=$?
expect_eq "lab --help: exit status 0" 0 "$rc"
expect_contains "lab --help: usage" "lab [SENTENCE]" "$out"
