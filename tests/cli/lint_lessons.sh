# `make test` lints the shipped lessons: both languages load, compute and agree with
# the engine (and, with the trained model, every lab expectation holds).
. tests/lib.sh
# The shipped lessons (both languages, compared with each other) lint clean.
out=$("$AT_BIN" lint lessons 2>&1); rc=$?
expect_eq "shipped lessons lint clean: $(printf '%s' "$out" | grep -a -m3 'error:' | tr '\n' ' ')" 0 "$rc"
expect_status "lint with no argument lints the shipped lessons" 0 "$AT_BIN" lint

