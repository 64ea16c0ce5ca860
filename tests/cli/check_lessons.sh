# check names what is missing: a lesson that does not exist (and the lessons there
# are), a lesson that failed to load (and the lint command that shows why), a question
# a lesson does not have (and the questions it has).
. tests/lib.sh
tmp=$(mktemp -d)
export XDG_STATE_HOME="$tmp/state"
out=$("$AT_BIN" check --no-save nolesson:q1 1 2>&1); rc=$?
expect_eq "no such lesson: exit 2" 2 "$rc"
expect_contains "no such lesson: named" "attn-tutor check: no lesson 'nolesson' (lessons: " "$out"
expect_contains "no such lesson: the lessons listed" " self-test" "$out"
expect_contains "no such lesson: the lessons listed (2)" "why-attention" "$out"
case "$out" in *"no question"*) not_ok "no such lesson: not 'no question'" "$out" ;; *) ok "no such lesson: not 'no question'" ;; esac
out=$("$AT_BIN" --lang zh check --no-save nolesson:q1 1 2>&1)
expect_contains "no such lesson (zh)" "attn-tutor check：没有课程 'nolesson'（课程：" "$out"

out=$("$AT_BIN" check --no-save self-test:q9 1 2>&1); rc=$?
expect_eq "no such question: exit 2" 2 "$rc"
expect_contains "no such question: the lesson's questions" "no question 'self-test:q9' (questions of self-test: q1 q2 q2b q3 q4 q5)" "$out"

# A lesson with a lint error (steps: 5, a number where a list belongs) is left out.
mkdir -p "$tmp/l/en" "$tmp/l/zh"
cat > "$tmp/l/en/g.yaml" <<'YAML'
id: g
lang: en
order: 1
title: "Broken"
summary: "steps is not a list"
steps: 5
YAML
sed 's/^lang: en/lang: zh/' "$tmp/l/en/g.yaml" > "$tmp/l/zh/g.yaml"
out=$("$AT_BIN" --lessons "$tmp/l" check --no-save g:t 1 2>&1); rc=$?
expect_eq "broken lesson: exit 2" 2 "$rc"
expect_contains "broken lesson: could not be loaded" "attn-tutor check: lesson 'g' could not be loaded (1 error in $tmp/l/en/g.yaml); to see why: attn-tutor lint $tmp/l/en/g.yaml" "$out"
lint=$("$AT_BIN" lint "$tmp/l/en/g.yaml" 2>&1)
expect_contains "the lint command named shows the error" "g.yaml:6:" "$lint"
out=$("$AT_BIN" --lessons "$tmp/l" --lang zh check --no-save g:t 1 2>&1)
expect_contains "broken lesson (zh)" "attn-tutor check：课程 'g' 无法加载（$tmp/l/zh/g.yaml 有 1 个错误）；查看原因：attn-tutor lint $tmp/l/zh/g.yaml" "$out"
rm -rf "$tmp"

# An option whose own feedback opens with its verdict ("Right: exp(−∞) = 0 …") is not
# labelled "right" a second time.
out=$("$AT_BIN" check masking:mask-1 d --no-save 2>&1)
expect_contains "choice: the option's own verdict" "— Right: exp(−∞) = 0" "$out"
case "$out" in *"right: Right"*) not_ok "choice: 'right' said once" "$out" ;; *) ok "choice: 'right' said once" ;; esac
