# The terminal goes away while the tutor waits for a key, and the tutor ignores SIGHUP
# (started under nohup, or by a session manager that blocks it): it must end, not wait
# on in a loop. Before, get_wch gave ERR at once, again and again, and the tutor used a
# whole core until killed. The tutor runs with SIGHUP ignored in a tmux window; the
# window is killed (its terminal closes); the test waits for the process to end (up to
# E2E_WAIT seconds).
. tests/lib.sh
. tests/e2e/lib/tmux.sh

e2e_next_server
$TM new-session -d -x 100 -y 30 -c "$E2E_TMP" -- env TERM=tmux-256color LC_ALL=C.UTF-8 \
    XDG_STATE_HOME="$XDG_STATE_HOME" sh -c 'trap "" HUP; exec "$0" "$@"' "$AT_BIN" --lang en \
    lab "The animal did not cross the street because it was too tired" >/dev/null 2>&1
pid=
deadline=$(( $(date +%s) + E2E_WAIT ))
while [ -z "$pid" ] && [ "$(date +%s)" -lt "$deadline" ]; do
  sh_pid=$($TM display-message -p '#{pane_pid}' 2>/dev/null)
  # exec: the pane's process is the tutor itself once it runs
  [ -n "$sh_pid" ] && grep -q attn-tutor "/proc/$sh_pid/cmdline" 2>/dev/null && pid=$sh_pid
  [ -z "$pid" ] && sleep 0.05
done
if [ -z "$pid" ]; then
  not_ok "hang-up: the tutor started" "no attn-tutor in the window"
  exit 0
fi
ok "hang-up: the tutor started with SIGHUP ignored"
wait_for "tokens" 30 || true   # drawn and waiting for a key
$TM kill-server >/dev/null 2>&1
deadline=$(( $(date +%s) + E2E_WAIT ))
while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  not_ok "hang-up: the tutor ends when its terminal is gone" \
    "still running after ${E2E_WAIT}s: $(ps -o %cpu=,time= -p "$pid")"
  kill -9 "$pid" 2>/dev/null
else
  ok "hang-up: the tutor ends when its terminal is gone"
fi
