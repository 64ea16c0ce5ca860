# Written answers of every kind the text grader reads (tests/grading/text-kinds.tsv, not
# blind: a regression set of kinds), through `attn-tutor check` with the grading harness:
# every one agrees with its label, and none that is not right is graded correct.
. tests/lib.sh
out=$(AT_BIN="$AT_BIN" sh tests/grading/grade.sh --report tests/grading/text-kinds.tsv)
expect_contains "text kinds: every answer agrees with its label" "exact agreement" "$out"
n=$(printf '%s\n' "$out" | sed -n 's/.*answers, exact agreement \([0-9]*\)\/\([0-9]*\).*/\1 \2/p')
set -- $n
# Two answers marked wrong are graded partly right since a part wrong beside parts right
# became partial (known misses: "Q, K and V all come from the decoder." read as Q from the
# decoder beside a wrong K and V; a denied attention side beside an RNN side): agreement at
# least 107 of 110, and never a not-right answer graded correct.
[ "$1" -ge $(($2 - 3)) ]; expect_eq "text kinds: agreement $1 of $2 (at least $(($2 - 3)))" 0 "$?"
expect_contains "text kinds: nothing wrong graded correct" "not-right answers graded correct: 0" "$out"
