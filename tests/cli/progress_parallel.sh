# Several processes saving progress at once. 50 `check` writers run side by side, each
# 5 times in a row, half the answers right and half wrong: every attempt is in the file
# (250, 125 of them right), no damaged file and no temporary left. A process killed
# with SIGKILL while it holds the lock on the progress file does not stop the next one.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state"
dir="$XDG_STATE_HOME/attn-tutor"
# count ID: "ATTEMPTS CORRECT" of a question in the progress file, read as YAML.
count() {
  python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
r = [a for a in d.get("answers") or [] if a["id"] == sys.argv[2]]
print("%s %s" % (r[0].get("attempts", 0), r[0].get("correct", 0)) if r else "none")' \
    "$dir/progress.yaml" "$1" 2>&1
}

W=50 R=5
w=0
while [ $w -lt $W ]; do
  (
    r=0
    while [ $r -lt $R ]; do
      if [ $(((w + r) % 2)) -eq 0 ]; then a="0.14 0.17"; else a="0.5 0.5"; fi
      "$AT_BIN" --lang en check q3 "$a" >/dev/null 2>>"$tmp/errors.$w"
      r=$((r + 1))
    done
  ) &
  w=$((w + 1))
done
wait
expect_eq "$W writers × $R rounds: every attempt counted (attempts, correct)" "250 125" "$(count self-test:q3)"
expect_eq "no writer said anything on stderr" "" "$(cat "$tmp"/errors.* 2>&1 | sort | uniq -c | head -5)"
left=$(cd "$dir" && ls -A | tr '\n' ' ')
expect_eq "only the file and its lock are left" "progress.yaml progress.yaml.lock " "$left"

# A lock holder killed with SIGKILL: check, waiting for the lock, goes on and saves.
python3 - "$dir/progress.yaml.lock" "$tmp/held" <<'PY' &
import fcntl, signal, sys
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
signal.pause()
PY
holder=$!
i=0
while [ ! -e "$tmp/held" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "the holder has the lock" "yes" "$([ -e "$tmp/held" ] && echo yes)"
# check waits for the lock: its flock request shows in /proc/locks as a blocked one
# ("->") on the lock file's inode.
"$AT_BIN" --lang en check q3 "0.14 0.17" >"$tmp/out" 2>&1 &
checker=$!
ino=$(stat -c %i "$dir/progress.yaml.lock")
i=0
while ! grep -Eq -- "-> FLOCK .*:$ino " /proc/locks && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "check waits for the lock" "yes" "$(grep -Eq -- "-> FLOCK .*:$ino " /proc/locks && echo yes)"
expect_eq "nothing saved while another process holds the lock" "250 125" "$(count self-test:q3)"
kill -9 $holder
wait $holder 2>/dev/null
wait $checker; rc=$?
expect_eq "after the holder is killed, check ends (exit status)" 0 "$rc"
expect_contains "check graded the answer" "q3: correct" "$(cat "$tmp/out")"
expect_eq "… and its attempt is saved" "251 126" "$(count self-test:q3)"
