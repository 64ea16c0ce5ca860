# Compute steps in the lesson player: a matrix wider than the window shows the columns
# that fit, whole, and says which are left out; no number is split over two lines
# (lesson 3 steps 11 and 12, dₖ = 16, at 100×30 and 40×12).
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# go_step N: from step 1 to step N.
go_step() {
  i=1
  while [ $i -lt "$1" ]; do keys Right; i=$((i + 1)); done
  expect_screen "$2: at step $1" "step $1/"
}

# Every cell of every table line on screen is whole: empty, a label, "…", or a whole
# number (no "0." with its digits on the next line, no ".9" left over).
expect_whole_cells() {
  bad=$(printf '%s\n' "$SCREEN" | grep '│' | sed 's/│/\n/g' | sed 's/^ *//; s/ *$//' |
        grep -vE '^$|^[A-Za-z<>…]|^-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$' | head -3)
  expect_eq "$1" "" "$bad"
}

for size in "100 30" "40 12"; do
  set -- $size
  tag="compute view $1×$2"
  # a state folder of its own: the lesson opens at step 1, not where the last run left it
  mkdir -p "$E2E_TMP/state-$1"
  tutor_start "$1" "$2" XDG_STATE_HOME="$E2E_TMP/state-$1" -- --lang en lesson scaled-dot-product
  expect_screen "$tag: opens" "step 1/"
  for step in 11 12; do
    [ "$step" = 11 ] && go_step 11 "$tag" || { keys Right; expect_screen "$tag: at step 12" "step 12/"; }
    shows "Predict first" && keys r   # a prediction first: shown without one
    expect_whole_cells "$tag step $step: no number split over two lines (top)"
    # the results lead; the inputs follow: scroll to the Q table
    k=0
    while [ $k -lt 60 ] && ! shows "Q (queries)"; do keys j j; k=$((k + 1)); done
    expect_screen "$tag step $step: the Q table" "Q (queries)"
    k=0   # to the note under the Q table
    while [ $k -lt 20 ] && ! wait_line 'Columns? [0-9]+(–[0-9]+)? of 16 (is|are) left out' 0; do
      keys j; k=$((k + 1))
    done
    expect_line "$tag step $step: the note names the columns left out" 'Columns? [0-9]+(–[0-9]+)? of 16 (is|are) left out'
    # scroll through the step: every part of it keeps whole numbers
    k=0
    while [ $k -lt 6 ]; do keys j j j j j; k=$((k + 1)); done
    expect_whole_cells "$tag step $step: no number split over two lines (further down)"
  done
done

# Chinese: the same note, translated.
mkdir -p "$E2E_TMP/state-zh"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state-zh" -- --lang zh lesson scaled-dot-product
expect_screen "compute view zh: opens" "1/"
i=1; while [ $i -lt 11 ]; do keys Right; i=$((i + 1)); done
keys r
k=0
while [ $k -lt 60 ] && ! shows "列（共 16 列）未显示"; do keys j j; k=$((k + 1)); done
expect_line "compute view zh: the note in Chinese" '第 [0-9]+(–[0-9]+)? 列（共 16 列）未显示'
