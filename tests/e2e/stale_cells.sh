# A resize undone before the tutor looked (the window shrunk and grown back while the
# program could not read; tmux kept the rows around the cursor and blanked the rest):
# the next frame sends every cell again, wide characters included, so the lab is whole
# again and going home from a Chinese lab leaves no character of its sentence behind
# (a loaded machine once showed 生 and 病 on the home screen, and no "? help").
. tests/lib.sh
. tests/e2e/lib/tmux.sh

ZH="小明今天没来学校，因为他生病了。"
# sentence_left: the characters of $ZH on the screen, once each ("" when none).
sentence_left() {
  printf '%s\n' "$SCREEN" | grep -o '[小明今天没来学校，因为他生病了。]' | sort -u | tr -d '\n'
}

tutor_start 100 30 -- --lang en
expect_screen "stale cells: home" "Self-attention, step by step"
home=$SCREEN
keys L
expect_screen "stale cells: the lab" "attn-tutor · Attention lab"
keys i C-u
type_text "$ZH"
keys Tab
expect_screen "stale cells: a Chinese sentence in the lab" "16 tokens"
lab=$SCREEN
n=$(frame_number)
resize_unseen 40 12
if wait_frame_after "$n"; then
  ok "stale cells: a resize undone unseen is drawn again at once"
else
  not_ok "stale cells: a resize undone unseen is drawn again at once" "$TITLE" "$SCREEN"
fi
expect_eq "stale cells: the lab after it, cell for cell as before" "$lab" "$SCREEN"
keys q
expect_screen "stale cells: home again" "Self-attention, step by step"
expect_eq "stale cells: home again: no character of the sentence left" "" "$(sentence_left)"
expect_eq "stale cells: home again, cell for cell as at the start" "$home" "$SCREEN"
keys q
wait_exit >/dev/null
expect_eq "stale cells: exit status 0" 0 "$DEAD_STATUS"
