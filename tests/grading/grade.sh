#!/bin/sh
# Runs a labelled corpus of student answers through `attn-tutor check` and compares each
# verdict with the teacher's.  Usage: tests/grading/grade.sh [--tap|--report] [FILE.tsv]
#   FILE: lines `qid<TAB>lang<TAB>verdict<TAB>answer<TAB>reason` ('#' lines are comments);
#         verdicts correct, partial, wrong, unreadable (default: tests/grading/corpus.tsv).
#   --report (default): agreement per question and language, the confusion table and every
#         disagreement; --tap: the same summary as comments plus one TAP line per target.
# Targets (issue: grading that agrees with a teacher): exact agreement >= 90%; no wrong,
# partial or unreadable answer graded correct; at most 2% of right answers refused as
# unreadable; at most 3% of right answers graded wrong (GRADE_MIN_AGREEMENT and
# GRADE_MAX_FALSE_CORRECT set a floor below the targets for a set kept as a guard against
# going back). A `review` verdict (exit 4: the
# grader could not judge) agrees with no teacher verdict but is never a false "correct".
mode=report
case "$1" in --tap) mode=tap; shift ;; --report) shift ;; esac
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:-$here/corpus.tsv}
bin=${AT_BIN:-$here/../../build/attn-tutor}
[ -r "$corpus" ] || { echo "grade.sh: cannot read $corpus" >&2; exit 2; }
[ -x "$bin" ] || { echo "grade.sh: no binary at $bin (make first)" >&2; exit 2; }
state=$(mktemp -d) && trap 'rm -rf "$state"' EXIT
out=$state/results.tsv
tab=$(printf '\t')
grep -v '^#' "$corpus" | grep -v '^[[:space:]]*$' |
while IFS="$tab" read -r qid lang want answer reason; do
  json=$(XDG_STATE_HOME=$state LC_ALL=C.UTF-8 "$bin" check --lang "$lang" --format json \
         --no-save -- "$qid" "$answer" 2>/dev/null)
  rc=$?
  got=$(printf '%s' "$json" | sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p' | head -1)
  [ "$got" = malformed ] && got=unreadable
  if [ -z "$got" ]; then
    case $rc in 0) got=correct ;; 1) got=wrong ;; 3) got=partial ;; 4) got=review ;;
                2) got=unreadable ;; *) got="error$rc" ;; esac
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$qid" "$lang" "$want" "$got" "$answer" "$reason"
done > "$out"
# The figures: one awk pass over qid lang want got answer reason.
LC_ALL=C.UTF-8 awk -F'\t' -v mode="$mode" -v maxfp="${GRADE_MAX_FALSE_CORRECT:-0}" \
    -v minagree="${GRADE_MIN_AGREEMENT:-90}" '
  { n++; key = $1 " " $2; tot[key]++; q[$1]++; ql[$2]++
    if ($3 == $4) { agree++; ag[key]++; agq[$1]++; agl[$2]++ }
    conf[$3 "," $4]++; wants[$3]++
    if ($4 == "correct" && $3 != "correct") { falsepos++; fp[falsepos] = $0 }
    if ($3 == "correct" && $4 == "unreadable") refused++
    if ($3 == "correct" && $4 == "wrong") rightwrong++
    if ($3 == "correct" && $4 == "review") rightreview++
    if ($3 != $4) { nd++; dis[nd] = $0 } }
  function pct(a, b) { return b ? 100.0 * a / b : 0 }
  END {
    p = (mode == "tap") ? "# " : ""
    printf "%sgrading corpus: %d answers, exact agreement %d/%d = %.1f%%\n", p, n, agree, n, pct(agree, n)
    printf "%s%-6s %-4s %8s\n", p, "qid", "lang", "agree"
    for (k in tot) keys[++nk] = k
    for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++) if (keys[j] < keys[i]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    for (i = 1; i <= nk; i++) { split(keys[i], kk, " ")
      printf "%s%-6s %-4s %3d/%-3d %5.1f%%\n", p, kk[1], kk[2], ag[keys[i]], tot[keys[i]], pct(ag[keys[i]], tot[keys[i]]) }
    split("correct partial wrong unreadable", vs, " "); split("correct partial wrong unreadable review", gs, " ")
    printf "%sconfusion (rows: teacher, columns: grader)\n%s%-11s", p, p, ""
    for (j = 1; j <= 5; j++) printf " %10s", gs[j]; printf "\n"
    for (i = 1; i <= 4; i++) { printf "%s%-11s", p, vs[i]; for (j = 1; j <= 5; j++) printf " %10d", conf[vs[i] "," gs[j]]; printf "\n" }
    r = wants["correct"]
    printf "%sright answers: %d; refused as unreadable %d (%.1f%%), graded wrong %d (%.1f%%), sent to review %d\n", p, r, refused, pct(refused, r), rightwrong, pct(rightwrong, r), rightreview
    printf "%snot-right answers graded correct: %d\n", p, falsepos
    if (mode == "report") {
      printf "\ndisagreements (qid lang teacher grader answer — reason):\n"
      for (i = 1; i <= nd; i++) { split(dis[i], f, "\t"); printf "  %-4s %-2s %-10s %-10s %s — %s\n", f[1], f[2], f[3], f[4], f[5], f[6] }
    } else {
      for (i = 1; i <= falsepos; i++) { split(fp[i], f, "\t"); printf "# graded correct, teacher %s: %s %s\n", f[3], f[1], f[5] }
      printf "%s - exact agreement %.1f%% >= %s%%%s\n", (pct(agree, n) >= minagree ? "ok" : "not ok"), pct(agree, n), minagree, (minagree < 90 ? " (target 90%; a floor of this set, not the target)" : "")
      printf "%s - wrong, partial or unreadable answers graded correct: %d (target 0; allowed here %d)\n", (falsepos <= maxfp ? "ok" : "not ok"), falsepos, maxfp
      printf "%s - right answers refused as unreadable %.1f%% <= 2%%\n", (pct(refused, r) <= 2 ? "ok" : "not ok"), pct(refused, r)
      printf "%s - right answers graded wrong %.1f%% <= 3%%\n", (pct(rightwrong, r) <= 3 ? "ok" : "not ok"), pct(rightwrong, r)
    }
  }' "$out"
