# attn-tutor practice: seeded exercises, graded by the engine, driven without a terminal.
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
pr() { "$AT_BIN" --lang en practice "$@"; }

a=$(pr --seed 42 --print); b=$(pr --seed 42 --print); c=$(pr --seed 43 --print)
expect_eq "practice: same seed, same exercise" "$a" "$b"
if [ "$a" != "$c" ]; then ok "practice: another seed, another exercise"; else not_ok "practice: another seed"; fi
for k in softmax attention causal heads; do
  sol=$(pr --seed 9 --kind $k --solution | sed -n 's/^solution: //p')
  if [ -n "$sol" ]; then ok "practice $k: a solution"; else not_ok "practice $k: a solution"; fi
  expect_status "practice $k: the solution is right" 0 pr --seed 9 --kind $k --answer "$sol"
  expect_status "practice $k: a malformed answer" 2 pr --seed 9 --kind $k --answer "abc"
done
# The softmax exercise's solution is the engine's: check it against attn-tutor softmax.
p=$(pr --seed 11 --kind softmax --print)
sol=$(pr --seed 11 --kind softmax --solution | sed -n 's/^solution: //p')
scores=$(printf '%s\n' "$p" | sed -n 2p | tr ',' '\n' | awk '{print $2}' | tr '\n' ' ')
first=$(printf '%s\n' "$p" | sed -n 's/.*weights\{0,1\} of \([^ ,]*\).*/\1/p')
idx=$(printf '%s\n' "$p" | sed -n 2p | tr ',' '\n' | awk -v t="$first" '$1 == t {print NR}')
w=$("$AT_BIN" softmax $scores | awk -v i="$idx" '$1 == i {printf "%.2f", $4}')
expect_eq "practice softmax agrees with attn-tutor softmax" "$w" "${sol%% *}"
expect_status "practice heads: wrong count" 1 pr --seed 9 --kind heads --answer 1
out=$(pr --seed 9 --kind heads --answer 1)
expect_contains "practice heads: explains" "add no parameters" "$out"
out=$(pr --seed 9 --kind softmax --answer "0.5 0.5" --format json)
expect_contains "practice json" '"kind":"softmax"' "$out"
# An interactive session fed from a pipe: a malformed answer is asked again.
out=$(printf 'abc\n0.5\n\n' | pr --seed 3 --kind heads --count 2)
expect_contains "practice session: asks again" "Nothing was counted" "$out"
expect_contains "practice session: summary" "answered right" "$out"
if grep -q "id: practice:heads" "$state/attn-tutor/progress.yaml"; then ok "practice records progress"
else not_ok "practice records progress"; fi
expect_status "practice bad kind" 2 pr --kind nope
rm -rf "$state"
