# The example in "answer again, e.g. …" has the question's shape and gives nothing
# away: one placeholder per value asked (0.xx with the decimals asked, N for positions
# and counts), the question's own tokens as labels, the question's language.
. tests/lib.sh
tmp=$(mktemp -d)
export XDG_STATE_HOME="$tmp/state"
mkdir -p "$tmp/l/en" "$tmp/l/zh"
cat > "$tmp/l/en/h.yaml" <<'YAML'
id: h
lang: en
order: 1
title: "Hints"
summary: "Questions of every shape"
steps:
  - question:
      id: one
      kind: softmax
      prompt: |
        The weight of cat?
      tokens: [the, cat, sat]
      scores: [1, 1, 0]
      ask: cat
  - question:
      id: three
      kind: softmax
      prompt: |
        The weights of the and sat, to 3 decimals?
      tokens: [the, cat, sat]
      scores: [1, 1, 0]
      ask: [the, sat]
      decimals: 3
  - question:
      id: count
      kind: numeric
      prompt: |
        How many weights does a row of 12 tokens hold?
      value: 12
YAML
sed 's/^lang: en/lang: zh/' "$tmp/l/en/h.yaml" > "$tmp/l/zh/h.yaml"
at() { "$AT_BIN" --lessons "$tmp/l" "$@"; }

out=$(at check --no-save h:one "0.155abc"); rc=$?
expect_eq "one value, malformed: exit 2" 2 "$rc"
last() { printf '%s\n' "$1" | tail -n 1; }
expect_eq "one value: one placeholder in the example" "Nothing was counted: answer again, e.g. 0.xx" "$(last "$out")"
case "$out" in *"0.10 0.17"*) not_ok "one value: no second number" "$out" ;; *) ok "one value: no second number" ;; esac
out=$(at --lang zh check --no-save h:one "0.155abc")
expect_eq "one value (zh)" "这次不算作答，请重新回答，例如 0.xx" "$(last "$out")"
out=$(at check --no-save h:three "0.155abc")
expect_eq "two values at 3 decimals" "Nothing was counted: answer again, e.g. 0.xxx 0.xxx" "$(last "$out")"
out=$(at check --no-save h:three "0.1 0.2 0.3")
expect_eq "too many values: example of the right count, labelled" "The question asks for 2 numbers (the and sat); the answer has 3 and does not say which is which. Nothing was counted: answer again, e.g. the=0.xxx sat=0.xxx" "$(last "$out")"
out=$(at --lang zh check --no-save h:three "0.1 0.2 0.3")
expect_contains "labels: the question's own tokens (zh)" "请重新回答，例如 the=0.xxx sat=0.xxx" "$out"
out=$(at check --no-save h:count "12abc")
expect_eq "a count: a whole number" "Nothing was counted: answer again, e.g. N" "$(last "$out")"
out=$(at check --no-save h:one "0,16,")
expect_contains "one value, ambiguous commas: one number" "Write the decimal with a dot" "$out"

# practice: a position question gets whole numbers, a softmax question with two
# tokens asked gets two.
n=$("$AT_BIN" practice --no-save --seed 3 --kind causal --print | grep -c "Which key positions")
expect_eq "causal exercise found" 1 "$n"
out=$("$AT_BIN" practice --no-save --seed 3 --kind causal --answer "0.155abc")
case "$out" in *"e.g. 0."*) not_ok "practice positions: no decimals in the example" "$out" ;; *) ok "practice positions: no decimals in the example" ;; esac
expect_contains "practice positions: whole numbers" "answer again, e.g. N" "$out"
out=$("$AT_BIN" practice --no-save --seed 3 --kind heads --answer "12abc")
expect_eq "practice parameter count: one whole number" "Nothing was counted: answer again, e.g. N" "$(last "$out")"
rm -rf "$tmp"
