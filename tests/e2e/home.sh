# The home screen: rows laid out by display width at 40×12 (marks, a gap, the label),
# the status keys dropped whole, the self-test entry only when the lessons have one,
# its question count the one the quiz shows.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# progress in lesson 3, then home at 40×12 in Chinese
tutor_start 100 30 -- --lang zh lesson scaled-dot-product
expect_screen "home: lesson 3 opens" "第 1/"
N=$(line_of "第 1/" | sed 's|.*第 1/\([0-9]*\) 步.*|\1|')
keys l l l l l l l
expect_screen "home: at step 8" "第 8/$N 步"
keys q
wait_exit >/dev/null
tutor_start 100 30 -- --lang zh
wait_line '\? 帮助' >/dev/null
full=$(printf '%s\n' "$SCREEN" | tail -1 | sed 's/? 帮助.*//; s/^ *//; s/ *$//')
resize 40 12
expect_line "home 40×12: the number, the progress mark, a gap, then the lesson" '[0-9]+\. ▸ [0-9]+/[0-9]+( 题[0-9]+/[0-9]+)? +[^ ]'
case "$SCREEN" in *"题0"[0-9]"."*|*"题0"[0-9]"缩"*) not_ok "home 40×12: no question count glued to the lesson" "$SCREEN" ;; *) ok "home 40×12: no question count glued to the lesson" ;; esac
expect_line "home 40×12: a new lesson keeps its mark" '[0-9]+\. · [^ ]+( 题[0-9]+/[0-9]+)? +[^ ]'
bar=$(printf '%s\n' "$SCREEN" | tail -1 | sed 's/? 帮助.*//; s/^ *//; s/ *$//')
case "$full" in
  "$bar") ok "home 40×12: the status keys are whole items" ;;
  "$bar · "*) ok "home 40×12: the status keys are whole items" ;;
  *) not_ok "home 40×12: the status keys are whole items" "bar: $bar" "full: $full" ;;
esac
keys q

# The self-test: counted from the lesson, the same count as the quiz.
tutor_start 100 30 -- --lang en
expect_line "home: the self-test entry counts its questions" 'Self-test: [0-9]+ questions'
n=$(printf '%s\n' "$LINE" | sed 's/.*Self-test: \([0-9]*\) questions.*/\1/')
keys t
expect_screen "quiz: the same count as the home says" "question 1 of $n"
keys q q

# Lessons without a self-test: no entry.
mkdir -p "$E2E_TMP/less/en"
cp lessons/en/01-why-attention.yaml lessons/en/02-qkv.yaml "$E2E_TMP/less/en/"
tutor_start 100 30 -- --lang en --lessons "$E2E_TMP/less"
expect_screen "lessons without a self-test: the home opens" "Attention lab"
case "$SCREEN" in *"Self-test"*) not_ok "lessons without a self-test: no self-test entry" "$SCREEN" ;; *) ok "lessons without a self-test: no self-test entry" ;; esac
keys q

# A damaged progress file: the notice is wrapped, the .damaged- file name shows whole.
for size in "100 30" "40 12"; do
  e2e_next_server
  rm -rf "$XDG_STATE_HOME/attn-tutor"
  mkdir -p "$XDG_STATE_HOME/attn-tutor"
  printf 'lessons: [unclosed\n  : : :\n' > "$XDG_STATE_HOME/attn-tutor/progress.yaml"
  tutor_start ${size% *} ${size#* } -- --lang en
  wait_for "damaged" >/dev/null
  name=$(ls "$XDG_STATE_HOME/attn-tutor" | grep damaged | head -1)
  if [ -n "$name" ]; then
    joined=$(printf '%s\n' "$SCREEN" | sed 's/^ *//; s/ *$//' | tr -d '\n')
    case "$joined" in
      *"$name"*) ok "damaged progress at ${size% *}×${size#* }: the kept file's name shows whole" ;;
      *) not_ok "damaged progress at ${size% *}×${size#* }: the kept file's name shows whole" "$name" "$SCREEN" ;;
    esac
  else
    not_ok "damaged progress at ${size% *}×${size#* }: a .damaged- copy is kept" "$(ls "$XDG_STATE_HOME/attn-tutor")"
  fi
  keys q
done

# "Done" means every question of the lesson was tried: paged through to its end, a lesson
# with an untried question is at its last step, not done; once the question is answered
# (right or not) it is done.
mkdir -p "$E2E_TMP/done/en" "$E2E_TMP/state-done"
cat > "$E2E_TMP/done/en/01-done.yaml" <<'YAML'
id: done-rule
lang: en
title: One question
steps:
  - text: Read me.
  - question:
      id: d1
      kind: choice
      prompt: Which?
      options:
        - {text: this one, correct: true}
        - {text: that one}
YAML
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/state-done" -- --lang en --lessons "$E2E_TMP/done"
expect_screen "done rule: the home opens" "One question"
keys Enter
expect_screen "done rule: the lesson opens" "lesson 1 · step 1/2"
keys Right
expect_screen "done rule: the question, not answered" "Question d1"
keys q
expect_line "done rule: paged to the end, a question untried: not done" '1\. ▸ 2/2 +Q0/1 +One question'
keys Enter
expect_screen "done rule: back on the question" "Question d1"
keys b
expect_screen "done rule: a letter answers (wrong here)" "✗ Not right yet"
keys q
expect_line "done rule: every question tried: done" '1\. ✓ done +Q0/1 +One question'
keys q
