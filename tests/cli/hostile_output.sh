# Nothing from a file or an argument reaches the terminal raw: every command on a lesson
# folder whose ids, titles, text, hints, explanations, table cells, options, compute
# labels and file names hold escape sequences (OSC 52, OSC 0, CSI 2J, U+009B, a raw
# 0x9B, BEL, DEL, bidi overrides), and with such arguments. stdout and stderr of each
# run hold none of them (forbidden in tests/hostile/lib.sh) but show each as "�";
# JSON carries them as JSON escapes (\u001b).
. tests/lib.sh
. tests/hostile/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state"
hostile_dir "$tmp/less"
L="--lessons $tmp/less"
esc=$(printf '\033')
osc0=$(printf '\033]0;pwned\007')
evil_utf8=$(printf 'A\033]52;c;cHduZWQ=\007B\033]0;pwned\007C\033[2JD\302\233F\342\200\256G\177')
evil_arg="${evil_utf8}H$(printf '\233')I"   # and a raw 0x9B: invalid UTF-8
ph='�'   # the placeholder

# clean NAME EXPECTED_STATUS NEEDLE WORDS…: run attn-tutor WORDS (stdin from $tmp/in);
# stdout and stderr hold nothing forbidden, together they show NEEDLE; the exit status.
: > "$tmp/in"
clean() {
  _name=$1 _want=$2 _needle=$3; shift 3
  "$AT_BIN" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; _rc=$?
  _o=$(forbidden "$tmp/out") _e=$(forbidden "$tmp/err")
  if [ -z "$_o$_e" ]; then ok "$_name: nothing raw"
  else not_ok "$_name: nothing raw" "stdout:$_o" "stderr:$_e" "$(head -c 400 "$tmp/out" "$tmp/err" | od -c | head -20)"; fi
  expect_contains "$_name: shows it" "$_needle" "$(cat "$tmp/out" "$tmp/err")"
  expect_eq "$_name: exit status" "$_want" "$_rc"
}

# show: the list (titles), each language, every step kind
clean "show (list)" 0 "Title A$ph]52;c;cHduZWQ=${ph}B$ph]0;pwned${ph}C$ph[2JD${ph}2JE${ph}F${ph}gnp.exe$ph" $L show
clean "show evil" 0 "Text $ph]52;c;cHduZWQ=$ph $ph]0;pwned$ph $ph[2J ${ph}2J $ph ${ph}gnp.exe$ph" $L show evil
clean "show evil --lang zh" 0 "Hint $ph]52;c;cHduZWQ=$ph" $L --lang zh show evil
out=$("$AT_BIN" $L show evil)
expect_contains "show: table cells padded by what is printed" "| H$ph]0;pwned$ph | ${ph}2J     |" "$out"
expect_contains "show: compute labels" "a$ph]0;pwned$ph    1.0000    2.0000" "$out"
expect_contains "show: choice options and feedback" "[x] Right $ph]0;pwned$ph" "$out"
expect_contains "show: code" "int x;$ph]0;pwned$ph" "$out"
expect_contains "show: explanation" "Because $ph]0;pwned$ph ${ph}2J ${ph}x$ph" "$out"
clean "show with an id full of escapes" 2 "no lesson '$ph]0;pwned$ph'" $L show "$osc0"

# lint: file names, quoted values, unknown keys, YAML errors on raw bytes
clean "lint the folder" 1 "02-bad$ph]0;pwned$ph$ph.yaml" lint "$tmp/less"
out=$(cat "$tmp/out" "$tmp/err")
expect_contains "lint: a bad id quoted" "'x$ph]0;pwned$ph${ph}y$ph'" "$out"
expect_contains "lint: an unknown key quoted" "unknown key '$ph]0;pwned${ph}key'" "$out"
expect_contains "lint: a bad value quoted" "not '$ph]0;pwned$ph'" "$out"
clean "lint a missing file named with escapes" 2 "nope$ph]0;pwned$ph" lint "$tmp/nope$osc0.yaml"

