# Predict, then reveal: a step with a prediction shows its prompt and its inputs, not its
# result, until the student commits (a number on the answer line, a letter, a key chosen
# with the arrows in the heatmap) or presses r; then the result comes with what was
# predicted beside the engine's answer. What a step's prediction came to stays when the
# student goes back to it. Lessons 3 and 4 as shipped, in English and Chinese, at 100×30
# and 40×12.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# to_prediction TAG: Right until a step asks for a prediction (at most 30 steps).
to_prediction() {
  k=0
  while [ $k -lt 30 ] && ! shows "$2"; do keys Right; k=$((k + 1)); done
  expect_screen "$1" "$2"
}

mkdir -p "$E2E_TMP/state1"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state1" -- --lang en lesson scaled-dot-product
expect_screen "predict: lesson 3 opens" "lesson 3 · step 1/"
to_prediction "predict: a step asks for a prediction first" "Predict first"
expect_screen "predict: … the weight of 下雨" "What weight will 下雨 get?"
expect_screen "predict: … with the scores it is given" "Scores (already scaled)"
expect_not_screen "predict: the weights are not shown before the prediction" "Weights = softmax"
expect_not_screen "predict: the engine's value is not shown before the prediction" "0.4711"
step=$(line_of "lesson 3 · step" | sed 's|.*step \([0-9]*\)/.*|\1|')
type_text "0.4"
expect_screen "predict: the number typed on the prediction line" "Your prediction: 0.4"
keys Enter
expect_screen "predict: the reveal compares the prediction with the engine" \
  "You predicted 0.4; the engine computes 0.4711, 0.071 higher than your prediction."
expect_screen "predict: … and shows the weights" "Weights = softmax of each row"
expect_screen "predict: … on the same step" "lesson 3 · step $step/"
keys Left
expect_not_screen "predict: ← goes to the step before" "lesson 3 · step $step/"
keys Right
expect_screen "predict: back on the step, the prediction is remembered" "You predicted 0.4"
keys Right
to_prediction "predict: the next prediction (a choice)" "with 10 added to every score"
expect_not_screen "predict: the choice's result is hidden" "Weights = softmax"
keys a
expect_screen "predict: a letter commits the choice" "✓ You predicted a) They are the same as the first row's — right."
expect_screen "predict: … with the explanation" "Adding c to every score"
keys Right
to_prediction "predict: the next prediction" "This step scales by 1/√4"
keys r
expect_screen "predict: r reveals without a prediction" "Not predicted"
expect_screen "predict: … and names the answer" "The answer: a) It grows."
expect_screen "predict: … with the result" "Weights = softmax of each row"
keys q
wait_exit >/dev/null

# A token chosen in the heatmap (lesson 4): the weights hidden, ← → move along the row of
# "it" without leaving the step, Enter commits.
mkdir -p "$E2E_TMP/state2"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state2" -- --lang en lesson it-animal
expect_screen "predict token: lesson 4 opens" "lesson 4 · step 1/"
keys Right
expect_screen "predict token: the lab step asks first" "which word will \"it\" weigh most?"
expect_line "predict token: the row of 'it' shows no weights, the cursor cell a ?" '^ it +([·?] +)+[·?]$'
expect_not_screen "predict token: no weight in the hidden heatmap" "0.00"
keys Right
expect_screen "predict token: → moves the choice, not the step" "lesson 4 · step 2/"
keys Enter
expect_screen "predict token: Enter commits the key under the cursor" \
  "✓ You picked animal, and it gives it the largest weight"
expect_line "predict token: the weights are shown" '^ it +([01]\.[0-9]{2} +)+'
keys Right
expect_screen "predict token: after the reveal → goes on" "lesson 4 · step 3/"
keys q
wait_exit >/dev/null

# Chinese: a choice before a lab step, and the number prediction's words.
mkdir -p "$E2E_TMP/state3"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state3" -- --lang zh lesson it-animal
expect_screen "predict zh: lesson 4 opens" "第 4 课"
keys Right
expect_screen "predict zh: the prompt" "先预测"
keys a
expect_screen "predict zh: the reveal" "✓ 你预测的是 a) 动物 —— 对了。"
keys q
wait_exit >/dev/null
mkdir -p "$E2E_TMP/state4"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state4" -- --lang zh lesson scaled-dot-product
to_prediction "predict zh: lesson 3's number prediction" "先预测"
type_text "0.3"
keys Enter
expect_screen "predict zh: the comparison in Chinese" "你预测的是 0.3，引擎算出 0.4711，比你的预测高 0.17。"
keys q
wait_exit >/dev/null

# 40×12: the same flow on the smallest screen.
mkdir -p "$E2E_TMP/state5"
tutor_start 40 12 XDG_STATE_HOME="$E2E_TMP/state5" -- --lang en lesson scaled-dot-product
to_prediction "predict 40×12: the prompt" "Predict first"
type_text "0.47"
keys Enter
expect_screen "predict 40×12: the reveal" "✓ You predicted 0.47"
keys q
wait_exit >/dev/null
