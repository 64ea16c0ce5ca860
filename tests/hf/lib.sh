# Shared by tests/cli/hf_gpt2.sh and hf_bert.sh (after tests/lib.sh): the Python that
# runs the NumPy references, the binary for bad inputs (ASan where built), a fresh folder
# build/test-hf/ARCH, and the comparison of `attend --model` with the reference.
PY=/usr/bin/python3
BIN_CHECK=${AT_BIN_ASAN:-$AT_BIN}; [ -x "$BIN_CHECK" ] || BIN_CHECK=$AT_BIN

hf_setup() { # arch: stops the test (one not ok) when NumPy is missing
  if ! $PY -c 'import numpy' 2>/dev/null; then
    not_ok "hf $1: python3-numpy is missing (make deps installs it)"; exit 0
  fi
  dir=build/test-hf/$1
  rm -rf "$dir" && mkdir -p "$dir"
}

# name folder sentence: `attend --model folder --format json sentence` against the NumPy
# forward pass of folder.ref.npz; max |Δ| ≤ 1e-4 on every weight of every layer and head.
compare() {
  out=$("$AT_BIN" attend --model "$2" --format json "$3" 2>&1) || { not_ok "$1" "$out"; return; }
  res=$(printf '%s' "$out" | $PY tests/hf/ref_forward.py "$2.ref.npz" 2>&1)
  case "$res" in
    maxdiff*) d=${res#maxdiff }; d=${d%% *}
      if $PY -c "import sys; sys.exit(0 if float('$d') <= 1e-4 else 1)"; then ok "$1: $res"
      else not_ok "$1: max |Δ| over 1e-4" "$res"; fi ;;
    *) not_ok "$1" "$res" ;;
  esac
}
