# The main flows under valgrind (memcheck): no invalid access, no uninitialised value,
# no leak of any kind (definite, indirect or possible) — each counts as an error and
# makes valgrind exit 99. OPENBLAS_NUM_THREADS=1: OpenBLAS's worker threads keep their
# buffers until exit, which valgrind would list as "possibly lost"; with one thread
# there are none, so no suppression file is needed. Runs on the plain (not ASan) build.
# --trace-children=yes: a program that runs itself again on a better OpenBLAS core
# (src/cli/blas_start.h) stays under valgrind.
. tests/lib.sh
if ! command -v valgrind >/dev/null 2>&1; then not_ok "valgrind installed (scripts/deps.sh)"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1 XDG_STATE_HOME="$tmp/state"
vg() { # name, expected exit status of the program, args...
  name=$1 want=$2; shift 2
  valgrind -q --trace-children=yes --suppressions=tests/valgrind.supp --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=definite,indirect,possible \
    --error-exitcode=99 --log-file="$tmp/vg.log" "$AT_BIN" "$@" >"$tmp/out" 2>&1
  rc=$?
  if [ "$rc" -eq "$want" ] && [ ! -s "$tmp/vg.log" ]; then
    ok "valgrind: $name"
  else
    not_ok "valgrind: $name (exit $rc, want $want)" "$(head -30 "$tmp/vg.log")" "$(tail -3 "$tmp/out")"
  fi
}
vg "attend" 0 attend "The animal didn't cross the street because it was too tired"
vg "attend, Chinese, every head, causal" 0 attend --head all --mask causal "今天下雨，我没带伞。"
vg "compute (masked rows, NaN in masked keys)" 0 compute --format json tests/fuzz/corpus/compute/case1-masked.yaml
vg "compute, two heads" 0 compute tests/fuzz/corpus/compute/two-heads.yaml
vg "compute, a bad cell" 2 compute tests/fuzz/corpus/compute/bad-cell.yaml
vg "check q3 right, saved to the progress file" 0 --lang en check q3 "0.14 0.17"
vg "check q3 wrong, progress file read back" 1 --lang zh check q3 "0.5 0.5"
vg "check q1 (text rubric)" 1 --lang en check q1 "I do not know"
vg "check a malformed answer" 2 --lang en check q3 "0.14abc"
vg "lint of the shipped lessons" 0 lint
vg "show (English)" 0 --lang en show scaled-dot-product
vg "show (Chinese)" 0 --lang zh show masking
vg "softmax" 0 softmax 0.1 0.3 0.2 0.5 0.1 1.2
# A Hugging Face folder (mapped weights, the tokenizers, the forward passes), when NumPy can
# make one (tests/hf/hfgen.py).
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  /usr/bin/python3 tests/hf/hfgen.py "$tmp/gpt2" --dtype BF16 --shards 2 --seed 3 >/dev/null
  /usr/bin/python3 tests/hf/hfgen.py --bert "$tmp/bert" --prefix bert. --seed 5 >/dev/null
  vg "attend --model DIR, GPT-2 (BF16, two shards)" 0 --model "$tmp/gpt2" attend --format json "我love你, it's tired."
  vg "attend --model DIR, BERT" 0 --model "$tmp/bert" attend --head all "Les élèves ont réussi l'examen."
  vg "tokenize --model DIR, a bad UTF-8 byte" 2 --model "$tmp/gpt2" tokenize "$(printf 'a\377b')"
fi
