# Progress that cannot be saved (XDG_STATE_HOME is a regular file): the status bar says
# so once, without the store's own "progress not saved" lead doubling the tutor's
# words; after the screen closes, one line on stderr says progress was not saved and why.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

: > "$E2E_TMP/not-a-folder"
tutor_start 100 30 XDG_STATE_HOME="$E2E_TMP/not-a-folder" -- --lang en lesson why-attention
expect_screen "unsaved: the lesson opens" "step 1/"
keys l
expect_screen "unsaved: the status bar says progress was not saved" "Progress not saved: cannot create the folder"
expect_not_screen "unsaved: said once, not twice" "Progress not saved: progress not saved"
keys q
if wait_exit; then ok "unsaved: q quits"; else not_ok "unsaved: q quits" "$SCREEN"; fi
all=$($TM capture-pane -p -S -200 2>/dev/null | tr -d '\n')
expect_contains "unsaved: after the screen closes, stderr says progress was not saved" \
  "attn-tutor: your progress was not saved: cannot create the folder" "$all"
n=$(printf '%s\n' "$all" | grep -o "your progress was not saved" | wc -l)
expect_eq "unsaved: one line, once" 1 "$n"
expect_not_screen "unsaved: stderr leaves out the in-session retry note" "tries again at the next save"

# A writable folder: nothing on stderr.
tutor_start 100 30 -- --lang en lesson why-attention
expect_screen "saved: the lesson opens" "step 1/"
keys l q
wait_exit >/dev/null
all=$($TM capture-pane -p -S -200 2>/dev/null)
case "$all" in *"not saved"*) not_ok "saved: no note on stderr" "$all" ;; *) ok "saved: no note on stderr" ;; esac
