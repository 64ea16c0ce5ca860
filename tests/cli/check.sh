# attn-tutor check: verdicts, exit statuses and JSON for the self-test questions,
# with the values the engine computes (Q3: 0.1384 and 0.1691).
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
chk() { "$AT_BIN" --lang en check "$@"; }

out=$(chk q3 "0.14 0.17"); rc=$?
expect_eq "check q3 right: exit 0" 0 "$rc"
expect_contains "check q3 right: verdict" "q3: correct (score 1)" "$out"
expect_contains "check q3 right: engine value" "0.1384 ≈ 0.14" "$out"
for a in "0.14, 0.17" "0.14;0.17" "下雨=0.14 没=0.17" "没: 0.17, 下雨: 0.14" "14% 17%" ".14 .17" \
         "0,14 0,17" "1.384e-1 1.691e-1" "1.38×10⁻¹ 1.69×10⁻¹" "e^0.3/9.75 ≈ 0.14, e^0.5/9.75 ≈ 0.17" \
         "零点一四，零点一七" "0.14 0.17. 伞 is the largest" "0.14, 0.17 (伞 is largest)"; do
  expect_status "check q3 '$a' is right" 0 chk q3 "$a" --no-save
done
# left as a division, or right at one decimal: partly right (an estimate to two decimals
# is asked); wrong values in those forms are wrong
for a in "1.35/9.75 1.65/9.75" "exp(0.3)/9.75 exp(0.5)/9.75" "e^0.3/9.75 e^0.5/9.75" "0.1 0.2"; do
  expect_status "check q3 '$a' is partly right" 3 chk q3 "$a" --no-save
done
for a in "0.2 0.1" "0.1 0.1" "负零点一四，负零点一七"; do
  expect_status "check q3 '$a' is not right" 1 chk q3 "$a" --no-save
done
expect_status "check q3 Chinese numerals with a unit are no weights" 2 chk q3 "零点一四亿 零点一七亿" --no-save
expect_status "check q3 forgot exp" 1 chk q3 "0.125 0.208"
expect_status "check q3 one right, one wrong" 3 chk q3 "0.14 0.2"
expect_status "check q3 percentages without %" 3 chk q3 "13.84 16.91"
expect_status "check q3 malformed" 2 chk q3 "0.14abc"
# control characters inside the numbers (ESC of a CSI sequence, the one-character C1 CSI):
# refused as unreadable, not read for the digits around them
expect_status "check q3 an escape sequence inside a number" 2 chk q3 "$(printf '0.14 0.\033[2J17')"
expect_status "check q3 a C1 control (U+009B) between the numbers" 2 chk q3 "$(printf '0.14 \302\2330.17')"
expect_status "check q3 one number: 下雨's, 没 not answered (partly right)" 3 chk q3 "0.14"
expect_status "check q3 one number: 伞's weight (wrong)" 1 chk q3 "0.34"
expect_status "check q3 three numbers" 2 chk q3 "0.1 0.2 0.3"
expect_status "check q3 ambiguous commas" 2 chk q3 "0,14, 0,17"
expect_status "check unknown question" 2 chk q9 "1"
expect_status "check unknown lesson" 2 chk nosuch:q1 "1"
expect_status "check without an answer" 2 chk q3
expect_status "check bad format" 2 chk q3 "0.14 0.17" --format xml

out=$(chk q3 "0.125 0.208")
expect_contains "check q3 forgot exp: diagnosis" "exp was skipped" "$out"
# A first wrong try names the slip, not the answer: no engine value, no sum of exps.
for leak in "0.1384" "0.1691" "≈ 0.14" "9.75" "(engine"; do
  case "$out" in *"$leak"*) not_ok "check q3 forgot exp: no '$leak' before --reveal" "$out" ;;
    *) ok "check q3 forgot exp: no '$leak' before --reveal" ;; esac
done
expect_contains "check q3 forgot exp: says how to see more" "add --reveal" "$out"
out=$(chk q3 "0.125 0.208" --reveal --no-save)
expect_contains "check --reveal: steps" "each exp divided by the sum: 下雨 1.3499 / 9.7504 = 0.1384" "$out"
expect_contains "check --reveal: the right answer" "The right answer (engine): 下雨 0.1384 ≈ 0.14, 没 0.1691 ≈ 0.17" "$out"
out=$(chk q3 "0.14abc" 2>&1)
expect_contains "check q3 malformed: says where" "(at 'abc')" "$out"

