# Helpers for the tests that feed attn-tutor escape sequences (tests/hostile/*.yaml).
# hostile_dir DIR: a lessons folder in DIR with the hostile lesson (en and zh), a file
# whose name holds ESC, BEL and a raw 0x9B, and a file with raw bytes inside.
hostile_dir() {
  mkdir -p "$1/en" "$1/zh"
  cp tests/hostile/evil.yaml "$1/en/01-evil.yaml"
  sed 's/^lang: en/lang: zh/' tests/hostile/evil.yaml > "$1/zh/01-evil.yaml"
  cp tests/hostile/lintbad.yaml "$1/en/05-lintbad.yaml"
  printf 'id: bad\nlang: en\ntitle: t\nsteps:\n  - text: x\n  - question:\n      id: q\n      kind: "\\e]0;pwned\\a"\n' \
    > "$1/en/02-bad$(printf '\033]0;pwned\007\233').yaml"
  printf 'id: raw\nlang: en\ntitle: "raw \233 \033]0;pwned\007"\nsteps:\n  - text: "\233[2J"\n' \
    > "$1/en/03-raw.yaml"
  printf 'id: "x\\e]0;pwned\\a\\x9by\\u202E"\nlang: en\ntitle: Hostile id\nsteps:\n  - text: x\n' \
    > "$1/en/04-hostile-id.yaml"
}

# forbidden FILE: what a terminal must not receive, found in FILE (empty: none): invalid
# UTF-8 (a raw 0x9B is a CSI to some terminals), ESC, BEL, DEL, other C0 controls but
# the newline and the tab, C1 controls as UTF-8 (U+009B …), bidi overrides.
forbidden() {
  _what=
  iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || _what="$_what invalid-UTF-8"
  _hex=" $(od -An -v -tx1 "$1" | tr -s ' \n' '  ') "
  case "$_hex" in *" 1b "*) _what="$_what ESC" ;; esac
  case "$_hex" in *" 07 "*) _what="$_what BEL" ;; esac
  case "$_hex" in *" 7f "*) _what="$_what DEL" ;; esac
  case "$_hex" in *" c2 9b "*) _what="$_what U+009B" ;; esac
  printf '%s' "$_hex" | grep -Eq ' (0[0-8]|0[b-f]|1[0-9a-f]) ' && _what="$_what C0"
  printf '%s' "$_hex" | grep -Eq ' c2 [89][0-9a-f] ' && _what="$_what C1"
  printf '%s' "$_hex" | grep -Eq ' e2 80 a[a-e] | e2 81 a[6-9] ' && _what="$_what bidi"
  printf '%s' "$_what"
}
