# Instructors' lesson folders: ~/.local/share/attn-tutor/lessons (or $XDG_DATA_HOME),
# then each $XDG_DATA_DIRS entry, then the shipped lessons. check, show and the tutor's
# lesson command see an added lesson; the same id earlier in the list replaces a
# shipped lesson; --lessons DIR alone is used when given.
. tests/lib.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export HOME="$t/home" XDG_STATE_HOME="$t/state"
unset XDG_DATA_HOME
export XDG_DATA_DIRS="$t/sys"
mine="$HOME/.local/share/attn-tutor/lessons/en"
mkdir -p "$mine" "$t/sys/attn-tutor/lessons/en" "$t/state"
cat > "$mine/50-mine.yaml" <<'YAML'
id: my-softmax
lang: en
order: 50
title: My softmax lesson
steps:
  - text: |
      Three scores, one softmax.
  - question:
      id: mine-1
      kind: softmax
      prompt: What weight does "cat" get? Two decimals.
      tokens: [the, cat, it]
      scores: [1.0, 2.0, 0.5]
      ask: cat
YAML
at() { "$AT_BIN" --lang en "$@"; }

# exp(2)/(exp(1)+exp(2)+exp(0.5)) = 0.6285: right at two decimals, wrong at 0.70
out=$(at check my-softmax:mine-1 0.63 --no-save 2>&1); rc=$?
expect_eq "home lesson: check finds its question (exit)" 0 "$rc"
expect_contains "home lesson: graded with the engine's value" "0.6285" "$out"
expect_status "home lesson: a wrong answer is wrong" 1 at check my-softmax:mine-1 0.70 --no-save
expect_status "home lesson: shipped questions still there" 0 at check q3 "0.14 0.17" --no-save
out=$(at show my-softmax 2>&1)
expect_contains "home lesson: show prints it" "My softmax lesson" "$out"

# XDG_DATA_HOME replaces ~/.local/share
mkdir -p "$t/xdh/attn-tutor/lessons/en"
sed 's/My softmax lesson/XDG softmax lesson/' "$mine/50-mine.yaml" > "$t/xdh/attn-tutor/lessons/en/50-mine.yaml"
out=$(XDG_DATA_HOME="$t/xdh" "$AT_BIN" --lang en show my-softmax 2>&1)
expect_contains "XDG_DATA_HOME: its lesson is the one shown" "XDG softmax lesson" "$out"

# A lesson in an XDG_DATA_DIRS folder; the home folder's copy of an id comes first
sed 's/my-softmax/sys-lesson/; s/My softmax lesson/System lesson/; s/mine-1/sys-1/' \
  "$mine/50-mine.yaml" > "$t/sys/attn-tutor/lessons/en/60-sys.yaml"
sed 's/My softmax lesson/Shadowed copy/' "$mine/50-mine.yaml" > "$t/sys/attn-tutor/lessons/en/50-mine.yaml"
out=$(at show sys-lesson 2>&1)
expect_contains "XDG_DATA_DIRS: its lesson is found" "System lesson" "$out"
out=$(at show my-softmax 2>&1)
expect_contains "earlier folder wins: the home copy is shown" "My softmax lesson" "$out"

# The same id as a shipped lesson replaces it
sed 's/id: my-softmax/id: why-attention/; s/My softmax lesson/My own first lesson/' \
  "$mine/50-mine.yaml" > "$mine/01-mine.yaml"
out=$(at show why-attention 2>&1)
expect_contains "an instructor's lesson replaces the shipped one of its id" "My own first lesson" "$out"
rm "$mine/01-mine.yaml"

# --lessons DIR alone: the home lesson is not there
out=$(at --lessons lessons check my-softmax:mine-1 0.63 --no-save 2>&1); rc=$?
expect_eq "--lessons DIR alone: no home lesson (exit 2)" 2 "$rc"

# lint with no argument checks the home folder too (one language: a warning)
out=$(at lint 2>&1); rc=$?
expect_eq "lint: home lesson clean (exit 0)" 0 "$rc"
shipped=$(ls lessons/zh/*.yaml lessons/en/*.yaml | wc -l)
expect_contains "lint: the home lesson, the two system ones and the $shipped shipped" "lint: $((shipped + 3)) files, 0 errors, 2 warnings" "$out"
expect_contains "lint: warns that the home lessons are English only" "no zh/ folder" "$out"

# A broken lesson at home is named; the shipped lessons still load
printf 'id: [broken\n' > "$mine/70-broken.yaml"
out=$(at lint 2>&1); rc=$?
expect_eq "lint: a broken home lesson is an error (exit 1)" 1 "$rc"
expect_contains "lint: names the broken home file with line and column" "70-broken.yaml:2:1: error: YAML syntax" "$out"
out=$(at show nosuch 2>&1); rc=$?
expect_eq "unknown lesson: exit 2" 2 "$rc"
expect_contains "unknown lesson: names the broken file" "70-broken.yaml:" "$out"
expect_contains "unknown lesson: lists the folders looked in" "$mine" "$out"
expect_status "broken home lesson: shipped questions still graded" 0 at check q3 "0.14 0.17" --no-save
rm "$mine/70-broken.yaml"

# The full-screen tutor's lesson command opens the home lesson (exit 2 when unknown)
out=$(TERM=dumb at lesson nosuch 2>&1); rc=$?
expect_eq "lesson nosuch: exit 2" 2 "$rc"
expect_contains "lesson nosuch: lists the home lesson among those there" "my-softmax" "$out"
