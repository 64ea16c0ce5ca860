#!/bin/sh
# Twelve sets written and marked blind by teachers who never saw the grader, used to find the
# kinds of answers it misread (tests/grading/dev-*.tsv; each teacher's policy in its header).
# They are below the issue's targets (90%, none graded correct that is not right): kept as
# floors at the figures they reached, so a change that reads more of the class's answers
# wrongly fails here. The teachers of dev-e and dev-f mark a false side remark, or one part
# wrong beside parts right, as wrong where the grader (and the other six) give partial
# credit: their floors are lower for that reason. So do the four teachers of dev-w (students
# preparing for job interviews), dev-x (Traditional Chinese and English as a second language),
# dev-y (a graduate seminar) and dev-z (self-learners on a course forum): 68 of their 960
# answers are of that kind.
cd "$(dirname "$0")/../.." || exit 2
# floor SET MIN_AGREEMENT MAX_FALSE_CORRECT: the set's TAP lines, named by the set
floor() {
  GRADE_MIN_AGREEMENT=$2 GRADE_MAX_FALSE_CORRECT=$3 tests/grading/grade.sh --tap "tests/grading/$1.tsv" |
    sed "s/^\(not ok\|ok\) - /\1 - $1: /"
}
floor dev-p 93 1
floor dev-q 91 0
floor dev-r 94 1
floor dev-s 95 0
floor dev-v 95 1
floor dev-e 80 0
floor dev-f 80 1
floor dev-i 92 1
floor dev-w 88 1
floor dev-x 84 1
floor dev-y 82 1
floor dev-z 83 1
