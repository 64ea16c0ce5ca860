# The lesson player in a real terminal: step forward and back, first and last step,
# every step kind drawn, the position saved and offered again on the home screen.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

tutor_start 100 30 -- --lang en lesson scaled-dot-product
expect_screen "lesson: opens at step 1" "lesson 3 · step 1/"
# the number of steps, as the lesson file has it today
N=$(line_of "lesson 3 · step 1/" | sed 's|.*step 1/\([0-9]*\).*|\1|')
keys Right
expect_screen "lesson: → goes to step 2" "lesson 3 · step 2/$N"
expect_screen "lesson: the formula step shows the formula" "softmax(QKᵀ / √dₖ) V"
keys l
expect_screen "lesson: l goes to step 3" "lesson 3 · step 3/$N"
keys Left
expect_screen "lesson: ← goes back to step 2" "lesson 3 · step 2/$N"
keys h
expect_screen "lesson: h goes back to step 1" "lesson 3 · step 1/$N"
keys PageDown PageDown PageDown
expect_screen "lesson: PgDn ×3 reaches the compute step" "lesson 3 · step 4/$N"
expect_screen "lesson: the compute step asks for a prediction first" "Predict first"
keys r
# softmax of [0.2 2.5 0.8 0.3 0.4 2.0]: 下雨 gets 0.4711 (computed by the engine)
expect_screen "lesson: compute step shows the engine's weights" "0.4711"
expect_screen "lesson: the weights table has straight borders" "│ 今天"
keys End
expect_screen "lesson: End goes to the last step" "lesson 3 · step $N/$N"
expect_screen "lesson: the last step is a question with an answer line" "Your answer:"
keys PageUp
expect_screen "lesson: PgUp goes back one step" "lesson 3 · step $((N - 1))/$N"
keys Home
expect_screen "lesson: Home goes to step 1" "lesson 3 · step 1/$N"
keys l l l l l
expect_screen "lesson: at step 6" "lesson 3 · step 6/$N"
keys q
wait_exit && ok "lesson: q leaves the tutor opened on a lesson" || not_ok "lesson: q leaves the tutor opened on a lesson"
expect_eq "lesson: exit status 0" 0 "$DEAD_STATUS"
if grep -q "step: 5" "$XDG_STATE_HOME/attn-tutor/progress.yaml" 2>/dev/null; then
  ok "lesson: the position is saved (step 6 is index 5)"
else
  not_ok "lesson: the position is saved (step 6 is index 5)" "$(cat "$XDG_STATE_HOME/attn-tutor/progress.yaml" 2>&1 | head -20)"
fi

# The home screen offers to continue there; Enter resumes at the saved step.
tutor_start 100 30 -- --lang en
expect_screen "home: continue where you left off" "Continue: Scaled dot-product attention, step 6"
expect_line "home: lesson 3 read to its end, questions untried: not done" "3\\. ▸ $N/$N +Q0/[0-9]+ +Scaled"
expect_not_screen "home: … no done mark for it" "3. ✓ done"
keys Enter
expect_screen "home: Enter resumes at step 6" "lesson 3 · step 6/$N"
keys q
expect_screen "lesson: q goes back home" "Self-attention, step by step"

# A lab step: the embedded heatmap, Enter opens the sentence in the lab.
tutor_start 100 30 -- --lang en lesson it-animal
expect_screen "lesson 4 opens" "lesson 4 · step 1/"
keys l
expect_screen "lab step: the sentence" "Lab: “The animal didn't cross the road because it was too tired.”"
expect_screen "lab step: a prediction first" "Predict first"
keys r
expect_line "lab step: the embedded heatmap has a row for 'it'" '^ it +([01]\.[0-9]{2} +)+'
keys Enter
expect_screen "lab step: Enter opens the lab" "Sentence: The animal didn't cross"
expect_screen "lab from a lesson: the focus token is selected" "Query 8: it"
keys q
expect_screen "lab: q goes back to the lesson" "lesson 4 · step 2/"

# 60×20: the same step still fits, nothing cut in half.
tutor_start 60 20 -- --lang en lesson scaled-dot-product
expect_screen "lesson 60×20: opens" "lesson 3 · step 1/$N"
keys j j j
expect_screen "lesson 60×20: scrolls" "↑"

# A compute step with one query (n_q = 1): Q and the scores are one row, as `show`
# prints them, never stood up as a column (4 queries with d = 1).
tutor_start 100 30 -- --lang en lesson scaled-dot-product
expect_screen "lesson: opens for the one-query compute" "lesson 3 · step 1/"
keys l l l l l l l
expect_screen "one query: step 8" "lesson 3 · step 8/"
keys r   # its prediction: shown without one
# the weights lead; scroll until the Q table is on screen whole
k=0
while [ $k -lt 40 ] && ! shows "K (keys)"; do keys j; k=$((k + 1)); done
# the table under "Q (queries)": a header row, then exactly one body row of d_k values
q_rows=$(printf '%s\n' "$SCREEN" | awk '/Q \(queries\)/{on=1; next} on && /└/{exit} on && /│/{n++} END{print n+0}')
expect_eq "one query: Q is a table of 2 lines (header, one query)" 2 "$q_rows"
expect_line "one query: the query row holds its 4 numbers" '^ +│ 1 +│ [-0-9.]+ +│ [-0-9.]+ +│ [-0-9.]+ +│ [-0-9.]+ +│$'
k=0
while [ $k -lt 60 ] && ! printf '%s\n' "$SCREEN" | sed -n '/Scores QKᵀ/,$p' | grep -q '└'; do
  keys j; k=$((k + 1)); frame
done
expect_screen "one query: the scores table scrolled into view" "Scores QKᵀ"
s_rows=$(printf '%s\n' "$SCREEN" | awk '/Scores QKᵀ/{on=1; next} on && /└/{exit} on && /│/{n++} END{print n+0}')
expect_eq "one query: the scores are one row (header + one row)" 2 "$s_rows"
keys q
# Opened directly (attn-tutor lesson ID) there is no home screen under the lesson: the
# status bar and the last step's note say q quits; from the home screen, q: home.
tutor_start 100 30 -- --lang en lesson misconceptions
expect_screen "lesson opened directly: the status bar says q: quit" "q: quit"
expect_not_screen "lesson opened directly: no promise of a home screen" "q: home"
tutor_start 100 30 -- --lang en
expect_screen "lesson from home: home opens" "Attention lab"
keys Enter
expect_screen "lesson from home: the status bar says q: home" "q: home"
keys q
expect_screen "lesson from home: q goes back home" "Self-attention, step by step"
