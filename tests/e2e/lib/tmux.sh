# Helpers for the end-to-end tests: drive the real binary in a private tmux server at
# a fixed size and read what a person would see (capture-pane). Source after
# tests/lib.sh.
#
# Whole frames, keys applied: the tutor runs with ATTN_TUTOR_FRAME_MARKS, so it brackets
# every frame with window titles (src/ui/crt.h): "attn-tutor:drawing" while a frame is
# being sent, "attn-tutor:frame N keys K size COLSxROWS" once it is whole (K = keys read
# so far), "attn-tutor:ended keys K" after it closed its screen. Every read of the screen
# takes the title and the screen in one tmux command and is retried while a frame is half
# sent, so a check never sees the top of a new frame over the bottom of the old one.
# `keys` and `type_text` return once the tutor has read and drawn every key they sent
# (K grew by their number), `resize` once a frame of the new size is whole: a check that
# follows reads the state those keys made, never the screen of before. Every wait polls
# with a timeout (E2E_WAIT seconds, 30 unless a suite of a slow build raises it) and no
# fixed sleeps.
export LC_ALL=C.UTF-8
E2E_WAIT=${E2E_WAIT:-30}
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
E2E_NL='
'

# tutor_start COLS ROWS [VAR=VALUE …] -- ARGS… : run attn-tutor ARGS in a fresh window;
# returns once a frame is whole and the start-up probe of the terminal is over (or the
# tutor ended, or E2E_WAIT passed).
tutor_start() {
  _w=$1 _h=$2; shift 2
  _env="TERM=tmux-256color LC_ALL=C.UTF-8 XDG_STATE_HOME=$XDG_STATE_HOME ATTN_TUTOR_FRAME_MARKS=1"
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do _env="$_env $1"; shift; done
  [ "${1:-}" = "--" ] && shift
  e2e_next_server
  # options first (a server kept alive without sessions), so a quick exit leaves its screen
  $TM start-server \; set-option -g exit-empty off \; set-option -g remain-on-exit on \
      >/dev/null 2>&1
  # a shell around the program prints its exit status when it ends
  $TM new-session -d -x "$_w" -y "$_h" -c "$E2E_TMP" -- env -u NO_COLOR $_env \
      sh -c '"$0" "$@"; echo "[exit status $?]"; exec sleep 3600' "$AT_BIN" "$@" >/dev/null 2>&1
  _deadline=$(( $(date +%s) + E2E_WAIT ))
  while frame; do
    case "$TITLE" in *" probing") ;; "attn-tutor:frame "*|"attn-tutor:ended "*) break ;; esac
    pane_dead && break
    [ "$(date +%s)" -ge "$_deadline" ] && break
    sleep 0.05
  done
}

# snap [capture-pane options]: TITLE and SCREEN from one tmux command (tmux reads no
# output of the program between the two); false while a frame is half sent.
snap() {
  _snap=$($TM display-message -p '#{pane_title}' \; capture-pane -p "$@" 2>/dev/null)
  TITLE=${_snap%%"$E2E_NL"*}
  case "$_snap" in *"$E2E_NL"*) SCREEN=${_snap#*"$E2E_NL"} ;; *) SCREEN= ;; esac
  [ "$TITLE" != "attn-tutor:drawing" ]
}

# frame [capture-pane options]: SCREEN and TITLE of the last whole frame (waits while
# one is half sent; 1 if that lasted E2E_WAIT seconds).
frame() {
  _fdeadline=$(( $(date +%s) + E2E_WAIT ))
  while ! snap "$@"; do
    [ "$(date +%s)" -ge "$_fdeadline" ] && return 1
    sleep 0.02
  done
}

screen() { frame "$@"; printf '%s\n' "$SCREEN"; }

# shows TEXT: the last whole frame shows TEXT (no waiting for a change).
shows() { frame; case "$SCREEN" in *"$1"*) return 0 ;; esac; return 1; }

# The keys count of TITLE; empty when no frame mark is there.
title_keys() {
  case "$TITLE" in
    "attn-tutor:frame "*|"attn-tutor:ended "*) _tk=${TITLE#* keys }; printf '%s' "${_tk%% *}" ;;
  esac
}

# keys_sent N K0 [SECONDS]: until the tutor has read N keys more than K0 and drawn the
# frame after them, or has ended; 1 on timeout.
keys_sent() {
  _kdeadline=$(( $(date +%s) + ${3:-$E2E_WAIT} ))
  while :; do
    frame
    case "$TITLE" in "attn-tutor:ended "*) return 0 ;; esac
    _kn=$(title_keys)
    [ -n "$_kn" ] && [ "$_kn" -ge $(( $2 + $1 )) ] && return 0
    if [ "$(date +%s)" -ge "$_kdeadline" ]; then
      echo "# $1 keys sent, not all applied in time (title: $TITLE)"
      return 1
    fi
    sleep 0.02
  done
}

# keys KEY…: send tmux key names; returns once the tutor applied them all.
keys() {
  frame
  _k0=$(title_keys)
  $TM send-keys "$@"
  case "$TITLE" in "attn-tutor:ended "*) return 0 ;; esac
  keys_sent $# "${_k0:-0}"
}

