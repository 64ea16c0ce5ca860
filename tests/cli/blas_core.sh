# The OpenBLAS core: chosen by the CPU's features when the user has not set
# OPENBLAS_CORETYPE, proved by a self-check at start-up, named in --version with the
# reason; the user's own choice always wins. Every run sets or removes
# OPENBLAS_CORETYPE itself (a machine may export one) and OPENBLAS_VERBOSE.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { env -u OPENBLAS_VERBOSE -u ATTN_TUTOR_BLAS_TEST -u ATTN_TUTOR_BLAS_CORE "$@"; }
unset_core() { run -u OPENBLAS_CORETYPE "$@"; }
core_line() { printf '%s\n' "$1" | grep '^OpenBLAS core '; }
core_of() { core_line "$1" | sed 's/^OpenBLAS core \([A-Za-z0-9_]*\):.*/\1/'; }

# What this CPU supports, read from /proc/cpuinfo (not from the code under test).
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
if has avx512f && has avx512bw && has avx512vl && has avx512dq; then
  level=avx512 best=SkylakeX cores="SkylakeX Cooperlake SapphireRapids"
elif has avx2 && has fma; then
  level=avx2 best=Haswell cores="Haswell Zen SkylakeX Cooperlake SapphireRapids"
else
  level=other best= cores=
fi

# The user's own core wins, and is checked.
out=$(run OPENBLAS_CORETYPE=Prescott "$AT_BIN" --version 2>"$tmp/err"); rc=$?
expect_eq "OPENBLAS_CORETYPE=Prescott: --version exit status" 0 "$rc"
expect_contains "OPENBLAS_CORETYPE=Prescott: named, as set by the user" \
  "OpenBLAS core Prescott: set by the user (OPENBLAS_CORETYPE=Prescott)" "$out"
expect_contains "OPENBLAS_CORETYPE=Prescott: self-check passed" "self-check passed" "$(core_line "$out")"
expect_eq "OPENBLAS_CORETYPE=Prescott: nothing on stderr" "" "$(cat "$tmp/err")"
out=$(run OPENBLAS_CORETYPE=prescott "$AT_BIN" --version 2>&1)
expect_contains "OPENBLAS_CORETYPE=prescott (any case) is the user's" \
  "OpenBLAS core Prescott: set by the user (OPENBLAS_CORETYPE=prescott)" "$out"
out=$(run OPENBLAS_CORETYPE=NoSuchCore "$AT_BIN" --version 2>&1)
expect_contains "an unknown OPENBLAS_CORETYPE is named, and OpenBLAS's own pick" \
  "OPENBLAS_CORETYPE=NoSuchCore is set by the user, but this OpenBLAS has no such core" "$out"

# Not set: the core in use fits this CPU's flags in /proc/cpuinfo.
out=$(unset_core "$AT_BIN" --version 2>"$tmp/err"); rc=$?
core=$(core_of "$out")
expect_eq "not set: --version exit status" 0 "$rc"
expect_contains "not set: self-check passed" "self-check passed" "$(core_line "$out")"
expect_eq "not set: nothing on stderr" "" "$(cat "$tmp/err")"
if [ -n "$best" ]; then
  case " $cores " in
    *" $core "*) ok "not set: core $core fits a CPU with $level" ;;
    *) not_ok "not set: core fits a CPU with $level" "core: $core (want one of $cores)" "$out" ;;
  esac
  case "$(core_line "$out")" in
    *"chosen by CPU features"*|*"OpenBLAS's own choice, the best for this CPU's"*)
      ok "not set: the reason is given" ;;
    *) not_ok "not set: the reason is given" "$(core_line "$out")" ;;
  esac
else
  ok "not set: core $core (no AVX2: OpenBLAS's own choice) # SKIP CPU without AVX2"
fi
expect_contains "not set: the first line names the same core" "(core $core)" "$out"
# OpenBLAS's own report (OPENBLAS_VERBOSE=2 prints "Core: X" each time it loads): the
# last one is the core --version names.
out=$(run -u OPENBLAS_CORETYPE OPENBLAS_VERBOSE=2 "$AT_BIN" --version 2>"$tmp/err")
expect_eq "OPENBLAS_VERBOSE=2: OpenBLAS's last 'Core:' is the core named" \
  "Core: $(core_of "$out")" "$(grep '^Core: ' "$tmp/err" | tail -1)"

