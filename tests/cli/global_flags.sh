# Every global flag works before the command, right after its name and after its own
# arguments, for every command: the same output and the same exit status in the three
# places (the tutor's screens run without a terminal and stop at "needs a terminal",
# after their arguments were read; tests/unit/test_cli_args.c covers every position
# of the parse itself). Then: each flag takes effect after the command as before it.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state"
mkdir -p "$tmp/less/en" "$tmp/less/zh"
sed 's/^id: why-attention/id: flag-lesson/' lessons/en/01-why-attention.yaml > "$tmp/less/en/01.yaml"
sed 's/^id: why-attention/id: flag-lesson/' lessons/zh/01-why-attention.yaml > "$tmp/less/zh/01.yaml"
printf 'scores: [[1, 2, 3]]\n' > "$tmp/block.yaml"
model="$PWD/models/mini.safetensors"

# run NAME WORDS…: stdout, stderr and the exit status of attn-tutor WORDS, no terminal.
run() {
  "$AT_BIN" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
  echo "status $?" >>"$tmp/out"
  cat "$tmp/err" >>"$tmp/out"
  cat "$tmp/out"
}

# each command with its arguments, ¦-separated
commands="softmax¦1¦2¦3
attend¦The cat sat on the mat
lesson¦why-attention
lab¦The animal was tired
quiz
compute¦$tmp/block.yaml
show¦why-attention
lint¦lessons/en/01-why-attention.yaml
check¦q3¦0.14 0.17¦--no-save
practice¦--seed¦7¦--print"
flags="--lang¦zh
--lang=en
--lessons¦$tmp/less
--model¦$model
--model=$tmp/no-such-model.safetensors
--help
--version"

printf '%s\n' "$commands" > "$tmp/commands"
printf '%s\n' "$flags" > "$tmp/flags"
while IFS= read -r cmdline; do
  while IFS= read -r flagline; do
    oldifs=$IFS; IFS='¦'
    set -f
    # shellcheck disable=SC2086
    set -- $cmdline
    cmd=$1; shift
    args=$*   # joined with ¦ again
    # shellcheck disable=SC2086
    before=$(run $flagline $cmd $args)
    # shellcheck disable=SC2086
    after_name=$(run $cmd $flagline $args)
    # shellcheck disable=SC2086
    after_args=$(run $cmd $args $flagline)
    set +f
    IFS=$oldifs
    name="$cmd ${flagline%%¦*}"
    expect_eq "$name: the same after the command name as before it" "$before" "$after_name"
    expect_eq "$name: the same after the arguments as before the command" "$before" "$after_args"
  done < "$tmp/flags"
done < "$tmp/commands"

# The tutor (no command) takes every flag; without a terminal it says it needs one (1).
for f in "--lang zh" "--lessons $tmp/less" "--model $model"; do
  # shellcheck disable=SC2086
  expect_status "tutor $f: read (needs a terminal: exit 1)" 1 "$AT_BIN" $f
done

# The flags take effect after the command, not only get skipped.
out=$("$AT_BIN" show why-attention --lang zh 2>&1)
expect_contains "show ID --lang zh: the lesson in Chinese" "为什么需要注意力" "$out"
out=$("$AT_BIN" show --lessons "$tmp/less" 2>&1)
expect_contains "show --lessons DIR: only DIR's lessons" "flag-lesson" "$out"
case "$out" in *why-attention*) not_ok "show --lessons DIR: not the shipped ones" "$out" ;; *) ok "show --lessons DIR: not the shipped ones" ;; esac
out=$("$AT_BIN" attend "The cat" --model "$tmp/no-such-model.safetensors" 2>&1); rc=$?
expect_contains "attend SENTENCE --model FILE: that file is read" "no-such-model.safetensors" "$out"
expect_eq "attend SENTENCE --model missing: fails" 1 "$([ "$rc" -ne 0 ] && echo 1)"
out=$("$AT_BIN" lab "The cat" --lang en </dev/null 2>&1); rc=$?
expect_eq "lab SENTENCE --lang en: read (needs a terminal: exit 1)" 1 "$rc"
expect_contains "lab SENTENCE --lang en: says it needs a terminal" "needs a terminal" "$out"
out=$("$AT_BIN" lesson flag-lesson --lessons "$tmp/less" </dev/null 2>&1); rc=$?
expect_eq "lesson ID --lessons DIR: the lesson found there (needs a terminal: exit 1)" 1 "$rc"
out=$("$AT_BIN" quiz --version 2>&1); rc=$?
expect_eq "quiz --version: exit 0" 0 "$rc"
expect_contains "quiz --version: the version" "attn-tutor $(sed -n 's/^VERSION := //p' Makefile)" "$out"
out=$("$AT_BIN" --help check 2>&1)
expect_contains "--help check: check's help" "usage: attn-tutor check QID ANSWER" "$out"
# after "--" a flag is the command's: the word "--lang" is an answer to check
out=$("$AT_BIN" check --no-save q3 -- --lang 2>&1); rc=$?
expect_eq "check q3 -- --lang: an answer, malformed (exit 2)" 2 "$rc"
case "$out" in *"--lang needs a value"*) not_ok "check q3 -- --lang: not a global flag" "$out" ;; *) ok "check q3 -- --lang: not a global flag" ;; esac