# type_text TEXT [SECONDS]: literal text (UTF-8), no key names; returns once the tutor
# applied every character (one key per code point).
type_text() {
  frame
  _k0=$(title_keys)
  $TM send-keys -l -- "$1"
  case "$TITLE" in "attn-tutor:ended "*) return 0 ;; esac
  keys_sent "$(printf '%s' "$1" | wc -m)" "${_k0:-0}" "${2:-$E2E_WAIT}"
}

# resize COLS ROWS: resize the window; returns once a frame of that size is whole (at
# once when the size does not change: the program gets no signal then).
resize() {
  frame
  $TM resize-window -x "$1" -y "$2"
  case "$TITLE" in
    "attn-tutor:frame "*" size $1x$2"|"attn-tutor:frame "*" size $1x$2 "*) return 0 ;;
    "attn-tutor:frame "*) ;;
    *) return 0 ;;
  esac
  _rdeadline=$(( $(date +%s) + E2E_WAIT ))
  while :; do
    frame
    case "$TITLE" in
      "attn-tutor:frame "*" size $1x$2"|"attn-tutor:frame "*" size $1x$2 "*|"attn-tutor:ended "*) return 0 ;;
    esac
    [ "$(date +%s)" -ge "$_rdeadline" ] && return 1
    sleep 0.02
  done
}

# tty_size: "ROWS COLS" of the pane's terminal, as the program would read it.
tty_size() { stty -F "$($TM display-message -p '#{pane_tty}')" size 2>/dev/null; }

# resize_unseen COLS ROWS: resize the window to COLS×ROWS and back to its size while the
# program is stopped, each step applied to tmux's screen and to the terminal before the
# next; the program then wakes up to the size it had, with one SIGWINCH pending. tmux has
# meanwhile cut its screen to the smaller size (keeping the rows around the cursor) and
# grown it back with blanks: only that signal tells the program its screen changed.
resize_unseen() {
  frame
  _was=${TITLE##* size }
  _pid=$(pgrep -P "$($TM display-message -p '#{pane_pid}')" | head -1)
  [ -n "$_pid" ] || return 1
  kill -STOP "$_pid"
  for _sz in "$1x$2" "$_was"; do
    $TM resize-window -x "${_sz%x*}" -y "${_sz#*x}"
    _rdeadline=$(( $(date +%s) + E2E_WAIT ))
    until [ "$(tty_size)" = "${_sz#*x} ${_sz%x*}" ] &&
          [ "$($TM capture-pane -p | wc -l | tr -d ' ')" = "${_sz#*x}" ]; do
      [ "$(date +%s)" -ge "$_rdeadline" ] && break
      sleep 0.05
    done
  done
  kill -CONT "$_pid"
}

# wait_frame_after N [SECONDS]: until a whole frame numbered above N is on screen.
wait_frame_after() {
  _deadline=$(( $(date +%s) + ${2:-$E2E_WAIT} ))
  while :; do
    frame
    case "$TITLE" in
      "attn-tutor:frame "*) _fn=${TITLE#attn-tutor:frame }; [ "${_fn%% *}" -gt "$1" ] && return 0 ;;
    esac
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# frame_number: the number of the last whole frame (0 before the first).
frame_number() {
  frame
  case "$TITLE" in "attn-tutor:frame "*) _fn=${TITLE#attn-tutor:frame }; echo "${_fn%% *}" ;; *) echo 0 ;; esac
}

# wait_for TEXT [SECONDS]: until the screen shows TEXT; 0 if it did, 1 on timeout.
# The last screen is in $SCREEN either way.
wait_for() {
  _deadline=$(( $(date +%s) + ${2:-$E2E_WAIT} ))
  while :; do
    frame
    case "$SCREEN" in *"$1"*) return 0 ;; esac
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# wait_gone TEXT [SECONDS]: until TEXT is no longer on the screen.
wait_gone() {
  _deadline=$(( $(date +%s) + ${2:-$E2E_WAIT} ))
  while :; do
    frame
    case "$SCREEN" in *"$1"*) ;; *) return 0 ;; esac
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# expect_screen NAME TEXT [SECONDS]: a TAP line for "the screen shows TEXT".
expect_screen() {
  if wait_for "$2" "${3:-$E2E_WAIT}"; then ok "$1"; else not_ok "$1" "missing on screen: $2" "screen:" "$SCREEN"; fi
}

# wait_line REGEX [SECONDS]: until a screen line matches the extended regex; the line
# is in $LINE.
wait_line() {
  _deadline=$(( $(date +%s) + ${2:-$E2E_WAIT} ))
  while :; do
    frame
    LINE=$(printf '%s\n' "$SCREEN" | grep -E -- "$1" | head -1)
    [ -n "$LINE" ] && return 0
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}

# expect_line NAME REGEX [SECONDS]: a TAP line for "a screen line matches REGEX".
expect_line() {
  if wait_line "$2" "${3:-$E2E_WAIT}"; then ok "$1"; else not_ok "$1" "no line matching: $2" "screen:" "$SCREEN"; fi
}

# expect_not_screen NAME TEXT: the last whole frame does not show TEXT (call it after
# the keys or the wait that made the state it checks).
expect_not_screen() {
  frame
  case "$SCREEN" in
    *"$2"*) not_ok "$1" "unexpected on screen: $2" "screen:" "$SCREEN" ;;
    *) ok "$1" ;;
  esac
}

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
  _deadline=$(( $(date +%s) + ${1:-$E2E_WAIT} ))
  while ! pane_dead; do
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}
