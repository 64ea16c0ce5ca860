# Every head side by side: lesson 7's lab step (head: all) shows the four heads of
# layer 1 once the prediction is made, two to a row with their weights at 200×50, one to
# a row at 100×30; the lab's all-heads view (a) prints the weights where they fit and
# keeps whole labels and the detail pane beside the heatmap on a wide screen.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

mkdir -p "$E2E_TMP/s1"
tutor_start 200 50 XDG_STATE_HOME="$E2E_TMP/s1" -- --lang en lesson multi-head
expect_screen "heads: lesson 7 opens" "lesson 7 · step 1/"
k=0
while [ $k -lt 20 ] && ! shows "Will they all look"; do keys Right; k=$((k + 1)); done
expect_screen "heads: the lab step asks first" "Layer 1 has four heads"
expect_screen "heads: the heads wait for the prediction" "The heads appear here once you have predicted."
keys b
expect_screen "heads: the prediction is right" "✓ You predicted b)"
expect_line "heads: at 200×50 two heads side by side" '^ head 1 +head 2 *$'
expect_line "heads: … with their weights" '^ it +(0\.[0-9]{2} +){12} *it +(0\.[0-9]{2} *){12}$'
resize 100 30
expect_line "heads: at 100×30 one head to a row" '^ head 1 *$'
keys q
wait_exit >/dev/null

tutor_start 200 50 XDG_STATE_HOME="$E2E_TMP/s1" -- --lang en lab
expect_screen "lab 200×50: opens" "12 tokens"
expect_screen "lab 200×50: whole labels over the columns" "because"
expect_line "lab 200×50: the detail pane beside the heatmap" '^ The +(0\.[0-9]{2} +){11}0\.[0-9]{2}  key '
keys '[' a
expect_screen "lab 200×50: all heads of layer 1" "all 4 heads"
expect_line "lab 200×50: the all-heads grid prints the weights" '^ it +(0\.[0-9]{2} +){12} *it +(0\.[0-9]{2} *){12}$'
keys q
wait_exit >/dev/null