# check: feedback quoting the answer, expected text, explanations; text and JSON
clean "check q3 with an OSC answer (the self-test)" 2 "malformed answer" check --no-save q3 "$(printf '\033]0;x\007')"
clean "check choice" 0 "Right $ph]0;pwned$ph — right: Yes $ph[2J" $L check --no-save evil:q1 "Right $osc0"
clean "check softmax, wrong: the token in the feedback" 1 "t$ph]0;pwned$ph" $L check --no-save evil:q2 "0.9"
clean "check softmax, escapes" 2 "malformed answer" $L check --no-save evil:q2 "$evil_arg"
clean "check choice, escapes quoted" 2 "'A$ph]52' is not an option" $L check --no-save evil:q1 "$evil_utf8"
clean "check text" 0 "idea $ph]0;pwned$ph" $L check --no-save evil:q3 "attention $evil_utf8"
clean "check text, invalid UTF-8" 2 "not valid UTF-8" $L check --no-save evil:q3 "attention $evil_arg"
clean "check formula" 2 "" $L check --no-save evil:q4 "$evil_arg"
clean "check numeric, the explanation revealed" 1 "N ${ph}2J" $L check --no-save --reveal evil:q5 "7"
clean "check an unknown question named with escapes" 2 "no question 'q$ph]0;pwned$ph'" check --no-save "q$osc0" 1
clean "check an unknown lesson named with escapes" 2 "no lesson 'l$ph]0;pwned$ph'" $L check --no-save "l$osc0:q1" 1
clean "check --format with escapes" 2 "not '$ph]0;pwned$ph'" check --format "$osc0" q3 1
clean "check --self with escapes" 2 "not '$ph]0;pwned$ph'" check --self "$osc0" q3 1
for q in q1 q2 q3 q4 q5; do
  "$AT_BIN" $L check --no-save --format json "evil:$q" "$evil_arg" >"$tmp/out" 2>"$tmp/err"
  expect_eq "check evil:$q JSON: nothing raw" "" "$(forbidden "$tmp/out")$(forbidden "$tmp/err")"
done
"$AT_BIN" $L check --no-save --format json evil:q1 "$evil_utf8" >"$tmp/out"
expect_contains "check JSON: the answer's ESC as JSON's escape" "'A\\u001b]52' is not an option" "$(cat "$tmp/out")"
"$AT_BIN" $L check --no-save --format json evil:q1 "$(printf '\302\233\342\200\256\177\033\007')" >"$tmp/out"
expect_contains "check JSON: U+009B, the bidi override, DEL, ESC, BEL escaped" \
  "'\\u009b\\u202e\\u007f\\u001b\\u0007' is not an option" "$(cat "$tmp/out")"
"$AT_BIN" $L check --no-save --format json --reveal evil:q3 "$evil_utf8" >"$tmp/out"
expect_contains "check JSON: the expected text's escapes" '"expected":"Reference \u001b]0;pwned\u0007 \u202e"' "$(cat "$tmp/out")"

# compute: labels, a file named with escapes, JSON
printf 'tokens: ["a\\e]0;pwned\\a", "\\x9bb"]\nkey_tokens: ["\\u202Ek", "k\\e[2J"]\nscores: [[1, 2], [3, 4]]\n' > "$tmp/c.yaml"
clean "compute" 0 "a$ph]0;pwned$ph    0.2689    0.7311" compute "$tmp/c.yaml"
clean "compute JSON" 0 '"weights":[[0.2689' compute --format json "$tmp/c.yaml"
clean "compute a missing file named with escapes" 2 "c$ph]0;pwned$ph.yaml" compute "$tmp/c$osc0.yaml"
printf 'scores: [[1, "\\e]0;pwned\\a"]]\n' > "$tmp/c2.yaml"
clean "compute a bad value with escapes" 2 "" compute "$tmp/c2.yaml"

# softmax, attend: arguments quoted in messages, tokens
clean "softmax an escape as a score" 2 "'$ph[2J'" softmax 1 "$(printf '\033[2J')"
clean "softmax --format with escapes" 2 "not '$ph]0;pwned$ph'" softmax --format "$osc0" 1 2
clean "attend a sentence with escapes" 0 "2JD   F${ph}G" attend "The cat $evil_utf8 sat"
clean "attend CSV" 0 "layer,head" attend --format csv "The cat $evil_utf8 sat"
clean "attend JSON" 0 '"tokens":[' attend --format json "The cat $evil_utf8 sat"
clean "attend invalid UTF-8" 2 "invalid UTF-8" attend "The cat $evil_arg sat"
clean "attend --head with escapes" 2 "not '$ph]0;pwned$ph'" attend --head "$osc0" cat

# practice: an answer quoted in feedback, a bad option value, a session fed escapes
clean "practice --answer with escapes" 2 "" practice --seed 5 --kind softmax --answer "$evil_arg"
clean "practice --answer JSON" 2 '"feedback"' practice --seed 5 --kind softmax --answer "$evil_arg" --format json
clean "practice --kind with escapes" 2 "not '$ph]0;pwned$ph'" practice --kind "$osc0"
printf '%s\n\n' "$evil_arg" > "$tmp/in"
clean "practice session fed escapes" 0 "" practice --seed 5 --count 1
: > "$tmp/in"

# the screens without a terminal, global flags and commands with escapes
clean "lesson named with escapes" 2 "$ph]0;pwned$ph" $L lesson "$osc0"
clean "lab with escapes, no terminal" 1 "needs a terminal" lab "$evil_arg"
clean "quiz, no terminal" 1 "needs a terminal" $L quiz
clean "an unknown command with escapes" 2 "unknown command '$ph]0;pwned$ph'" "$osc0"
clean "--lang with escapes" 2 "not '$ph]0;pwned$ph'" --lang "$osc0" show
clean "--lessons with escapes" 2 "" --lessons "$tmp/x$osc0" show
clean "--model with escapes" 2 "x$ph]0;pwned$ph" --model "$tmp/x$osc0" attend cat
