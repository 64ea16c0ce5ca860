# Home marks: a question once answered right counts as right (the best result, as the
# self-test summary counts it); the self-test is one entry whose mark follows its
# answers; the lesson numbers line up; at 40×12 long labels and titles end in "…".
. tests/lib.sh
. tests/e2e/lib/tmux.sh

at() { "$AT_BIN" --lang en "$@"; }
# sdp-1 answered right once, then wrong (the expected answer taken from the grader)
want=$(at check scaled-dot-product:sdp-1 "0 0" --format json --reveal --no-save | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["expected_text"])')
at check scaled-dot-product:sdp-1 "$want" >/dev/null 2>&1
expect_status "sdp-1: the grader's answer is right" 0 at check scaled-dot-product:sdp-1 "$want" --no-save
at check scaled-dot-product:sdp-1 "0 0" >/dev/null 2>&1
tutor_start 100 30 -- --lang en
expect_line "home: lesson 3 counts sdp-1 right after a later wrong try" '^ +3\. .*Q1/2 +Scaled dot-product'

# Every self-test question tried, q3 right: the one self-test entry is done, with its count.
for q in $(at check nosuch x 2>&1 | sed -n 's/.*(self-test: \([^;]*\);.*/\1/p'); do
  at check "$q" "softmax(Q K^T) V" >/dev/null 2>&1
done
q3=$(at check q3 "0 0" --format json --reveal --no-save | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["expected_text"])')
at check q3 "$q3" >/dev/null 2>&1
n=$(grep -c "question:" lessons/en/10-self-test.yaml)
# the seed's five questions: a follow-up (Q2's second part) is no question of its own
nq=$((n - $(grep -c "follow_up:" lessons/en/10-self-test.yaml)))
tutor_start 100 30 -- --lang en
expect_line "home: the self-test entry is done once every question was tried" "^ +10\. ✓ done Q1/$nq +Self-test: $nq questions"
count=$(printf '%s\n' "$SCREEN" | grep -c "Self-test")
expect_eq "home: one self-test entry, not two" 1 "$count"
keys t
expect_screen "home: t opens the self-test" "question 1 of $nq"
i=0
while [ $i -lt 10 ] && ! shows "Your score"; do keys Right; i=$((i + 1)); done
expect_screen "self-test summary: every answer counted" "1 of $n answers right, $n tried."
keys q

# The numbers line up: every numbered row has its "N." ending in the same column.
tutor_start 100 30 -- --lang en
wait_line '^ +10\. ' >/dev/null
cols=$(printf '%s\n' "$SCREEN" | grep -E '^ +[0-9]+\. ' | awk '{ print index($0, ". ") }' | sort -u | wc -l)
expect_eq "home: the lesson numbers line up" 1 "$cols"
rows=$(printf '%s\n' "$SCREEN" | grep -cE '^ +[0-9]+\. ')
expect_eq "home: a numbered row per lesson" "$(ls lessons/en/*.yaml | wc -l)" "$rows"

# 40×12: labels and titles cut with "…"
resize 40 12
expect_line "home 40×12: a long lesson title ends in …" '^ +4\. .*…$'
expect_not_screen "home 40×12: no title cut without …" "Multi-head attentio "
keys q
tutor_start 40 12 -- --lang en lesson where-attention
expect_line "40×12: the title bar ends in …" '^ attn-tutor · Where .*…$'
tutor_start 40 12 -- --lang en lesson why-attention
keys G
expect_screen "40×12: the question" "why-2"
keys j j j j j j j j
expect_screen "40×12: scrolled to the question's keys line (no hint offered: it has none)" "answer · r: reference"
keys i
expect_screen "40×12: the answer line's keys" "Esc: leave the"
expect_not_screen "40×12: the keys line is wrapped, not cut" "answer l "
case "$(printf '%s\n' "$SCREEN" | sed 's/ *$//' | grep -E 'answer l$')" in
  "") ok "40×12: no keys line ends mid-word" ;;
  *) not_ok "40×12: no keys line ends mid-word" "$SCREEN" ;;
esac
