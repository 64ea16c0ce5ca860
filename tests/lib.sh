# Helpers for command-line and end-to-end tests (POSIX sh). Each check prints one TAP line.
# $AT_BIN is the binary under test (set by tests/run.sh).
: "${AT_BIN:=$(pwd)/build/attn-tutor}"
_n=0
ok()     { _n=$((_n + 1)); echo "ok $_n - $1"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
  if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "actual:   $3"; fi
}
# expect_contains NAME NEEDLE HAYSTACK
expect_contains() {
  case "$3" in *"$2"*) ok "$1" ;; *) not_ok "$1" "missing: $2" "in: $(printf '%s' "$3" | head -c 600)" ;; esac
}
# expect_status NAME EXPECTED_STATUS command...
expect_status() {
  _name=$1 _want=$2; shift 2
  "$@" >/dev/null 2>&1; _rc=$?
  expect_eq "$_name (exit status)" "$_want" "$_rc"
}
