# A long step is read page by page: PgDn and Space show its next page and move to the
# next step only from its last page; PgUp shows the page before and, from the top of a
# step, the end of the step before. A compute step leads with its result: the weights
# are on its first page, the inputs after them. (A lesson of its own, so the pages do
# not depend on the shipped lessons.)
. tests/lib.sh
. tests/e2e/lib/tmux.sh

mkdir -p "$E2E_TMP/pages/en"
cat > "$E2E_TMP/pages/en/01-pages.yaml" <<'YAML'
id: pages
lang: en
title: Pages
steps:
  - text: |
      A short first step.
  - compute:
      tokens: [a, b, c, d]
      q: [[1, 0], [0, 1], [1, 1], [0, 0]]
      k: [[1, 0], [0, 1], [1, 1], [0, 0]]
      v: [[1, 0], [0, 1], [1, 1], [0, 0]]
  - text: |
      A short last step.
YAML

tutor_start 100 30 -- --lang en --lessons "$E2E_TMP/pages" lesson pages
expect_screen "paging: the lesson opens" "lesson 1 · step 1/3"
keys Space
expect_screen "paging: Space on a short step goes to the next step" "lesson 1 · step 2/3"
expect_screen "paging: the compute step has more below" "↓ more"
expect_screen "paging: the weights lead the compute step" "Weights = softmax of each row"
expect_not_screen "paging: the inputs are not on the first page" "K (keys)"
keys PageDown
expect_screen "paging: PgDn stays on the long step" "lesson 1 · step 2/3"
expect_screen "paging: … and shows its next page, the inputs" "K (keys)"
expect_screen "paging: … with more above" "↑"
expect_not_screen "paging: … not the first page's weights title" "Weights = softmax of each row"
# page on to the last page: the step number stays 2 while there is more
k=0
while [ $k -lt 20 ] && shows "↓ more"; do
  keys Space
  k=$((k + 1))
  if ! shows "lesson 1 · step 2/3"; then break; fi
done
expect_screen "paging: Space pages to the end of the step without leaving it" "lesson 1 · step 2/3"
expect_not_screen "paging: the last page has nothing below" "↓ more"
keys Space
expect_screen "paging: Space on the last page goes to the next step" "lesson 1 · step 3/3"
keys PageUp
expect_screen "paging: PgUp at the top of a step goes to the step before" "lesson 1 · step 2/3"
expect_not_screen "paging: … at its end (nothing below)" "↓ more"
expect_screen "paging: … showing its last page (the scaled scores)" "Scaled scores"
keys PageUp
expect_screen "paging: PgUp inside a step shows the page before" "lesson 1 · step 2/3"
expect_screen "paging: … with more below again" "↓ more"
keys Home
expect_screen "paging: Home goes to step 1" "lesson 1 · step 1/3"
keys q
wait_exit >/dev/null

# 40×12: the same keys, on the smallest screen the tutor draws.
tutor_start 40 12 -- --lang en --lessons "$E2E_TMP/pages" lesson pages
expect_screen "paging 40×12: opens" "step 1/3"
keys Right
expect_screen "paging 40×12: the compute step" "step 2/3"
keys PageDown
expect_screen "paging 40×12: PgDn stays on the long step" "step 2/3"
keys q
wait_exit >/dev/null