out=$(chk q3 "0.14 0.17" --format json)
expect_contains "check json verdict" '"verdict":"correct"' "$out"
expect_contains "check json expected" '"expected":[0.1384408,0.169092]' "$out"
expect_contains "check json question" '"question":"q3"' "$out"
expect_contains "check json score" '"score":1' "$out"
out=$(chk q3 "0.17 0.14" --format json)
expect_contains "check json swapped: wrong" '"verdict":"wrong","score":0' "$out"
# a wrong try or a malformed answer carries no expected value in JSON without --reveal
expect_contains "check json wrong: no expected values" '"expected":[],"expected_text":""' "$out"
expect_contains "check json wrong: no worked steps" '"reveal":""' "$out"
out2=$(chk q3 "0.14abc" --format json)
expect_contains "check json malformed: no expected values" '"expected":[],"expected_text":""' "$out2"
out2=$(chk q2 "softmax(QK^T)V" --format json)
expect_contains "check json partial formula: no formula" '"expected":""' "$out2"
case "$out" in *'0.1384'*) not_ok "check json: no engine value without --reveal" "$out" ;;
  *) ok "check json: no engine value without --reveal" ;; esac
out=$(chk q3 "0.17 0.14" --format json --reveal)
expect_contains "check json --reveal: the expected values" '"expected":[0.1384408,0.169092]' "$out"
expect_contains "check json --reveal: the worked steps" 'The right answer (engine)' "$out"
expect_contains "check json mistake" '"mistake":"swapped"' "$out"
out=$(chk q3 "0.14abc" --format json)
expect_contains "check json malformed" '"verdict":"malformed"' "$out"
out=$(chk q3 "0.1 0.2 0.3" --format json 2>/dev/null)
if printf '%s' "$out" | python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null; then
  ok "check json parses"; else not_ok "check json parses" "$out"; fi

expect_status "check q2 formula" 0 chk q2 "softmax(QKᵀ/√dₖ)·V"
expect_status "check q2 ascii formula" 0 chk q2 "softmax((Q*K')/sqrt(dk))*V"
out=$(chk q2 "softmax(QK^T/d_k)V")
expect_contains "check q2 names the mistake" "instead of √dₖ" "$out"
expect_status "check q2 unreadable" 2 chk q2 "softmax(QK^T"

expect_status "check q4 text" 0 chk q4 "Q comes from the decoder; K and V from the encoder output; it aligns target words with source words"
expect_status "check q4 text partly" 3 chk q4 "Q from the decoder"
out=$(chk q4 "Q from the decoder" --self correct --format json)
expect_contains "check q4 self-assessed" '"self_assessed":true' "$out"
out=$(chk q1 "RNN is slow" --self correct --format json)
expect_contains "check --self keeps the automatic verdict" '"verdict":"wrong","score":0,' "$out"
expect_contains "check --self apart" '"self_verdict":"correct","self_score":1' "$out"
out=$(chk q1 "RNN is slow" --self correct)
expect_contains "check --self text says both" "q1: wrong (score 0); your own grade: correct (1)" "$out"
expect_status "check --self exit follows the automatic grade" 1 chk q1 "RNN is slow" --self correct
expect_status "check --self only for text" 2 chk q3 "0.14 0.17" --self correct

# Nothing recognised, neither a key idea nor a misconception: review (exit 4), the
# reference shown, the student grades it; not a wrong attempt in the progress file.
state2=$(mktemp -d)
out=$(XDG_STATE_HOME="$state2" chk q4 "It is like a dictionary lookup in a library." --format json); rc=$?
expect_eq "check review: exit 4" 4 "$rc"
expect_contains "check review: JSON verdict" '"verdict":"review"' "$out"
expect_contains "check review: the reference shown" "The queries come from the decoder" "$out"
out=$(chk q4 "It is like a dictionary lookup in a library.")
expect_contains "check review: text says so" "q4: needs your review" "$out"
expect_contains "check review: how to grade it" "check --self correct|partial|wrong" "$out"
out=$("$AT_BIN" --lang zh check q4 "就像在图书馆查字典一样。")
expect_contains "check review (zh)" "q4: 需要你自己评判" "$out"
out=$(XDG_STATE_HOME="$state2" chk q4 "It is like a dictionary lookup in a library." --self partial \
  --format json); rc=$?
