# --version names the libraries as loaded; every command answers --help with its usage
# and exit status 0.
. tests/lib.sh
out=$("$AT_BIN" --version); rc=$?
expect_eq "--version exit status" 0 "$rc"
expect_contains "--version: attn-tutor" "attn-tutor $(sed -n 's/^VERSION := //p' Makefile)" "$out"
expect_contains "--version: ncurses" "ncurses 6." "$out"
expect_contains "--version: libcyaml" "libcyaml 1." "$out"
expect_contains "--version: OpenBLAS with its core" "(core " "$out"
expect_contains "--version: OpenBLAS" "OpenBLAS 0." "$out"
expect_contains "--version: libunistring" "libunistring 1." "$out"
for c in softmax attend lesson lab quiz compute show lint check practice; do
  out=$("$AT_BIN" "$c" --help </dev/null 2>&1); rc=$?
  expect_eq "$c --help exit status" 0 "$rc"
  expect_contains "$c --help usage" "usage: attn-tutor" "$out"
done
out=$("$AT_BIN" --help); rc=$?
expect_eq "--help exit status" 0 "$rc"
expect_contains "--help lists the commands" "practice" "$out"
