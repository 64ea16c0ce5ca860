# The shipped choice questions: the right options are not always at the same letter,
# the zh and en versions of a question have them at the same letters, and
# `attn-tutor check` accepts exactly those letters.
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
table=$(/usr/bin/python3 - <<'PY'
import glob, yaml
for en in sorted(glob.glob("lessons/en/*.yaml")):
    for p in (en, en.replace("/en/", "/zh/")):
        d = yaml.safe_load(open(p, encoding="utf-8"))
        for st in d["steps"]:
            q = st.get("question")
            if q and q["kind"] == "choice":
                right = "".join(chr(97 + i) for i, o in enumerate(q["options"]) if o.get("correct"))
                print(d["lang"], "%s:%s" % (d["id"], q["id"]), right, len(q["options"]))
PY
)
n=$(printf '%s\n' "$table" | grep -c .)
expect_eq "choice questions found (16 in each language; the code lesson's last two are typed, not chosen)" 32 "$n"
letters=$(printf '%s\n' "$table" | awk '$1 == "en" { print $3 }' | sort -u | tr -d '\n')
expect_eq "the right option is at a, b, c and d in some question" "abcd" "$letters"
en=$(printf '%s\n' "$table" | awk '$1 == "en" { print $2, $3 }')
zh=$(printf '%s\n' "$table" | awk '$1 == "zh" { print $2, $3 }')
expect_eq "zh and en have the right options at the same letters" "$en" "$zh"
printf '%s\n' "$table" | while read -r lang id right count; do
  "$AT_BIN" --lang "$lang" check "$id" "$right" --no-save >/dev/null 2>&1
  expect_eq "$lang $id: '$right' is right" 0 "$?"
done | grep -c '^ok' > "$state/n"
expect_eq "every right letter accepted by check" 32 "$(cat "$state/n")"
wrong=$(printf '%s\n' "$table" | awk '$1 == "en" && $3 != "a" { print $2; exit }')
expect_status "an old letter 'a' is now wrong ($wrong)" 1 "$AT_BIN" --lang en check "$wrong" a --no-save
rm -rf "$state"
