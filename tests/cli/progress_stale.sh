# The progress store removes temporary files left by killed saves
# (.progress.yaml.XXXXXX, as mkstemp makes them) once they are over 10 minutes old;
# a fresh one (another tutor may be writing it) and files that only look alike stay,
# and progress.yaml is left as it was.
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
dir="$state/attn-tutor"
"$AT_BIN" --lang en check q3 "0.14 0.17" >/dev/null 2>&1
if [ -s "$dir/progress.yaml" ]; then ok "a first check saves progress"; else not_ok "a first check saves progress"; fi
cp "$dir/progress.yaml" "$state/before.yaml"
for f in .progress.yaml.Ab3xY9 .progress.yaml.QQ0000 .progress.yaml.bak .progress.yaml.ab-cde \
         .progress.yaml.ABCDEFG progress.yaml.zzzzzz; do
  echo "version: 1" > "$dir/$f"
  touch -d '2 hours ago' "$dir/$f"
done
echo "version: 1" > "$dir/.progress.yaml.Fresh1"
touch -d '2 minutes ago' "$dir/.progress.yaml.Fresh1"
# An unreadable answer is graded but not saved: the store is opened, progress.yaml not written.
"$AT_BIN" --lang en check q3 "banana" >/dev/null 2>&1
left=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
expect_eq "old temporaries removed; fresh one and look-alikes kept" \
  ".progress.yaml.ABCDEFG .progress.yaml.Fresh1 .progress.yaml.ab-cde .progress.yaml.bak progress.yaml progress.yaml.lock progress.yaml.zzzzzz " "$left"
if cmp -s "$dir/progress.yaml" "$state/before.yaml"; then ok "progress.yaml intact"; else not_ok "progress.yaml intact" "$(cat "$dir/progress.yaml")"; fi
# A saving run leaves the fresh temporary alone and writes a progress file that loads.
out=$("$AT_BIN" --lang en check q3 "0.14 0.17" 2>&1)
expect_eq "the fresh temporary stays through a save" "yes" "$([ -f "$dir/.progress.yaml.Fresh1" ] && echo yes)"
case "$out" in *damaged*|*"not saved"*) not_ok "progress still loads and saves" "$out" ;; *) ok "progress still loads and saves" ;; esac
n=$(grep -c 'q3' "$dir/progress.yaml")
expect_eq "the answer is recorded" "yes" "$([ "$n" -ge 1 ] && echo yes)"
rm -rf "$state"