expect_eq "check review --self: exit follows the review" 4 "$rc"
expect_contains "check review --self: own grade kept" '"self_verdict":"partial","self_score":0.5' "$out"
rec=$(sed -n '/self-test:q4/,/last:/p' "$state2/attn-tutor/progress.yaml")
expect_contains "review recorded as review" "verdict: review" "$rec"
expect_contains "review with --self: the own grade recorded" "self_assessed: partial" "$rec"
expect_contains "a review is not an attempt" "attempts: 0" "$rec"
rm -rf "$state2"
expect_status "check keyword salad: wrong" 1 chk q2b "variance, softmax, gradient, √dₖ" --no-save
expect_status "check right answer taken back: wrong" 1 chk q4 \
  "Q comes from the decoder, K and V from the encoder; it aligns the words. No, the opposite." --no-save

out=$("$AT_BIN" --lang zh check q3 "0.125 0.208")
expect_contains "check zh feedback" "看起来你没有先取 exp" "$out"
out=$("$AT_BIN" check q3 "0.14 0.17" --lang zh)
expect_contains "check --lang after the command" "q3: 正确" "$out"

# Attempts are recorded (malformed ones are not), and a damaged progress file is set aside.
prog="$state/attn-tutor/progress.yaml"
if grep -q "id: self-test:q3" "$prog" 2>/dev/null; then ok "check records progress"; else not_ok "check records progress"; fi
before=$(grep -A5 "id: self-test:q3" "$prog" | grep attempts)
chk q3 "0.14abc" >/dev/null 2>&1
after=$(grep -A5 "id: self-test:q3" "$prog" | grep attempts)
expect_eq "malformed answer is not an attempt" "$before" "$after"
printf 'garbage: [\n' > "$prog"
err=$(chk q3 "0.14 0.17" 2>&1 >/dev/null)
expect_contains "damaged progress reported" "it was kept as" "$err"
n=$(ls "$state/attn-tutor" | grep -c 'progress.yaml.damaged-')
expect_eq "damaged progress kept aside" 1 "$n"
# The same paths under AddressSanitizer (leaks make the exit status 1).
if [ -x "${AT_BIN_ASAN:-}" ]; then
  asan() { ATTN_TUTOR_DATA="$PWD" "$AT_BIN_ASAN" --lang en check "$@"; }
  expect_status "asan: check right" 0 asan q3 "下雨=0.14 没=0.17"
  expect_status "asan: check wrong" 1 asan q3 "1.35 1.65"
  expect_status "asan: check malformed" 2 asan q3 "0,14, 0,17"
  expect_status "asan: check formula" 1 asan q2 "softmax(QK^T V)"
  expect_status "asan: check text json" 3 asan q4 "Q from the decoder" --format json
  expect_status "asan: check text contradicted" 1 asan q4 "Q comes from the encoder, K and V from the decoder"
  expect_status "asan: practice" 0 env ATTN_TUTOR_DATA="$PWD" "$AT_BIN_ASAN" practice --seed 5 --kind attention --solution
fi
out=$("$AT_BIN" --help)
expect_contains "attn-tutor --help names --lessons" "--lessons DIR" "$out"
out=$(chk --help)
expect_contains "check --help names --lessons" "--lessons DIR" "$out"
expect_contains "check --help: one unit of the last decimal" "one unit of the last decimal asked" "$out"
expect_contains "check --help: tolerance example" "0.4287 at 2 decimals is right from 0.4187 to 0.4387" "$out"
for leak in 0.14 0.17 1.35 9.75 1.65 0.1384 0.1691; do
  case "$out" in *"$leak"*) not_ok "check --help gives away no Q3 number ($leak)" "$out" ;;
    *) ok "check --help gives away no Q3 number ($leak)" ;; esac
