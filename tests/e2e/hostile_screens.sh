# The tutor's screens on a lesson full of escape sequences (tests/hostile/evil.yaml):
# every step kind, hints, feedback, the explanation, the lab on such a sentence. What
# the program sends to the terminal (pipe-pane) holds no OSC, no CSI 2J, no BEL, no C1
# control, no bidi override and no invalid UTF-8 — only ncurses' own sequences — the
# window title stays the tutor's own frame mark (ATTN_TUTOR_FRAME_MARKS, which the keys
# wait on; those marks are the only OSC allowed), no clipboard buffer appears, and each
# is drawn as "�".
. tests/lib.sh
. tests/e2e/lib/tmux.sh
. tests/hostile/lib.sh
hostile_dir "$E2E_TMP/less"
raw="$E2E_TMP/raw"
ph='�'

# hostile_start ARGS…: attn-tutor ARGS in a 100×30 window whose output is copied to
# $raw from before the program starts (the shell waits for a key to start it).
hostile_start() {
  e2e_next_server
  : > "$raw"
  $TM start-server \; set-option -g exit-empty off \; set-option -g remain-on-exit on \; \
      set-option -g set-clipboard on >/dev/null 2>&1
  $TM new-session -d -x 100 -y 30 -c "$E2E_TMP" -- env -u NO_COLOR TERM=tmux-256color \
      LC_ALL=C.UTF-8 XDG_STATE_HOME="$XDG_STATE_HOME" ATTN_TUTOR_FRAME_MARKS=1 \
      sh -c 'read go; "$0" "$@"; echo "[exit status $?]"; exec sleep 3600' "$AT_BIN" "$@" \
      >/dev/null 2>&1
  $TM pipe-pane -o "cat >> '$raw'"
  $TM send-keys Enter     # to the shell's read: the tutor starts, its first frame is awaited
  _hdeadline=$(( $(date +%s) + E2E_WAIT ))
  while frame; do
    case "$TITLE" in *" probing") ;; "attn-tutor:frame "*|"attn-tutor:ended "*) break ;; esac
    [ "$(date +%s)" -ge "$_hdeadline" ] && break
    sleep 0.05
  done
}

# raw_clean NAME: what reached the terminal, read once the program has quit.
raw_clean() {
  keys q q q
  wait_exit 15 || not_ok "$1: quits"
  # the frame marks (ESC ] 2 ; attn-tutor:… ESC \) are the tutor's own; all else is checked
  _hex=" $(perl -0777 -pe 's/\e\]2;attn-tutor:[ -~]*?\e\\//g' "$raw" | od -An -v -tx1 |
           tr -s ' \n' '  ') "
  _bad=
  iconv -f UTF-8 -t UTF-8 "$raw" >/dev/null 2>&1 || _bad="$_bad invalid-UTF-8"
  case "$_hex" in *" 1b 5d "*) _bad="$_bad OSC" ;; esac
  case "$_hex" in *" 1b 5b 32 4a "*) _bad="$_bad CSI-2J" ;; esac
  case "$_hex" in *" 07 "*) _bad="$_bad BEL" ;; esac
  case "$_hex" in *" 7f "*) _bad="$_bad DEL" ;; esac
  printf '%s' "$_hex" | grep -Eq ' c2 [89][0-9a-f] ' && _bad="$_bad C1"
  printf '%s' "$_hex" | grep -Eq ' e2 80 a[a-e] | e2 81 a[6-9] ' && _bad="$_bad bidi"
  if [ -z "$_bad" ] && [ -s "$raw" ]; then ok "$1: nothing raw reached the terminal"
  else not_ok "$1: nothing raw reached the terminal" "found:$_bad" "$(wc -c < "$raw") bytes"; fi
  _t=$($TM display -p '#{pane_title}')
  case "$_t" in
    "attn-tutor:ended keys "*) ok "$1: the window title is the tutor's own mark" ;;
    *) not_ok "$1: the window title is the tutor's own mark" "title: $_t" ;;
  esac
  expect_eq "$1: no clipboard buffer" "" "$($TM list-buffers 2>&1)"
}

hostile_start --lang en --lessons "$E2E_TMP/less"
expect_screen "home: the title drawn with placeholders" "A$ph]52;c;cHduZWQ=${ph}B$ph]0;pwned${ph}C$ph[2JD${ph}2JE"
raw_clean "home"

hostile_start --lang en --lessons "$E2E_TMP/less" lesson evil
expect_screen "lesson: text" "Text $ph]52;c;cHduZWQ=$ph $ph]0;pwned$ph $ph[2J ${ph}2J $ph ${ph}gnp.exe$ph ${ph}x$ph $ph end"
keys l
expect_screen "lesson: table cells" "│ H$ph]0;pwned$ph │ ${ph}2J     │"
keys l
expect_screen "lesson: formula" "softmax$ph]0;pwned$ph(QK)"
keys l
expect_screen "lesson: code" "int x;$ph]0;pwned$ph"
keys l
expect_screen "lesson: lab sentence" "The animal$ph]0;pwned$ph was ${ph}2J tired ${ph}it$ph."
keys l
expect_screen "lesson: compute labels" "│ a$ph]0;pwned$ph │ 0.2689 │"
keys l
expect_screen "lesson: a choice question" "a) Right $ph]0;pwned$ph"
keys H H
expect_screen "lesson: hints" "${ph}hint2$ph"
keys b
expect_screen "lesson: an option's feedback" "No $ph"
keys r
expect_screen "lesson: the explanation" "Because $ph]0;pwned$ph ${ph}2J ${ph}x$ph"
keys l
expect_screen "lesson: a softmax question's tokens" "Softmax $ph]0;pwned$ph"
keys a
type_text "0.9"
keys Enter
expect_screen "lesson: the softmax feedback names the token" "t$ph]0;pwned$ph"
keys l
expect_screen "lesson: a text question" "Say $ph]0;pwned$ph"
keys a
type_text "attention"
keys Enter
expect_screen "lesson: the rubric's idea in the feedback" "idea $ph]0;pwned$ph"
raw_clean "lesson"

hostile_start --lang en lab "$(printf 'The cat\033]0;pwned\007 sat \302\233on \342\200\256it')"
expect_screen "lab: the sentence" "The cat$ph]0;pwned$ph sat ${ph}on ${ph}it"
raw_clean "lab"
