# Compute steps in the lesson player show what `attn-tutor show` prints for them: the
# header (n_q, n_k, d_k, d_v, heads, scale) and the variance of the raw scores, the
# same numbers (lesson 3 steps 8–17, where the variance follows dₖ); and the mask a
# lesson gives, as rows of 1 and 0 (lesson 6 step 5).
. tests/lib.sh
. tests/e2e/lib/tmux.sh

SHOW=$("$AT_BIN" --lang en show scaled-dot-product 2>&1)
# show_line STEP PREFIX: the first line of show's step STEP starting with PREFIX.
show_line() {
  printf '%s\n' "$SHOW" | awk -v s="--- step $1 of" -v p="$2" '
    index($0, "--- step ") == 1 { on = (index($0, s) == 1) }
    on && index($0, p) == 1 { print; exit }'
}

mkdir -p "$E2E_TMP/state-en3"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state-en3" -- --lang en lesson scaled-dot-product
expect_screen "compute steps: lesson 3 opens" "step 1/"
at=1
for step in 8 9 11 12 14 15 16 17; do
  while [ $at -lt $step ]; do keys Right; at=$((at + 1)); done
  expect_screen "compute steps: at step $step" "step $step/"
  shows "Predict first" && keys r   # a prediction first: shown without one
  want=$(show_line $step "n_q = " | sed 's|√d_k|√dₖ|')
  expect_screen "compute steps: step $step has show's header ($want)" "$want"
  want=$(show_line $step "variance of the raw scores q·k: " | sed 's/^variance/Variance/')
  k=0
  while [ $k -lt 40 ] && ! shows "Variance of the raw"; do keys j j j j j; k=$((k + 1)); done
  expect_screen "compute steps: step $step has show's variance ($want)" "$want"
done

# Lesson 6 step 5: padding and causal masks written out as rows of 1 and 0.
mkdir -p "$E2E_TMP/state-en6" "$E2E_TMP/state-zh6"
tutor_start 100 40 XDG_STATE_HOME="$E2E_TMP/state-en6" -- --lang en lesson masking
expect_screen "mask: lesson 6 opens" "step 1/"
keys Right Right Right Right
expect_screen "mask: step 5" "step 5/"
keys r   # its prediction: shown without one
# the weights lead; the mask is among the inputs below them: scroll until its table ends
k=0
while [ $k -lt 40 ] && ! printf '%s\n' "$SCREEN" | sed -n '/Mask (1 = may attend/,$p' | grep -q '└'; do
  keys j j j; k=$((k + 1)); frame
done
expect_screen "mask: the mask is shown" "Mask (1 = may attend, 0 = masked)"
rows=$(printf '%s\n' "$SCREEN" | sed -n '/Mask (1 = may attend/,/└/p' | grep '│' | tr -d ' ' | tr '\n' ' ')
expect_eq "mask: its rows, as the lesson gives them" "││<pad>│I│am│ │<pad>│0│0│0│ │I│0│1│0│ │am│0│1│1│ " "$rows"

tutor_start 100 40 XDG_STATE_HOME="$E2E_TMP/state-zh6" -- --lang zh lesson masking
expect_screen "mask zh: lesson 6 opens" "1/"
keys Right Right Right Right
keys r
expect_screen "mask zh: the header in Chinese" "个查询"
k=0
while [ $k -lt 40 ] && ! shows "掩码（1 = 可以关注"; do keys j j j; k=$((k + 1)); done
expect_screen "mask zh: the mask is shown in Chinese" "掩码（1 = 可以关注，0 = 已遮住）"
