# The real terminal size wins over LINES and COLUMNS left in the environment: a stale
# pair (too small, or far too large) must not put the tutor on "too small" or draw
# past the window. The home screen of a 100×30 window: its title on the first line,
# its status bar (ending in "? help" at the right edge) on the 30th.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

# wait_row N REGEX [SECONDS]: until screen line N matches the extended regex.
wait_row() {
  _deadline=$(( $(date +%s) + ${3:-$E2E_WAIT} ))
  while :; do
    frame
    ROW=$(printf '%s\n' "$SCREEN" | sed -n "${1}p")
    printf '%s\n' "$ROW" | grep -Eq -- "$2" && return 0
    [ "$(date +%s)" -ge "$_deadline" ] && return 1
    sleep 0.05
  done
}
expect_row() { # NAME N REGEX
  if wait_row "$2" "$3"; then ok "$1"; else not_ok "$1" "line $2 does not match: $3" "screen:" "$SCREEN"; fi
}

for env in "LINES=5 COLUMNS=20" "LINES=1000 COLUMNS=1000" "LINES=30 COLUMNS=1000" "LINES=0 COLUMNS=x"; do
  tutor_start 100 30 $env -- --lang en
  expect_row "$env in a 100×30 window: the status bar on line 30" 30 'choose .* {20,}\? help$'
  expect_row "$env: the home title on line 1" 1 '^ attn-tutor · Home$'
  expect_contains "$env: the lessons listed" "1. · new" "$SCREEN"
  case "$SCREEN" in
    *"too small"*) not_ok "$env: not 'too small'" "$SCREEN" ;;
    *) ok "$env: not 'too small'" ;;
  esac
  # a resize follows the window too, not the environment
  resize 60 20
  expect_row "$env, resized to 60×20: the status bar on line 20" 20 'choose .* +\? help$'
  expect_eq "$env, resized to 60×20: 20 lines on screen" 20 "$(printf '%s\n' "$SCREEN" | wc -l | tr -d ' ')"
  keys q
  wait_exit >/dev/null
  expect_eq "$env: q quits (exit status 0)" 0 "$DEAD_STATUS"
done
