# The examples of docs/lesson-format.md work: each step example, put in a lesson, lints
# clean, and so does the "first lesson" a new instructor copies.
. tests/lib.sh
tmp=$(mktemp -d)
python3 - "$tmp" <<'PY'
import re, sys
out = sys.argv[1]
doc = open("docs/lesson-format.md", encoding="utf-8").read()
n = 0
for block in re.findall(r"```yaml\n(.*?)```", doc, re.S):
    if block.startswith("- "):
        n += 1
        body = "".join("  " + line + "\n" for line in block.splitlines())
        open("%s/step-%02d.yaml" % (out, n), "w", encoding="utf-8").write(
            "id: doc-step-%d\nlang: en\ntitle: Example\nsteps:\n%s" % (n, body))
first = re.search(r"1\. Copy this into [^\n]*(?:\n   [^\n]+)*\n\n   ```yaml\n(.*?)   ```", doc, re.S)
text = "".join(line[3:] + "\n" for line in first.group(1).splitlines())
open("%s/first-lesson.yaml" % out, "w", encoding="utf-8").write(text)
PY
count=$(ls "$tmp"/step-*.yaml 2>/dev/null | wc -l)
[ "$count" -ge 7 ] && ok "doc has $count step examples" || not_ok "doc step examples found" "only $count"
for f in "$tmp"/*.yaml; do
  out=$("$AT_BIN" lint "$f" 2>&1); rc=$?
  expect_eq "doc example $(basename "$f") lints clean: $(printf '%s' "$out" | grep -m2 'error:' | tr '\n' ' ')" 0 "$rc"
done
rm -rf "$tmp"
