# attn-tutor lint: each broken file under tests/lint/ gives exactly the diagnostics its
# "# expect: LINE:COL: level: message" comments list; the shipped lessons lint clean;
# hostile input ends in an error, never a crash (also under ASan).
. tests/lib.sh
for f in tests/lint/*.yaml; do
  want=$(grep -a '^# expect: ' "$f" | sed 's/^# expect: //')
  got=$("$AT_BIN" lint "$f" 2>&1 >/dev/null | grep -a -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning): ' | sed "s|^$f:||")
  expect_eq "lint $(basename "$f")" "$want" "$got"
  case "$want" in *": error: "*) code=1 ;; *) code=0 ;; esac
  expect_status "lint $(basename "$f")" "$code" "$AT_BIN" lint "$f"
  out=$("$AT_BIN_ASAN" lint "$f" 2>&1)
  case "$out" in *ERROR:*Sanitizer*|*runtime\ error*) not_ok "lint $(basename "$f") under ASan" "$out" ;;
    *) ok "lint $(basename "$f") under ASan" ;; esac
done

# A 10 MB file is refused by size before parsing.
tmp=$(mktemp -d)
awk 'BEGIN { print "id: big\nlang: en\ntitle: Big\nsteps:"; for (i = 0; i < 400000; i++) print "  - text: a line of a very long lesson number " i }' > "$tmp/big.yaml"
out=$("$AT_BIN_ASAN" lint "$tmp/big.yaml" 2>&1)
expect_contains "10 MB file refused" "big.yaml:1:1: error: file is larger than 1048576 bytes (1 MiB)" "$out"
# An alias bomb: refused at the first alias, before any expansion.
{ echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
  echo 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]'
  echo 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]'
  echo 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]'; } > "$tmp/bomb.yaml"
out=$("$AT_BIN_ASAN" lint "$tmp/bomb.yaml" 2>&1)
expect_contains "alias bomb refused" "bomb.yaml:2:8: error: aliases (*name) are not allowed" "$out"
# zh and en out of step: a lesson in one language only, a question missing in the other.
mkdir -p "$tmp/root/zh" "$tmp/root/en"
printf 'id: one\nlang: en\ntitle: One\nsteps:\n  - question: {id: q1, kind: formula, prompt: p, canonical: x}\n' > "$tmp/root/en/01-one.yaml"
printf 'id: one\nlang: zh\ntitle: 一\nsteps:\n  - text: 无\n' > "$tmp/root/zh/01-one.yaml"
printf 'id: two\nlang: en\ntitle: Two\nsteps:\n  - question: {id: q1, kind: formula, prompt: p, canonical: x}\n' > "$tmp/root/en/02-two.yaml"
out=$("$AT_BIN" lint "$tmp/root" 2>&1)
expect_contains "question only in en" "en/01-one.yaml:5:5: error: question 'q1' is missing from the zh version" "$out"
expect_contains "lesson only in en" "en/02-two.yaml:1:5: error: lesson 'two' has no zh version" "$out"
expect_contains "question id used in two lessons" "en/02-two.yaml:5:5: warning: question id 'q1' is also used in" "$out"
# A lesson root where every file has errors: the files are counted all the same; a file in
# the wrong language folder is pointed at its `lang` value.
mkdir -p "$tmp/bad/zh" "$tmp/bad/en"
printf 'id: a\nlang: zh\ntitle: A\nsteps:\n  - text: x\n' > "$tmp/bad/en/a.yaml"
printf 'id: b\nlang: zh\ntitle: B\nsteps:\n  - tex: x\n' > "$tmp/bad/zh/b.yaml"
out=$("$AT_BIN" lint "$tmp/bad" 2>&1)
expect_contains "a broken root counts its files" "lint: 2 files, 3 errors, 0 warnings" "$out"
expect_contains "lang of the wrong folder at its value" \
  "en/a.yaml:2:7: error: \`lang\` says zh but the file is in the en folder (move it to zh/, or change \`lang\`)" "$out"
# A plain folder: *.yml files are checked as *.yaml ones are.
mkdir "$tmp/plain"
printf 'id: c\nlang: en\ntitle: C\nsteps:\n  - text: x\n' > "$tmp/plain/c.yml"
printf 'id: d\nlang: en\ntitle: D\nsteps:\n  - text: x\n' > "$tmp/plain/d.yaml"
out=$("$AT_BIN" lint "$tmp/plain" 2>&1)
expect_contains "a plain folder counts its .yml too" "lint: 2 files, 0 errors, 0 warnings" "$out"
rm -rf "$tmp"
expect_status "lint of a missing file is bad input" 2 "$AT_BIN" lint no/such/file.yaml
expect_status "lint rejects an unknown option" 2 "$AT_BIN" lint --frobnicate
