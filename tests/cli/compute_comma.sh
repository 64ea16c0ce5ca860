# attn-tutor compute warns, as lint does, on a decimal comma YAML reads as two numbers;
# the numbers computed are still those YAML read, and a list written with no spaces at
# all ([[1,0],[0,1]]) is taken as meant, without a word.
. tests/lib.sh
tmp=$(mktemp -d)
printf 'scores: [[0,5, 1]]\n' > "$tmp/comma.yaml"
err=$(printf 'scores: [[0,5, 1]]\n' | "$AT_BIN" compute - 2>&1 >/dev/null)
expect_eq "compute from stdin warns on '0,5'" \
  "-:1:11: warning: \`scores\`: '0,5' reads as two numbers 0 and 5; write 0.5 (a decimal takes a dot), or put a space after the comma" "$err"
expect_status "a warning is not a failure" 0 "$AT_BIN" compute "$tmp/comma.yaml"
printf 'id: c\nlang: en\ntitle: C\nsteps:\n  - compute:\n      scores: [[0,5, 1]]\n' > "$tmp/lesson.yaml"
lint=$("$AT_BIN" lint "$tmp/lesson.yaml" 2>&1 | grep ': warning: ' | grep -v 'no prediction before it' |
      sed 's/^.*: warning: //')   # (the lesson's own warning: a result with no prediction)
err=$("$AT_BIN" compute "$tmp/comma.yaml" 2>&1 >/dev/null | sed 's/^.*: warning: //')
expect_contains "lint warns in a lesson's compute block" "'0,5' reads as two numbers" "$lint"
expect_eq "compute's warning is lint's" "$lint" "$err"
out=$("$AT_BIN" compute --format json "$tmp/comma.yaml" 2>/dev/null)
expect_contains "scores as YAML read them" '"scores":[[0,5,1]]' "$out"
printf 'q: [[1,0],[0,1]]\nk: [[1,0],[0,1]]\nv: [[1,0],[0,1]]\n' > "$tmp/tight.yaml"
err=$("$AT_BIN" compute "$tmp/tight.yaml" 2>&1 >/dev/null)
expect_eq "no spaces at all: no warning" "" "$err"
err=$("$AT_BIN_ASAN" compute "$tmp/comma.yaml" 2>&1 >/dev/null)
expect_contains "under ASan: the warning, nothing else" "comma.yaml:1:11: warning: " "$err"
case "$err" in *Sanitizer*|*runtime\ error*) not_ok "compute comma ASan clean" "$err" ;; *) ok "compute comma ASan clean" ;; esac
rm -rf "$tmp"
