# make install into an empty folder (DESTDIR, PREFIX=/usr): the installed program finds
# its lessons, model and translations through the install prefix, also when the
# staged tree is moved; the man page renders; make uninstall removes every file.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
if make --no-print-directory -s install DESTDIR="$stage" PREFIX=/usr >"$tmp/log" 2>&1; then
  ok "make install DESTDIR PREFIX=/usr"
else
  not_ok "make install DESTDIR PREFIX=/usr" "$(tail -5 "$tmp/log")"
fi
bin=$stage/usr/bin/attn-tutor
share=$stage/usr/share/attn-tutor
for f in "$bin" "$share/models/mini.safetensors" "$share/lessons/en/03-scaled-dot-product.yaml" \
         "$share/lessons/zh/10-self-test.yaml" "$stage/usr/share/man/man1/attn-tutor.1"; do
  if [ -f "$f" ]; then ok "installed ${f#"$stage"}"; else not_ok "installed ${f#"$stage"}"; fi
done
for po in po/*.po; do
  [ -f "$po" ] || continue
  l=$(basename "$po" .po); mo=$stage/usr/share/locale/$l/LC_MESSAGES/attn-tutor.mo
  if [ -f "$mo" ]; then ok "installed translation $l"; else not_ok "installed translation $l" "$mo"; fi
done
expect_eq "lessons installed (zh, en)" "$(ls lessons/zh lessons/en | grep -c yaml)" \
  "$(ls "$share/lessons/zh" "$share/lessons/en" | grep -c yaml)"

# The installed program, run where it was staged and after the tree is moved: its data
# must come from the install, so ATTN_TUTOR_DATA is cleared.
run_installed() { # label, binary
  b=$2
  out=$(env -u ATTN_TUTOR_DATA OPENBLAS_NUM_THREADS=1 "$b" attend "The animal didn't cross the street because it was too tired" 2>&1); rc=$?
  expect_eq "$1: attend exit status" 0 "$rc"
  expect_contains "$1: attend shows the tokens" "animal" "$out"
  out=$(env -u ATTN_TUTOR_DATA "$b" --lang en show scaled-dot-product 2>&1); rc=$?
  expect_eq "$1: show exit status" 0 "$rc"
  expect_contains "$1: show prints the lesson" "(scaled-dot-product, en)" "$out"
  out=$(env -u ATTN_TUTOR_DATA XDG_STATE_HOME="$tmp/state" "$b" --lang en check q3 "0.14 0.17" 2>&1); rc=$?
  expect_eq "$1: check q3 exit status" 0 "$rc"
  expect_contains "$1: check q3 graded with the engine's values" "engine: 0.1384" "$out"
  out=$(env -u ATTN_TUTOR_DATA XDG_STATE_HOME="$tmp/state" "$b" --lang zh check --no-save q3 "0.5 0.6" 2>&1)
  expect_contains "$1: check --lang zh: feedback from the installed catalogue" "不正确。" "$out"
  case "$out" in *"stay in English"*) not_ok "$1: the installed catalogue is found" "$out" ;;
    *) ok "$1: the installed catalogue is found" ;; esac
  out=$(env -u ATTN_TUTOR_DATA "$b" lint 2>&1); rc=$?
  expect_eq "$1: lint of the installed lessons" 0 "$rc"
}
run_installed "staged install" "$bin"
mv "$stage" "$tmp/moved"
run_installed "moved install" "$tmp/moved/usr/bin/attn-tutor"
out=$(env -u ATTN_TUTOR_DATA "$tmp/moved/usr/bin/attn-tutor" lint "$tmp/moved/usr/share/attn-tutor/lessons" 2>&1)
expect_eq "lint DIR on the installed lessons" 0 "$?"
mv "$tmp/moved" "$stage"

# The man page: renders without warnings, and holds every command.
man=$stage/usr/share/man/man1/attn-tutor.1
warn=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
expect_eq "man page: groff -man -ww gives no warning" "" "$warn"
page=$(MANPAGER=cat MANWIDTH=80 man -l "$man" 2>&1)
expect_contains "man -l renders the page" "attn-tutor - a terminal tutor for Transformer self-attention" "$page"
for s in SYNOPSIS COMMANDS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
  expect_contains "man page section $s" "$s" "$page"
done
for c in softmax attend lesson lab quiz compute show lint check practice; do
  case "$page" in *"
       attn-tutor $c"*) ok "man page describes $c" ;; *) not_ok "man page describes $c" ;; esac
done
# Command headings are never split inside an option at 80 columns: the first line of each
# holds the command and its leading options whole.
expect_contains "man: softmax heading on one line" \
  "       attn-tutor softmax [--scale x] [--format table|json] s1 s2 ..." "$page"
expect_contains "man: check heading keeps its options" \
  "       attn-tutor check qid answer [--format text|json] [--self verdict]" "$page"
split=$(printf '%s\n' "$page" | sed -n '/^COMMANDS/,/^EXIT STATUS/p' | grep -E '\[[^]]*$' || true)
expect_eq "man: no option bracket left open at a line end" "" "$split"

size=$(du -sk "$stage" | cut -f1)
echo "# installed size: ${size} KiB"
make --no-print-directory -s uninstall DESTDIR="$stage" PREFIX=/usr >"$tmp/log" 2>&1
expect_eq "make uninstall leaves no file" "" "$(find "$stage" -type f)"