if [ -n "$best" ]; then
  # OpenBLAS left alone picks an old core (as 0.3.21 does on CPUs it does not know):
  # the program runs itself again on the best core for its features.
  pick="ATTN_TUTOR_BLAS_TEST=openblas-picks=Prescott"
  out=$(unset_core "$pick" "$AT_BIN" --version 2>"$tmp/err"); rc=$?
  expect_eq "OpenBLAS picks Prescott: exit status" 0 "$rc"
  expect_contains "OpenBLAS picks Prescott: $best, chosen by CPU features" \
    "OpenBLAS core $best: chosen by CPU features (" "$out"
  expect_contains "OpenBLAS picks Prescott: what OpenBLAS picked is named" \
    "OpenBLAS alone picked Prescott); self-check passed" "$out"
  expect_contains "OpenBLAS picks Prescott: OpenBLAS's own line agrees" "(core $best)" "$out"
  out=$(run -u OPENBLAS_CORETYPE OPENBLAS_VERBOSE=2 "$pick" "$AT_BIN" --version 2>"$tmp/err")
  expect_eq "run again: OpenBLAS's last 'Core:' is $best" "Core: $best" \
    "$(grep '^Core: ' "$tmp/err" | tail -1)"
  # The chosen core computes a wrong product: the safe core, said on stderr and in --version.
  out=$(unset_core "$pick,wrong-core=$best" "$AT_BIN" --version 2>"$tmp/err"); rc=$?
  expect_eq "self-check fails on $best: exit status" 0 "$rc"
  expect_contains "self-check fails on $best: falls back to Prescott" \
    "OpenBLAS core Prescott: fallback after a failed self-check of $best (sgemm" "$out"
  expect_contains "self-check fails on $best: Prescott passes" "self-check passed" "$(core_line "$out")"
  expect_contains "self-check fails on $best: said on stderr" \
    "OpenBLAS core $best failed its self-check" "$(cat "$tmp/err")"
fi
# OpenBLAS's own pick fails: the safe core too. And when the safe core fails as well,
# the program says so and runs on (it never runs itself again twice).
own=$(core_of "$(unset_core "$AT_BIN" --version 2>/dev/null)")
out=$(unset_core "ATTN_TUTOR_BLAS_TEST=wrong-core=$own,wrong-core=Prescott" "$AT_BIN" --version 2>"$tmp/err"); rc=$?
expect_eq "every core fails: exit status" 0 "$rc"
expect_contains "every core fails: said in --version" \
  "OpenBLAS core Prescott: fallback after a failed self-check of $own" "$out"
expect_contains "every core fails: FAILED named" "self-check FAILED: sgemm" "$(core_line "$out")"
expect_eq "every core fails: one fallback, one warning" 2 "$(grep -c 'failed its self-check' "$tmp/err")"
# A core set by the user that fails is kept, and the user is told.
out=$(run OPENBLAS_CORETYPE=Prescott ATTN_TUTOR_BLAS_TEST=wrong-core=Prescott "$AT_BIN" --version 2>"$tmp/err")
expect_contains "the user's core fails: kept" "OpenBLAS core Prescott: set by the user" "$out"
expect_contains "the user's core fails: FAILED named" "self-check FAILED" "$(core_line "$out")"
expect_contains "the user's core fails: warned" "it was set by OPENBLAS_CORETYPE" "$(cat "$tmp/err")"

# The engine's numbers agree (within 1e-5) on the safe core and the one chosen by the
# CPU's features (OpenBLAS's own where none is better): the whole mini-model on a short
# and a 240-token sentence (products past OpenBLAS's small-matrix sizes), every layer
# and head.
chosen=${best:-$core} hook=${best:+ATTN_TUTOR_BLAS_TEST=openblas-picks=Prescott}
long=$(for i in $(seq 60); do printf 'the cat was tired '; done)
for s in "The animal didn't cross the street because it was too tired" "$long"; do
  for l in 1 2; do
    run OPENBLAS_CORETYPE=Prescott "$AT_BIN" attend --format csv --layer $l --head all "$s" > "$tmp/a" 2>&1
    unset_core $hook "$AT_BIN" attend --format csv --layer $l --head all "$s" > "$tmp/b" 2>&1
    n=$(wc -l < "$tmp/a")
    worst=$(paste -d, "$tmp/a" "$tmp/b" | awk -F, 'NR > 1 { d = $7 - $14; if (d < 0) d = -d; if (d > w) w = d }
      END { printf "%.3g", w }')
    if [ "$n" -gt 100 ] && [ "$(wc -l < "$tmp/b")" -eq "$n" ] &&
       awk -v w="$worst" 'BEGIN { exit !(w <= 1e-5) }'; then
      ok "Prescott and $chosen agree, layer $l, $(echo "$s" | wc -w) words (worst difference $worst)"
    else
      not_ok "Prescott and $chosen agree, layer $l, $(echo "$s" | wc -w) words" "worst difference $worst, $n lines" "$(head -3 "$tmp/a")"
    fi
  done
done
