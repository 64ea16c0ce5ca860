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
# The commands that open the tutor, lint and the plain-text ones name the global flags.
for c in lesson lab quiz lint show check compute practice; do
  out=$("$AT_BIN" "$c" --help 2>&1)
  for f in "--lang zh|en" "--lessons DIR" "--model FILE"; do
    expect_contains "$c --help names $f" "$f" "$out"
  done
done
out=$("$AT_BIN" --help)
expect_contains "--help names --model" "--model FILE" "$out"
# The language sources, in the order the code reads them, agree in the README, the man page
# and --help; LANGUAGE is read first.
expect_contains "README: language sources" \
  "the first of \`LANGUAGE\` / \`LC_ALL\` / \`LC_MESSAGES\` / \`LANG\` that is set" "$(tr '\n' ' ' < README.md)"
page=$(MANPAGER=cat MANWIDTH=80 man -l docs/attn-tutor.1 2>/dev/null | tr -s ' \n' '  ')
expect_contains "man page: language sources" "Default: from LANGUAGE, LC_ALL, LC_MESSAGES, LANG" "$page"
expect_contains "--help: language sources" "LANGUAGE, LC_ALL, LC_MESSAGES, LANG, the first one set" \
  "$(printf '%s' "$out" | tr -s ' \n' '  ')"
out=$(env -u LC_ALL -u LC_MESSAGES LANGUAGE=zh_CN LANG=en_US.UTF-8 "$AT_BIN" show 2>&1)
expect_contains "LANGUAGE=zh comes before LANG=en" "why-attention       为什么需要注意力" "$out"
# compute takes the global flags after its name too, as every command does
printf 'scores: [[1, 2]]\n' > "${TMPDIR:-/tmp}/at-help-$$.yaml"
out=$("$AT_BIN" compute --lang zh "${TMPDIR:-/tmp}/at-help-$$.yaml" 2>&1); rc=$?
rm -f "${TMPDIR:-/tmp}/at-help-$$.yaml"
expect_eq "compute FILE --lang zh: accepted (exit 0)" 0 "$rc"
expect_contains "compute --lang zh: the weights of [1, 2]" "0.2689" "$out"
