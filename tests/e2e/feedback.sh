# Grader feedback on the tutor's question screens keeps the lines the command line
# prints: each key idea (✓/✗) and each worked step (1. 2. 3.) starts its own line,
# and an item too long for the window wraps under its own text (a hanging indent).
# Compared with `attn-tutor check` for the same answers (self-test q1 and q3).
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# item_starts NAME CLI_OUTPUT: every list line of the CLI output ("  ✗ …", "  1. …")
# starts a screen line (after spaces), with its first words.
item_starts() {
  printf '%s\n' "$2" | grep -E '^  +([✓✗]|[0-9]+\.) ' | while IFS= read -r item; do
    first=$(printf '%s' "$item" | sed 's/^ *//' | cut -d' ' -f1-4)
    printf '%s\n' "$SCREEN" | sed 's/^ *//' |
      awk -v f="$first" 'index($0, f) == 1 { found = 1 } END { exit !found }' ||
      echo "no line starts with: $first"
  done | head -3
}

for size in "100 30" "60 40"; do
  set -- $size
  tag="feedback $1×$2"
  mkdir -p "$E2E_TMP/state-$1"
  tutor_start "$1" "$2" XDG_STATE_HOME="$E2E_TMP/state-$1" -- --lang en quiz
  expect_screen "$tag: q1" "Question q1"
  keys a
  type_text "An RNN passes information one step at a time."
  keys Enter
  expect_screen "$tag: q1 graded" "Key ideas found"
  expect_not_screen "$tag: q1: what is missing and the reference wait for a second try or r" "Reference answer:"
  keys r
  expect_screen "$tag: q1: r shows the reference" "Reference answer:"
  k=0   # r scrolls to the reference: back up to the key ideas
  while [ $k -lt 10 ] && ! shows "Key ideas found"; do keys k k k; k=$((k + 1)); done
  expect_screen "$tag: q1: r shows what is missing" "Missing:"
  cli=$("$AT_BIN" --lang en check q1 "An RNN passes information one step at a time." --reveal 2>&1)
  expect_eq "$tag: q1: each key idea on its own line" "" "$(item_starts q1 "$cli")"
  expect_line "$tag: q1: 'Missing:' is a line of its own" '^ +Missing: *$'
  expect_line "$tag: q1: the count of key ideas ends its line" '^ +Key ideas found \(1 of [0-9]+, [0-9]+ needed\): *$'
  mkdir -p "$E2E_TMP/state-q3-$1"
  tutor_start "$1" "$2" XDG_STATE_HOME="$E2E_TMP/state-q3-$1" -- --lang en quiz
  expect_screen "$tag: the quiz again" "Question q1"
  i=0
  while [ $i -lt 8 ] && ! shows "Question q3"; do keys Right; i=$((i + 1)); done
  expect_screen "$tag: q3" "Question q3"
  keys a
  type_text "0.125 0.208"
  keys Enter
  expect_screen "$tag: q3 graded" "✗ Not right yet"
  k=0
  while [ $k -lt 10 ] && ! shows "Press a to try again"; do keys j j j; k=$((k + 1)); done
  expect_line "$tag: q3: the diagnosis starts its own line" '^ +It looks like the exp was skipped'
  keys r
  expect_screen "$tag: q3: r shows the worked steps" "The steps, with the engine"
  k=0
  while [ $k -lt 10 ] && ! shows "3. each exp divided"; do keys j j j; k=$((k + 1)); done
  cli=$("$AT_BIN" --lang en check q3 "0.125 0.208" --reveal 2>&1)
  expect_eq "$tag: q3: each worked step on its own line" "" "$(item_starts q3 "$cli")"
  # step 1 is longer than the line: its continuation starts under "exp", not under "1."
  col1=$(printf '%s\n' "$SCREEN" | grep -E '^ +1\. exp of each score' | head -1 | sed 's/exp of each.*//' | awk '{print length($0)}')
  cont=$(printf '%s\n' "$SCREEN" | sed -n '/^ *1\. exp of each score/{n;p;}' | head -1)
  lead=$(printf '%s\n' "$cont" | sed 's/[^ ].*//' | awk '{print length($0)}')
  expect_eq "$tag: q3: step 1 wraps with a hanging indent" "$col1" "$lead"
  case "$cont" in ""|*"2. their sum"*) not_ok "$tag: q3: step 2 is not the continuation of step 1" "$cont" ;;
                  *) ok "$tag: q3: step 2 is not the continuation of step 1" ;; esac
done