done
expect_contains "check --help: --reveal" "--reveal" "$out"
expect_contains "check --help: exit follows the automatic grade" "it follows the automatic grade, also with --self" "$out"
expect_status "check 0.1449 at 2 decimals (within 0.01)" 0 chk q3 "0.1449 0.17" --no-save
expect_status "check 0.149 at 2 decimals (more than 0.01 off)" 3 chk q3 "0.149 0.17" --no-save
# Cut off instead of rounded (0.13 0.16): within one unit, right; the rounding is noted.
out=$(chk q3 "0.13 0.16" --no-save)
expect_contains "check 0.13 0.16: right" "q3: correct (score 1)" "$out"
expect_contains "check 0.13 0.16: the rounding noted" "下雨: 0.13 looks cut off after 2 decimals" "$out"
# A question with a tolerance of its own keeps it (mask-2 counts pairs, tolerance 0).
expect_status "check a count one off (tolerance 0)" 1 chk masking:mask-2 "20" --no-save
# exp(x) ≈ 1 + x: both off, in the exps' proportion: the method right, partly right
out=$(chk q3 "0.15 0.18" --no-save)
expect_contains "check 0.15 0.18 (exp(x) ≈ 1 + x): partly right" "q3: partly right (score 0.5)" "$out"
expect_contains "check 0.15 0.18: the rough exps named" "they stand in the right proportion" "$out"
expect_status "check 0.12 0.19 (off both ways): wrong" 1 chk q3 "0.12 0.19" --no-save
# No exp: 0.3/2.4 = 0.125 and 0.5/2.4 = 0.208: the method is wrong, and so is the answer.
out=$(chk q3 "0.13 0.21" --no-save)
expect_contains "check 0.13 0.21 (no exp): wrong" "q3: wrong (score 0)" "$out"
expect_contains "check 0.13 0.21 (no exp): diagnosed" "the exp was skipped" "$out"
# Traditional characters name the Simplified tokens (沒 is 没), in either order.
out=$(chk q3 "沒 ≈ 0.17，下雨 ≈ 0.14" --no-save)
expect_contains "check Traditional labels: correct" "q3: correct (score 1)" "$out"
out=$(chk q3 "沒 0.14，下雨 0.17" --no-save)
expect_contains "check Traditional labels swapped: wrong" "q3: wrong (score 0)" "$out"
out=$(chk q3 "0.17 0.14" --no-save)
expect_contains "check swapped: wrong" "q3: wrong (score 0)
Not right." "$out"
expect_contains "check swapped: diagnosed" "swapped" "$out"
out=$(chk q3 "14 17" --no-save)
case "$out" in *"Not right."*) not_ok "check 14 17: body agrees with the headline" "$out" ;;
  *) ok "check 14 17: body agrees with the headline" ;; esac
out=$(chk q3 "０.１４ ０.１７" --no-save)
expect_contains "check full-width digits" "q3: correct" "$out"
out=$(chk q3 "0.14 and 0.17" --no-save)
expect_contains "check 'and' between values" "q3: correct" "$out"
out=$(chk q3 "0,138 0,169" --no-save)
expect_contains "check comma hint quotes the student" "(Read 0,138 as 0.138" "$out"
out=$(XDG_STATE_HOME=/proc/nonexist "$AT_BIN" --lang en check q3 "0.14 0.17" 2>&1 >/dev/null)
expect_contains "check unsaved attempt says so" "this attempt was not saved" "$out"
case "$out" in *"next save"*) not_ok "check one-shot: no next save" "$out" ;;
  *) ok "check one-shot: no next save" ;; esac
# Answers as students write them, in both languages (issue 11): all right.
while IFS= read -r a; do
  expect_status "check q3 '$a' is right" 0 chk q3 "$a" --no-save
done <<'EOF'
0.14 0.17.
about .14 and .17
0.14 and 0.17 respectively
rains: 0.14, didn't: 0.17
0.14 for 下雨 and 0.17 for 没
下雨约0.14，没约0.17
下雨的权重是0.14，没的权重是0.17
大约是0.14和0.17
下雨和没分别是0.14和0.17
e^0.3/9.75 ≈ 0.14, e^0.5/9.75 ≈ 0.17
exp 依次是 1.105、1.350、1.221、1.649、1.105、3.320，和是 9.75，所以下雨 0.14，没 0.17
1.384E−1 1.691E−1
$\frac{e^{0.3}}{9.75} \approx 0.14$, $\frac{e^{0.5}}{9.75} \approx 0.17$
EOF
expect_status "check q3 swapped labels: wrong" 1 chk q3 "下雨=0.17 没=0.14" --no-save
expect_status "masking:mask-2 '21 pairs'" 0 chk masking:mask-2 "21 pairs" --no-save
expect_status "masking:mask-2 '21 对' (zh)" 0 "$AT_BIN" --lang zh check masking:mask-2 "21 对" --no-save
expect_status "multi-head:mh-1 '1,048,576'" 0 chk multi-head:mh-1 "1,048,576" --no-save
out=$(chk masking:mask-2 "20" --no-save --reveal)
expect_contains "an integer prints as an integer" "The right answer (engine): 21
" "$out"
case "$out" in *"21.0"*|*"20.0"*) not_ok "no 21.0000" "$out" ;; *) ok "no 21.0000" ;; esac

