# Helpers for the end-to-end tests: drive the real binary in a private tmux server at
# a fixed size and read what a person would see (capture-pane). Source after
# tests/lib.sh. Every wait polls the screen with a timeout; no fixed sleeps.
export LC_ALL=C.UTF-8
# One private tmux server per start (a killed server takes a moment to go away).
E2E_RUN=0
TM="tmux -L attn-e2e-$$-0 -f /dev/null"
E2E_TMP=$(mktemp -d)
export XDG_STATE_HOME="$E2E_TMP/state"
mkdir -p "$XDG_STATE_HOME"
e2e_cleanup() { $TM kill-server >/dev/null 2>&1; rm -rf "$E2E_TMP"; }
e2e_next_server() {
  $TM kill-server >/dev/null 2>&1
  E2E_RUN=$((E2E_RUN + 1))
  TM="tmux -L attn-e2e-$$-$E2E_RUN -f /dev/null"
}
trap e2e_cleanup EXIT
trap 'e2e_cleanup; exit 1' INT TERM

# tutor_start COLS ROWS [VAR=VALUE …] -- ARGS… : run attn-tutor ARGS in a fresh window.
tutor_start() {
  _w=$1 _h=$2; shift 2
  _env="TERM=tmux-256color LC_ALL=C.UTF-8 XDG_STATE_HOME=$XDG_STATE_HOME"
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do _env="$_env $1"; shift; done
  [ "${1:-}" = "--" ] && shift
  e2e_next_server
  # options first (a server kept alive without sessions), so a quick exit leaves its screen
  $TM start-server \; set-option -g exit-empty off \; set-option -g remain-on-exit on \
      >/dev/null 2>&1
  # a shell around the program prints its exit status when it ends
  $TM new-session -d -x "$_w" -y "$_h" -c "$E2E_TMP" -- env -u NO_COLOR $_env \
      sh -c '"$0" "$@"; echo "[exit status $?]"; exec sleep 3600' "$AT_BIN" "$@" >/dev/null 2>&1
}

screen() { $TM capture-pane -p 2>/dev/null; }

# wait_for TEXT [SECONDS]: until the screen shows TEXT; 0 if it did, 1 on timeout.
# The last screen is in $SCREEN either way.
wait_for() {
  _deadline=$(( $(date +%s) + ${2:-10} ))
  while :; do
    SCREEN=$(screen)
    case "$SCREEN" in *"$1"*) return 0 ;; esac
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# wait_gone TEXT [SECONDS]: until TEXT is no longer on the screen.
wait_gone() {
  _deadline=$(( $(date +%s) + ${2:-10} ))
  while :; do
    SCREEN=$(screen)
    case "$SCREEN" in *"$1"*) ;; *) return 0 ;; esac
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# expect_screen NAME TEXT [SECONDS]: a TAP line for "the screen shows TEXT".
expect_screen() {
  if wait_for "$2" "${3:-10}"; then ok "$1"; else not_ok "$1" "missing on screen: $2" "screen:" "$SCREEN"; fi
}

# wait_line REGEX [SECONDS]: until a screen line matches the extended regex; the line
# is in $LINE.
wait_line() {
  _deadline=$(( $(date +%s) + ${2:-10} ))
  while :; do
    SCREEN=$(screen)
    LINE=$(printf '%s\n' "$SCREEN" | grep -E -- "$1" | head -1)
    [ -n "$LINE" ] && return 0
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# expect_line NAME REGEX: a TAP line for "a screen line matches REGEX".
expect_line() {
  if wait_line "$2" "${3:-10}"; then ok "$1"; else not_ok "$1" "no line matching: $2" "screen:" "$SCREEN"; fi
}

# expect_not_screen NAME TEXT: the screen (already settled) does not show TEXT.
expect_not_screen() {
  SCREEN=$(screen)
  case "$SCREEN" in
    *"$2"*) not_ok "$1" "unexpected on screen: $2" "screen:" "$SCREEN" ;;
    *) ok "$1" ;;
  esac
}

keys() { $TM send-keys "$@"; }
# type_text TEXT: literal text (UTF-8), no key names.
type_text() { $TM send-keys -l -- "$1"; }
resize() { $TM resize-window -x "$1" -y "$2"; }

# line_of TEXT: the first screen line containing TEXT.
line_of() { printf '%s\n' "$SCREEN" | grep -F -- "$1" | head -1; }

# pane_dead: true once the program has exited; its exit status is in $DEAD_STATUS.
pane_dead() {
  _all=$($TM capture-pane -p -S -200 2>/dev/null)
  case "$_all" in
    *"[exit status "*)
      DEAD_STATUS=$(printf '%s\n' "$_all" | sed -n 's/.*\[exit status \([0-9]*\)\].*/\1/p' | tail -1)
      return 0 ;;
  esac
  DEAD_STATUS=
  return 1
}

# wait_exit [SECONDS]: until the program has exited; 1 on timeout.
wait_exit() {
  _deadline=$(( $(date +%s) + ${1:-10} ))
  while ! pane_dead; do
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}
