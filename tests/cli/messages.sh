# The grader's and the commands' messages all come from the gettext catalogue: every
# message of src/quiz and src/cli (extracted with xgettext by scripts/messages.sh, the
# extraction `make po` uses) has a Chinese translation in po/zh_CN.po that msgfmt
# --check accepts (printf directives matching the English), and no English/Chinese pair
# is left inline in the code. The check is shown to catch a message without a
# translation, and the programs to answer in the catalogue's Chinese.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tool in xgettext msgmerge msgfmt msgattrib; do
  command -v "$tool" >/dev/null 2>&1 || { not_ok "$tool installed (gettext, scripts/deps.sh)"; exit 0; }
done

# untranslated POT: the messages of the pot that po/zh_CN.po does not translate (or
# marks fuzzy) into $tmp/missing, one msgid a line; how many it does translate into
# $translated.
untranslated() { # pot
  : > "$tmp/missing"
  translated=
  msgmerge --quiet --no-fuzzy-matching --no-wrap po/zh_CN.po "$1" -o "$tmp/merged.po" 2>"$tmp/err" ||
    { not_ok "msgmerge po/zh_CN.po" "$(cat "$tmp/err")"; return; }
  # (the header entry, msgid "", is always in msgattrib's output)
  translated=$(msgattrib --translated --no-fuzzy --no-obsolete "$tmp/merged.po" | grep -c '^msgid ')
  translated=$((translated - 1))
  { msgattrib --untranslated --no-obsolete "$tmp/merged.po"; msgattrib --only-fuzzy --no-obsolete "$tmp/merged.po"; } |
    grep '^msgid ' | grep -v '^msgid ""$' > "$tmp/missing" || true
}

if scripts/messages.sh "$tmp/msgs.pot" src/quiz src/cli 2>"$tmp/err"; then
  ok "xgettext extracts the messages of src/quiz and src/cli"
else
  not_ok "xgettext extracts the messages of src/quiz and src/cli" "$(cat "$tmp/err")"
fi
n=$(grep -c '^msgid ' "$tmp/msgs.pot")
# about 250 today; far fewer means the keywords no longer match the code
if [ "$n" -ge 200 ]; then ok "messages extracted: $n"; else not_ok "messages extracted: $n (want at least 200)"; fi
untranslated "$tmp/msgs.pot"
expect_eq "every message of src/quiz and src/cli has a Chinese translation" "" "$(cat "$tmp/missing")"
expect_eq "all of them counted as translated ($((n - 1)) messages)" "$((n - 1))" "$translated"
out=$(msgfmt --check --statistics -o /dev/null "$tmp/merged.po" 2>&1)
expect_eq "msgfmt --check --statistics of their catalogue" "$((n - 1)) translated messages." "$out"
out=$(msgfmt --check -o /dev/null po/zh_CN.po 2>&1)
expect_eq "po/zh_CN.po passes msgfmt --check (printf directives match)" "" "$out"

# The check itself: a message (in each kind of call) without a translation is reported.
mkdir "$tmp/probe"
cat > "$tmp/probe/probe.c" <<'EOF'
static void probe(qz_lang lang) {
    fprintf(fb, qz_tr(lang, "probe: a message nobody translated\n"));
    qz_lex_fail(lx, t, "probe: a parser message nobody translated");
    printf(qz_ntr(lang, "probe: %zu thing", "probe: %zu things", n), n);
    qz_trc(lang, "probe", "Correct.\n");
    qz_tr(lang, "Correct.\n");
}
EOF
scripts/messages.sh "$tmp/probe.pot" "$tmp/probe" 2>/dev/null
untranslated "$tmp/probe.pot"
expect_eq "the check reports untranslated messages (qz_tr, qz_lex_fail, qz_ntr, qz_trc)" \
  'msgid "probe: a message nobody translated\n"
msgid "probe: a parser message nobody translated"
msgid "probe: %zu thing"
msgid "Correct.\n"' "$(cat "$tmp/missing")"
expect_eq "a translated message is not reported" 1 "$translated"