# Nothing gives the answer away before a try: "I don't know", an unreadable answer.
for a in "不会" "I don't know" "?" "0.1 0.2 0.3"; do
  for l in en zh; do
    out=$("$AT_BIN" --lang $l check q3 "$a" --no-save 2>&1)
    case "$out" in *0.14*|*0.17*|*0.1384*|*0.1691*|*1.35*|*9.75*|*下雨=0.1*)
      not_ok "check q3 '$a' ($l): nothing given away" "$out" ;;
      *) ok "check q3 '$a' ($l): nothing given away" ;; esac
  done
done
out=$(chk q3 "不会" --no-save); rc=$?
expect_eq "'不会' is a try, and wrong" 1 "$rc"
expect_contains "no number: a placeholder example" "answer with numbers, e.g. 0.xx 0.xx" "$out"
out=$(chk q3 "0.1 0.2 0.3" --no-save)
expect_contains "unreadable: a placeholder example" "answer again, e.g. 下雨=0.xx 没=0.xx" "$out"
# Huge exponents: no undefined behaviour (the sanitizer build aborts on any).
if [ -x "${AT_BIN_ASAN:-}" ]; then
  expect_status "asan: 1e-99999999999999999999 0.17" 3 asan q3 "1e-99999999999999999999 0.17" --no-save
  expect_status "asan: 1e-9223372036854775808 0.17" 3 asan q3 "1e-9223372036854775808 0.17" --no-save
  expect_status "asan: 1e99999999999999999999 0.17" 2 asan q3 "1e99999999999999999999 0.17" --no-save
fi
rm -rf "$state"

# A text answer's first wrong or partly right try: what it stated, right and wrong; what
# is missing and the reference answer only with --reveal (they are the answer).
out=$(chk q2b "It keeps the variance of the scores near 1." --no-save)
expect_contains "check text partial: the idea found" "✓ dividing by √dₖ keeps the scores' variance about 1" "$out"
for held in "Missing:" "Reference answer:" "saturate"; do
  case "$out" in *"$held"*) not_ok "check text partial holds back '$held'" "$out" ;;
    *) ok "check text partial holds back '$held'" ;; esac
done
expect_contains "check text partial: how to see the rest" "to see what is missing and the reference answer, add --reveal" "$out"
out=$(chk q2b "It keeps the variance of the scores near 1." --no-save --reveal)
expect_contains "check text partial --reveal: missing" "Missing:" "$out"
expect_contains "check text partial --reveal: reference" "Reference answer:" "$out"
out=$(chk q2b "no, really nothing here makes sense to the grader: purple elephants" --no-save)
expect_contains "check text review: the reference at once (the student grades against it)" "Reference answer:" "$out"

# Working the reader cannot parse, before the values the answer ends on: the conclusion
# alone, or each worked chain's result.
out=$(chk q3 "x = np.array([.1,.3,.2,.5,.1,1.2]); w = np.exp(x)/np.exp(x).sum() gives 下雨 0.14, 没 0.17" --no-save)
expect_contains "check NumPy working, then the values: correct" "q3: correct (score 1)" "$out"
out=$(chk q3 '$\frac{e^{0.3}}{\sum_j e^{s_j}} \approx 0.14$, $\frac{e^{0.5}}{\sum_j e^{s_j}} \approx 0.17$' --no-save)
expect_contains "check LaTeX chains with a sum: correct" "q3: correct (score 1)" "$out"
out=$(chk q3 "np.exp(x)/np.exp(x).sum() gives 0.13 and 0.21" --no-save)
expect_contains "check NumPy working, then no exp values: wrong" "q3: wrong (score 0)" "$out"
