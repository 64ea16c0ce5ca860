# Replays the fuzzing corpora through the ASan+UBSan build without clang: every file of
# tests/fuzz/corpus/<target>/ (the seeds) and tests/fuzz/regress/<target>/ (inputs that
# once crashed, hung or leaked) goes to the same LLVMFuzzerTestOneInput as `make fuzz`.
# One TAP line per file; a sanitizer report fails the suite.
. tests/lib.sh
for t in lesson compute tokenizer answer formula rubric progress safetensors bpe wordpiece code; do
  bin=build/asan/fuzz/replay_$t
  if [ ! -x "$bin" ]; then not_ok "fuzz replay $t: $bin missing (make unit)"; continue; fi
  set --
  for f in tests/fuzz/corpus/$t/* tests/fuzz/regress/$t/*; do [ -f "$f" ] && set -- "$@" "$f"; done
  [ $# -eq 0 ] && continue
  out=$(TMPDIR=${TMPDIR:-/tmp} "$bin" "$@" 2>&1); rc=$?
  n=$(printf '%s\n' "$out" | grep -c '^ok ')
  if [ "$rc" -eq 0 ] && [ "$n" -eq $# ]; then
    ok "fuzz replay $t: $# inputs, no sanitizer report"
  else
    not_ok "fuzz replay $t: $n of $# inputs passed (exit $rc)" "$(printf '%s\n' "$out" | grep -v '^ok ' | head -20)"
  fi
done
