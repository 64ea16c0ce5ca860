# attn-tutor check on numeric answers that say more than the values asked: a claim about
# another token, checked against the engine's own row, makes right values wrong;
# values taken back with none after are wrong; true remarks cost nothing.
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
en() { "$AT_BIN" --lang en check "$@" --no-save; }
zh() { "$AT_BIN" --lang zh check "$@" --no-save; }

out=$(zh q3 "0.14、0.17；六个词里“没”的权重最大"); rc=$?
expect_eq "q3 right values, 没 said to get the most (zh): wrong" 1 "$rc"
expect_contains "q3 names the token that gets the most, from the engine" "而是“伞”（引擎：0.34" "$out"
out=$(en q3 "0.14 and 0.17, so 没 is the word the umbrella attends to most"); rc=$?
expect_eq "q3 right values, 没 said to get the most (en): wrong" 1 "$rc"
expect_contains "q3 the claim named (en)" "没 does not get the largest weight: 伞 does" "$out"
out=$(en q3 "下雨 0.14, 没 0.17, and 伞 itself gets 0.5"); rc=$?
expect_eq "q3 a wrong weight for a token not asked: wrong" 1 "$rc"
expect_contains "q3 the wrong weight named with the engine's" "伞: 0.5  ✗  (engine: 0.34" "$out"
out=$(en q3 "下雨 0.14, 没 0.17, and 伞 itself gets 0.34, the most"); rc=$?
expect_eq "q3 a true weight and a true claim beside right values: correct" 0 "$rc"
out=$(en q3 "exp: 今天 1.11, 下雨 1.35, 我 1.22, 没 1.65, 带 1.11, 伞 3.32; sum 9.75; 下雨 0.14, 没 0.17"); rc=$?
expect_eq "q3 exps of tokens not asked are steps, not claims: correct" 0 "$rc"
out=$(zh q3 "0.14 0.17；除了伞以外，没的权重最大"); rc=$?
case "$out" in *"does not get the largest"*|*"权重最大的不是"*) r=claim ;; *) r=none ;; esac
expect_eq "q3 'apart from 伞, 没 gets the most' is no claim about the whole row" none "$r"
out=$(zh q3 "0.14，0.17。不对不对，应该再乘上 V 才是权重，所以没法算。"); rc=$?
expect_eq "q3 values taken back with none after: wrong" 1 "$rc"
expect_contains "q3 says they were taken back" "答案把给出的数值收回了" "$out"
out=$(en q3 "0.21, 0.26 ... oops forgot to include 伞 itself in the sum. Redo: 0.14, 0.17"); rc=$?
expect_eq "q3 worked again after 'Redo:': graded on the values after" 0 "$rc"
# A sum the working has no step for, before or after the values: wrong, named;
# the sums it has (the weights' 1, Σexp ≈ 9.75 or its estimate 10, the asked pair's) are
# no claim
out=$(en q3 "all weights sum to 2, so 0.14 0.17"); rc=$?
expect_eq "q3 'all weights sum to 2' beside right values: wrong" 1 "$rc"
expect_contains "q3 the false sum named" "the weights of a row add up to 1, not 2" "$out"
out=$(zh q3 "0.14 0.17。所有权重加起来等于2"); rc=$?
expect_eq "q3 权重加起来等于2: wrong" 1 "$rc"
expect_contains "q3 the false sum named (zh)" "同一行的权重加起来等于 1，不是 2" "$out"
for a in "exps sum to 9.75, so 0.14 0.17" "e^x 加起来约 10，所以 0.14 0.17" "0.14 0.17, weights add up to 0.31" \
         "0.14 0.17, the six weights add up to 1"; do
  expect_status "q3 a true sum is no claim: '$a'" 0 en q3 "$a"
done
# A comparison of two tokens' weights, against the engine's row: false ones make right
# values wrong and are named; true ones, denied ones and comparisons of the values
# themselves cost nothing. The names compared label no value ("0.14 0.17, 没 > 下雨" is
# not a swap).
for a in "下雨 0.14，没 0.17，没比下雨小" "0.14 0.17 (rains is larger than didn't)" "0.14 0.17, 下雨 > 没" \
         "下雨的权重比没大：0.14，0.17" "0.14 0.17 since 下雨's score is higher than 没's"; do
  expect_status "q3 a false comparison beside right values: wrong: '$a'" 1 en q3 "$a"
done
out=$(zh q3 "下雨 0.14，没 0.17，没比下雨小")
expect_contains "q3 the false comparison named (zh)" "“没”的权重并不比“下雨”小（引擎：0.1691 对 0.1384）" "$out"
for a in "0.14 0.17, 没 > 下雨" "下雨 0.14，没 0.17，下雨比没的权重小一点" "下雨 0.14 < 没 0.17" \
         "没 0.17 比下雨 0.14 大" "0.14 0.17, 下雨 is not larger than 没" "下雨的分数比没低，所以 0.14、0.17" \
         "0.14 0.17 since 没's score is higher than 下雨's"; do
  expect_status "q3 a true or denied comparison is no claim, no label: '$a'" 0 en q3 "$a"
done
expect_status "q3 values compared in swapped order are still swapped" 1 en q3 "下雨 0.17 > 没 0.14"
# The method written out with no value worked out: partly right, the values not shown
out=$(en q3 "e^0.3/Σe^s and e^0.5/Σe^s"); rc=$?
expect_eq "q3 the method for both values, none worked out: partly right" 3 "$rc"
expect_contains "q3 says the values are still to be worked out" "the values are not worked out" "$out"
case "$out" in *0.14*|*0.17*) r=shown ;; *) r=none ;; esac
expect_eq "q3 the method-only try shows no expected value" none "$r"
expect_status "q3 softmax 就是 e^0.3/Σe^x 和 e^0.5/Σe^x (zh): partly right" 3 zh q3 \
  "softmax 就是 e^0.3/Σe^x 和 e^0.5/Σe^x，具体数算不出来"
expect_status "q3 e^0.3/e^0.5 is no sum: a wrong value" 1 en q3 "e^0.3/e^0.5"
expect_status "q3 e^x/Σe^x names no score: not counted" 2 en q3 "e^x/Σe^x"
# A formula in braces beside right values; a token named as what was left out labels nothing
expect_status "q3 right values, then softmax(x_i)=e^{x_i}/Σe^{x_j}: right" 0 zh q3 \
  "0.14 0.17，因为 softmax(x_i)=e^{x_i}/Σe^{x_j}"
expect_status "q3 'forgot to include 伞 itself', then the right values: right" 0 en q3 \
  "0.21 0.26 - oops forgot to include 伞 itself in the sum, with it: 0.14 0.17"
expect_status "q3 漏了伞：0.21 0.26 is the left-out method: wrong" 1 zh q3 "漏了伞：0.21 0.26"
# Chinese numerals: a percentage (百分之十四) and digits with a dot (〇.一四)
expect_status "q3 百分之十四，百分之十七: right" 0 zh q3 "百分之十四，百分之十七"
expect_status "q3 〇.一四 〇.一七: right" 0 zh q3 "〇.一四 〇.一七"
expect_status "q3 百分之九 百分之二十: wrong" 1 zh q3 "百分之九 百分之二十"
rm -rf "$state"
