# The Chinese terms of docs/glossary.md: the lessons (the self-test's rubrics aside: they
# list the words students write) and the screens' translations use one term per concept.
. tests/lib.sh
files="po/zh_CN.po $(ls lessons/zh/*.yaml | grep -v 10-self-test)"
for bad in 遮蔽 遮挡 屏蔽 遮罩 实验台 令牌; do
  hits=$(grep -n "$bad" $files | grep -v '^po/zh_CN.po:[0-9]*:msgid' | head -3)
  expect_eq "no $bad (glossary)" "" "$hits"
done
# "token" as a word of Chinese prose (YAML keys such as tokens: and kind: token aside)
hits=$(grep -nP '[\x{4e00}-\x{9fff}，。：] ?token|token ?[\x{4e00}-\x{9fff}，。]' $files | head -3)
expect_eq "no token in Chinese prose: 词元 (glossary)" "" "$hits"
# the lab's label in the lesson player and the step kind
hits=$(grep -n -A1 '^msgid "lab"$' po/zh_CN.po | grep msgstr | sed 's/^[0-9]*-//' | sort -u)
expect_eq "the lab step is 实验室" 'msgstr "实验室"' "$(printf '%s' "$hits" | sed 's/^[0-9]*-//')"
# Chinese punctuation in Chinese text: no space after ：, no ASCII , or ; after a character
hits=$(grep -nP '^msgstr.*： |^msgstr.*[\x{4e00}-\x{9fff}][,;] ' po/zh_CN.po | head -3)
expect_eq "Chinese punctuation in the translations" "" "$hits"
