# One session of every screen with the AddressSanitizer build: typing, toggles, a
# resize storm, lessons, a graded answer, quitting. Right: no sanitizer report, exit 0.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

ASAN_LOG="$E2E_TMP/asan"
export ATTN_TUTOR_DATA="$PWD"   # the sanitizer build lives in build/asan/
AT_BIN="$AT_BIN_ASAN"
E2E_WAIT=60   # the sanitizer build is slower
[ -x "$AT_BIN" ] || AT_BIN="$PWD/build/asan/attn-tutor"

tutor_start 100 30 "ASAN_OPTIONS=log_path=$ASAN_LOG:detect_leaks=1" -- --lang en
expect_screen "asan: home" "Self-attention, step by step"
keys j j Enter
expect_screen "asan: lesson 3" "lesson 3 · step 1/"
keys l l l
expect_screen "asan: a compute step" "step 4/"
keys r
expect_screen "asan: its result, revealed without a prediction" "Not predicted"
keys End a
expect_screen "asan: a choice answered by its letter" "✓ Right"
keys Escape L
expect_screen "asan: the lab" "Sentence:"
keys C-u
type_text "ä注 The animal didn't cross the road because it was tired."
keys BSpace BSpace Tab m s ']' a ',' '.' j j l l
expect_screen "asan: lab after edits and toggles" "causal mask"
resize 20 5
expect_screen "asan: too small" "too small"
resize 1 1
resize 100 30
expect_screen "asan: back after the storm" "Sentence:"
expect_not_screen "asan: no longer too small" "too small"
keys q t
expect_screen "asan: the self-test" "question 1 of"
keys l l l a
type_text "0.14 0.17"
keys Enter
expect_screen "asan: Q3 graded right" "✓ Right"
keys Escape q
wait_exit
expect_eq "asan: exit status 0" 0 "$DEAD_STATUS"
if ls "$ASAN_LOG".* >/dev/null 2>&1; then
  not_ok "asan: no sanitizer report" "$(head -40 "$ASAN_LOG".*)"
else
  ok "asan: no sanitizer report"
fi