# Nothing inline any more: no QZ_TR pair, no Chinese text chosen by the language, and
# no Chinese string in src/cli at all (src/quiz keeps the Chinese words it reads in
# answers, in its vocabulary tables).
han='[\x{3400}-\x{9fff}\x{ff01}-\x{ff5e}]'
left=$(grep -rnP "QZ_TR *\\(|(QZ_ZH|\\bzh) *\\? *\"[^\"]*$han|: *\"[^\"]*$han[^\"]*\" *\\)? *;? *$" src/quiz src/cli |
       grep -vP '^[^:]+:[0-9]+: *(/?\*|//)' || true)
expect_eq "no English/Chinese pair left inline in src/quiz and src/cli" "" "$left"
cli=$(grep -rnP "\"[^\"]*$han" src/cli | grep -vP '^[^:]+:[0-9]+: *(/?\*|//)' || true)
expect_eq "no Chinese string in src/cli" "" "$cli"

# The programs answer from the catalogue (the words below are in po/zh_CN.po only).
out=$("$AT_BIN" --lang zh check --no-save q3 "0.5 0.6" 2>&1)
expect_contains "check --lang zh: the verdict from the catalogue" "不正确。" "$out"
out=$("$AT_BIN" --lang zh check --no-save nolesson:q1 "x" 2>&1)
expect_contains "check --lang zh: a command's error from the catalogue" "attn-tutor check：没有课程 'nolesson'" "$out"
out=$("$AT_BIN" --lang en check --no-save q3 "0.5 0.6" 2>&1)
expect_contains "check --lang en: English" "Not right." "$out"

# A program without its catalogue (copied away from the build tree) says so once, and
# speaks English; a broken catalogue beside it is refused with what is wrong.
mkdir -p "$tmp/bin"
cp "$AT_BIN" "$tmp/bin/attn-tutor"
out=$(ATTN_TUTOR_DATA=$PWD "$tmp/bin/attn-tutor" --lang zh check --no-save q3 "0.5 0.6" 2>&1)
if [ -f /usr/local/share/locale/zh_CN/LC_MESSAGES/attn-tutor.mo ]; then   # (the default LOCALEDIR)
  ok "no catalogue: said on stderr # SKIP attn-tutor is installed in /usr/local"
else
  expect_contains "no catalogue: said on stderr" "attn-tutor: messages stay in English: no attn-tutor.mo for zh_CN" "$out"
  expect_contains "no catalogue: the feedback in English" "Not right." "$out"
  expect_eq "no catalogue: said once" 1 "$(printf '%s\n' "$out" | grep -c 'messages stay in English')"
fi
out=$(ATTN_TUTOR_DATA=$PWD "$tmp/bin/attn-tutor" --lang en check --no-save q3 "0.5 0.6" 2>&1)
case "$out" in *"stay in English"*) not_ok "English needs no catalogue" "$out" ;; *) ok "English needs no catalogue" ;; esac
mkdir -p "$tmp/bin/locale/zh_CN/LC_MESSAGES"
head -c 100 po/zh_CN.po > "$tmp/bin/locale/zh_CN/LC_MESSAGES/attn-tutor.mo"
out=$(ATTN_TUTOR_DATA=$PWD "$tmp/bin/attn-tutor" --lang zh softmax 1 2 2>&1)
expect_contains "a broken catalogue is named and refused" \
  "attn-tutor: messages stay in English: $tmp/bin/locale/zh_CN/LC_MESSAGES/attn-tutor.mo: not a .mo file (bad magic number)" "$out"
cp "build/locale/zh_CN/LC_MESSAGES/attn-tutor.mo" "$tmp/bin/locale/zh_CN/LC_MESSAGES/attn-tutor.mo"
out=$(ATTN_TUTOR_DATA=$PWD "$tmp/bin/attn-tutor" --lang zh softmax 1 2 2>&1)
expect_contains "the catalogue beside the program is used" "2 个分数的 softmax" "$out"
