# The tutor open in one terminal while `attn-tutor check` records answers in another:
# the tutor's saves keep what check recorded, check's saves keep what the tutor
# recorded, and each attempt is counted once.
. tests/lib.sh
. tests/e2e/lib/tmux.sh
store="$XDG_STATE_HOME/attn-tutor/progress.yaml"
# fields ID: "attempts=N correct=N" of a question in the file, read as YAML.
fields() {
  python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
r = [a for a in d.get("answers") or [] if a["id"] == sys.argv[2]]
print("attempts=%s correct=%s" % (r[0].get("attempts", 0), r[0].get("correct", 0)) if r else "none")' \
    "$store" "$1" 2>&1
}
check() { "$AT_BIN" --lang en check "$@" >/dev/null 2>&1; }

tutor_start 100 30 -- --lang en quiz
expect_screen "shared: the tutor opens the self-test" "question 1 of"
# The tutor has read the (missing) file; check now records three attempts beside it.
check q3 "0.14 0.17"
check q3 "0.5 0.5"
check q2 "softmax(Q+K)V"
expect_eq "shared: check's attempts are in the file" "attempts=2 correct=1" "$(fields self-test:q3)"
i=0
while [ $i -lt 8 ] && ! wait_for "Question q3" 1; do keys Right; i=$((i + 1)); done
expect_screen "shared: the tutor reaches Q3" "Question q3"
keys a
type_text "0.14 0.17"
keys Enter
expect_screen "shared: the tutor grades its answer" "✓ Right"
# The tutor saved (before drawing the verdict): its attempt added to check's.
expect_eq "shared: the tutor's save keeps check's attempts" "attempts=3 correct=2" "$(fields self-test:q3)"
expect_eq "shared: … of another question too" "attempts=1 correct=0" "$(fields self-test:q2)"
# check again while the tutor stays open, then the tutor once more (a wrong answer).
check q3 "0.14 0.17"
expect_eq "shared: check's save keeps the tutor's attempt" "attempts=4 correct=3" "$(fields self-test:q3)"
keys a C-u
type_text "0.12 0.21"
keys Enter
expect_screen "shared: the tutor grades its second answer" "✗ Not right yet"
expect_eq "shared: every attempt of both, each once" "attempts=5 correct=3" "$(fields self-test:q3)"
expect_eq "shared: q2 untouched by the tutor's saves" "attempts=1 correct=0" "$(fields self-test:q2)"
keys q
if wait_exit 10; then ok "shared: q quits"; else not_ok "shared: q quits" "$SCREEN"; fi
expect_eq "shared: quitting adds nothing" "attempts=5 correct=3" "$(fields self-test:q3)"
