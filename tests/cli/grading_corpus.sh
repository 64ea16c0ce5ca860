#!/bin/sh
# The grader against the teacher's blind verdicts on tests/grading/corpus.tsv (457 answers
# to q1–q5): exact agreement >= 90%, at most 2% of right answers refused as unreadable and
# at most 3% graded wrong. The target for wrong answers graded correct is 0; one is left
# today (a q5 answer that says the encoder is enough and then has a decoder generate the
# label), so the ceiling here is 1 and may only go down.
cd "$(dirname "$0")/../.." || exit 2
GRADE_MAX_FALSE_CORRECT=1 tests/grading/grade.sh --tap tests/grading/corpus.tsv
