# The self-test lessons' false claims of the field (their top-level `misconceptions`),
# each beside right answers to the questions (tests/grading/claims.tsv, not blind: written
# with the catalogue as a regression set): the false remark in English and in Chinese is
# partly right, the true version and the remark denied or corrected are right. Every answer
# agrees with its label and nothing not right is graded correct.
. tests/lib.sh
out=$(AT_BIN="$AT_BIN" sh tests/grading/grade.sh --report tests/grading/claims.tsv)
n=$(printf '%s\n' "$out" | sed -n 's/.*answers, exact agreement \([0-9]*\)\/\([0-9]*\).*/\1 \2/p')
set -- $n
# Every answer agrees with its label.
[ "${1:-0}" -eq "${2:--1}" ]; expect_eq "claims: agreement $1 of $2" 0 "$?"
expect_contains "claims: nothing not right graded correct" "not-right answers graded correct: 0" "$out"
