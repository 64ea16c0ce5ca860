"""Turns the JSON lines of bench/run.sh (bench_peers, bench_python.py, bench_attention
--crossover, bench_memory) into bench/RESULTS.md.

Usage: report.py --command CMD --date DATE --load-before L --load-after L --cores N
                 [--notes FILE] RESULTS.jsonl
Every number in the report is computed from the measurements of that one run. Speed is
given as ratios taken round by round (a round's engine time against the same round's
peer times), as median [min–max] over the rounds; absolute times are shown for the
engine only, for orientation (they move with the load of the machine).
"""
import argparse
import json
import statistics

HEADS, D_HEAD = 8, 64
TORCH_TARGETS = {8: 10.0, 64: 2.0, 256: 1.5, 1024: 1.5, 4096: 1.5}   # engine vs PyTorch
ONEDNN_MAX_N = 1024          # engine at least as fast as oneDNN at every n from 8 to this
SGEMM_SHARE_TARGET = 0.60    # n = 4096: engine GFLOP/s over the best square sgemm GFLOP/s
MEMORY_TARGET_MIB = 64.0
PEERS = [("onednn", "oneDNN"), ("openblas", "plain OpenBLAS"), ("llmc", "llm.c loop"),
         ("numpy", "numpy"), ("torch", "PyTorch")]


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def pick(rows, **kv):
    return [r for r in rows if all(r.get(k) == v for k, v in kv.items())]


def flops(n):
    return 4.0 * n * n * D_HEAD * HEADS


def fmt_time(s):
    if s is None:
        return "–"
    if s < 1e-3:
        return "%.1f µs" % (s * 1e6)
    if s < 1:
        return "%.2f ms" % (s * 1e3)
    return "%.2f s" % s


def spread(values):
    """median [min–max] of a list of ratios, or None."""
    if not values:
        return None
    return statistics.median(values), min(values), max(values)


def fmt_spread(sp, unit="×"):
    if sp is None:
        return "–"
    return "%.2f%s [%.2f–%.2f]" % (sp[0], unit, sp[1], sp[2])


def verdict(sp, target, higher=True):
    """Met on every round, on the median only, or not."""
    if sp is None:
        return "not measured"
    med, lo, hi = sp
    ok = (lambda x: x >= target) if higher else (lambda x: x <= target)
    if ok(lo if higher else hi):
        return "**met** (every round)"
    if ok(med):
        return "met on the median (not in every round)"
    return "**not met**"


class Rounds:
    """Per-round times: engine and C peers from bench_peers, numpy and PyTorch from
    bench_python.py, sgemm rates; by CPU time (clock "cpu") or wall-clock time ("wall")."""

    def __init__(self, rows, clock="cpu"):
        self.suffix = "_cpu_s" if clock == "cpu" else "_s"
        self.rate = "cpu_gflops" if clock == "cpu" else "gflops"
        self.c = {(r["round"], r["n"]): r for r in pick(rows, impl="c_round")}
        self.py = {(r["round"], r["n"]): r for r in pick(rows, impl="py_round")}
        self.sizes = sorted({n for _, n in self.c})
        self.rounds = sorted({r for r, _ in self.c})
        self.sgemm = pick(rows, impl="sgemm")

    def engine(self, rnd, n):
        r = self.c.get((rnd, n))
        return r.get("engine" + self.suffix) if r else None

    def peer(self, rnd, n, name):
        if name in ("onednn", "openblas", "llmc"):
            r = self.c.get((rnd, n))
            return r.get(name + self.suffix) if r else None
        r = self.py.get((rnd, n))
        if not r:
            return None
        if name == "numpy":
            return r.get("numpy" + self.suffix)
        torch = [r[k] for k in ("torch_sdpa" + self.suffix, "torch_composition" + self.suffix)
                 if r.get(k)]
        return min(torch) if torch else None

    def ratios(self, n, name):
        """peer time / engine time, round by round (above 1: the engine is faster)."""
        out = []
        for rnd in self.rounds:
            e, p = self.engine(rnd, n), self.peer(rnd, n, name)
            if e and p:
                out.append(p / e)
        return out

    def engine_median(self, n):
        ts = [self.engine(rnd, n) for rnd in self.rounds if self.engine(rnd, n)]
        return statistics.median(ts) if ts else None

    def best_sgemm(self, rnd):
        """The square sgemm rate of the best core for this CPU in round rnd: measured
        without OPENBLAS_CORETYPE (the core attn-tutor chooses) when the user set one,
        else the rate of the core in use."""
        rs = pick(self.sgemm, round=rnd)
        chosen = [r for r in rs if not r.get("user_core")]
        return (chosen or rs or [None])[0]

    def used_sgemm(self, rnd):
        rs = pick(self.sgemm, round=rnd)
        used = [r for r in rs if r.get("user_core")]
        return (used or rs or [None])[0]

    def sgemm_share(self, n):
        out = []
        for rnd in self.rounds:
            e, s = self.engine(rnd, n), self.best_sgemm(rnd)
            if e and s:
                out.append(flops(n) / e * 1e-9 / s[self.rate])
        return out


def header(a, rows, R):
    ver = next(iter(pick(rows, impl="versions")), {})
    cpu = next(iter(pick(rows, impl="cpu")), {})
    py = next(iter(pick(rows, impl="py_versions")), {})
    loads = ["round %d: %s" % (r["round"], r["load"]) for r in pick(rows, impl="load")]
    busy = max([float(a.load_before.split()[0]), float(a.load_after.split()[0])] +
               [float(r["load"].split()[0]) for r in pick(rows, impl="load")]) > 0.5 * a.cores
    torch = py.get("torch")
    lines = [
        "# Benchmark: the attention engine against oneDNN, OpenBLAS, llm.c, numpy and PyTorch",
        "",
        "Made by `%s` on %s; every figure below comes from this one run." % (a.command, a.date),
        "",
        "- Machine: %s, %d cores; vector extensions %s (the engine's level: %s)." % (
            cpu.get("model", "?"), a.cores, cpu.get("flags", "?"), cpu.get("isa", "?")),
        "- OpenBLAS: %s, core **%s**. %s." % (ver.get("openblas", "?"), ver.get("core", "?"),
                                              ver.get("core_report", "core not reported")),
        "- oneDNN: %s. Python %s, numpy %s, PyTorch %s." % (
            ver.get("onednn", "?"), py.get("python", "?"), py.get("numpy", "?"),
            torch if torch else "**not installed: numpy only** (python3-torch missing)"),
        "- Load average (1, 5, 15 min): %s before, %s after; at the start of each round: %s.%s" % (
            a.load_before, a.load_after, "; ".join(loads) or "–",
            " **The machine was shared with other work while this ran**: absolute times move "
            "with that load; the ratios, taken within each round, much less." if busy else ""),
        "",
        "- The engine ran %s at every n here (one thread, up to 4096 keys; in tiles of 512 "
        "keys with the online softmax past 1024): its own code, not OpenBLAS, whose core "
        "matters here to the plain OpenBLAS user and to numpy." % ver.get(
            "engine_kernel", "?"),
        "",
        "How it was measured: multi-head attention, 8 heads of 64, n tokens, no mask, already "
        "projected q, k, v, **one thread** everywhere (OPENBLAS_NUM_THREADS=1, "
        "OMP_NUM_THREADS=1, torch.set_num_threads(1)). In each of %d rounds, one C process "
        "(`build/bench/bench_peers`) times the engine (`at_mha_attend` on [n × 512]), oneDNN "
        "(batched matmul over the heads, softmax primitive, batched matmul; kernels %s), a "
        "plain OpenBLAS user (per head `cblas_sgemm`, a scalar `expf` softmax, `cblas_sgemm`) "
        "and llm.c's `attention_forward` loop (built with `-Ofast -march=native`, as llm.c "
        "builds it) interleaved, and one Python process (`bench/bench_python.py`) times numpy "
        "and PyTorch (`_scaled_dot_product_attention` and `softmax(q kᵀ/√d) v`; the "
        "composition up to n = 1024) interleaved; the two processes start one after the "
        "other, alternately first. Each implementation's time in a round is its fastest of %d "
        "samples of at least 2 ms (1 sample at n = 4096), by the process's CPU time and by "
        "wall-clock time. A ratio is a peer's time over the engine's in the same round "
        "(above 1: the engine is faster), given as median [min–max] over the rounds. The "
        "verdicts use CPU time: on a machine shared with other work a call of tens of "
        "milliseconds or more is often interrupted, and its wall-clock time then counts the "
        "waiting for a core, on one side of a ratio only." % (
            R, next((r.get("onednn_impl") for r in pick(rows, impl="c_round")), "?"),
            next((r["samples"] for r in pick(rows, impl="c_round")), 0)),
        "",
        "Two-thread figures are not measured: the targets are one-thread figures, and on "
        "this %d-core machine shared with other work a second thread would time the "
        "neighbours." % a.cores if a.cores <= 2 else
        "Two-thread figures are not measured by `make bench`: the targets are one-thread "
        "figures.",
        "",
    ]
    return lines


def targets(rs, wall, rows):
    out = ["## Targets", "",
           "Verdicts by CPU time; the same ratios by wall-clock time beside them.", "",
           "| target | by CPU time | | by wall-clock time |", "|---|---|---|---|"]
    for n, t in sorted(TORCH_TARGETS.items()):
        sp = spread(rs.ratios(n, "torch"))
        out.append("| engine vs PyTorch at n = %d: ≥ %g× | %s | %s | %s |" % (
            n, t, fmt_spread(sp), verdict(sp, t), fmt_spread(spread(wall.ratios(n, "torch")))))
    for n in [n for n in rs.sizes if n <= ONEDNN_MAX_N]:
        sp = spread(rs.ratios(n, "onednn"))
        out.append("| engine at least as fast as oneDNN at n = %d: ≥ 1× | %s | %s | %s |" % (
            n, fmt_spread(sp), verdict(sp, 1.0), fmt_spread(spread(wall.ratios(n, "onednn")))))
    sp = spread(rs.sgemm_share(4096))
    if sp:
        best = rs.best_sgemm(rs.rounds[0]) or {}
        pct = lambda x: tuple(100 * v for v in x) if x else None
        out.append("| n = 4096: engine ≥ 60%% of the best square sgemm rate (core %s, 1 thread) "
                   "| %s | %s | %s |" % (
                       best.get("core", "?"), fmt_spread(pct(sp), "%"),
                       verdict(sp, SGEMM_SHARE_TARGET),
                       fmt_spread(pct(spread(wall.sgemm_share(4096))), "%")))
    for r in pick(rows, op="memory"):
        out.append("| n = %d, %d heads, weights not requested: peak extra memory ≤ 64 MiB | "
                   "%.1f MiB | %s | |" % (r["n"], r["heads"], r["peak_extra_mib"],
                                          "**met**" if r["peak_extra_mib"] <= MEMORY_TARGET_MIB
                                          else "**not met**"))
    out.append("| tutor idle 10 s < 1% of a core; first frame ≤ 50 ms | not measured by "
               "`make bench`: see the UI latency section (`make bench-ui`) and the e2e test "
               "of idle CPU | | |")
    return out + [""]


def ratio_table(rs, wall):
    out = ["## Ratios: each peer's CPU time over the engine's, same round (above 1: the "
           "engine is faster)", "",
           "| n | engine CPU time (median of rounds) | engine GFLOP/s | %s |" % " | ".join(
               label for _, label in PEERS),
           "|---|---|---|" + "---|" * len(PEERS)]
    for n in rs.sizes:
        e = rs.engine_median(n)
        out.append("| %d | %s | %s | %s |" % (
            n, fmt_time(e), "%.1f" % (flops(n) / e * 1e-9) if e else "–",
            " | ".join(fmt_spread(spread(rs.ratios(n, name))) for name, _ in PEERS)))
    out += ["", "PyTorch: the faster of its two forms in each round. The same ratios by "
            "wall-clock time:", "",
            "| n | %s |" % " | ".join(label for _, label in PEERS),
            "|---|" + "---|" * len(PEERS)]
    for n in wall.sizes:
        out.append("| %d | %s |" % (n, " | ".join(
            fmt_spread(spread(wall.ratios(n, name))) for name, _ in PEERS)))
    out += ["", "Peer CPU times, fastest sample of each round, median over the rounds "
            "(orientation only: they move with the load):", "",
            "| n | %s |" % " | ".join(label for _, label in PEERS),
            "|---|" + "---|" * len(PEERS)]
    for n in rs.sizes:
        cells = []
        for name, _ in PEERS:
            ts = [rs.peer(r, n, name) for r in rs.rounds if rs.peer(r, n, name)]
            cells.append(fmt_time(statistics.median(ts)) if ts else "–")
        out.append("| %d | %s |" % (n, " | ".join(cells)))
    return out + [""]


def unmet(rs, rows, notes):
    """For each missed target: the measured times, the rates, and the floor they are held
    against (the best square sgemm rate of the same rounds)."""
    out = ["## Targets not met in every round: the measured reason and the floor", ""]
    lines = []
    best = [rs.best_sgemm(r)[rs.rate] for r in rs.rounds if rs.best_sgemm(r)]
    peak = max(best) if best else None
    med = lambda xs: statistics.median(xs) if xs else None
    floor = lambda n: ("; at the best square sgemm rate of these rounds (%.1f GFLOP/s) the "
                       "arithmetic alone takes %s" % (peak, fmt_time(flops(n) / (peak * 1e9)))
                       if peak else "")
    for n, t in sorted(TORCH_TARGETS.items()):
        sp = spread(rs.ratios(n, "torch"))
        if not sp or sp[1] >= t:
            continue
        e = rs.engine_median(n)
        tt = med([rs.peer(r, n, "torch") for r in rs.rounds if rs.peer(r, n, "torch")])
        lines.append("- PyTorch at n = %d: %s against %g×. Per round (engine, PyTorch): %s. "
                     "The engine's median %s is %.1f GFLOP/s; %g× of PyTorch's median %s "
                     "needs %s%s." % (
                         n, fmt_spread(sp), t, "; ".join(
                             "%s, %s" % (fmt_time(rs.engine(r, n)), fmt_time(rs.peer(r, n, "torch")))
                             for r in rs.rounds), fmt_time(e), flops(n) / e * 1e-9, t,
                         fmt_time(tt), fmt_time(tt / t), floor(n)))
    for n in [n for n in rs.sizes if n <= ONEDNN_MAX_N]:
        sp = spread(rs.ratios(n, "onednn"))
        if not sp or sp[1] >= 1.0:
            continue
        e = rs.engine_median(n)
        o = med([rs.peer(r, n, "onednn") for r in rs.rounds if rs.peer(r, n, "onednn")])
        lines.append("- oneDNN at n = %d: %s. Per round (engine, oneDNN): %s. Medians: engine "
                     "%s (%.1f GFLOP/s), oneDNN %s (%.1f GFLOP/s)%s." % (
                         n, fmt_spread(sp), "; ".join(
                             "%s, %s" % (fmt_time(rs.engine(r, n)), fmt_time(rs.peer(r, n, "onednn")))
                             for r in rs.rounds), fmt_time(e), flops(n) / e * 1e-9, fmt_time(o),
                         flops(n) / o * 1e-9, floor(n)))
    sp = spread(rs.sgemm_share(4096))
    if sp and sp[1] < SGEMM_SHARE_TARGET:
        e = rs.engine_median(4096)
        lines.append("- n = 4096: %s of the best sgemm rate (target 60%%); the engine's median "
                     "%s is %.1f GFLOP/s." % (fmt_spread(tuple(100 * x for x in sp), "%"),
                                              fmt_time(e), flops(4096) / e * 1e-9))
    out += lines or ["- none: every speed target was met in every round."]
    if notes:
        out += ["", notes.strip()]
    return out + [""]


def agreement(rs, rows):
    out = ["## The outputs agree", "",
           "Largest |difference| from the engine's output over all rounds (oneDNN, plain "
           "OpenBLAS, llm.c) and between PyTorch's SDPA and numpy:", "",
           "| n | oneDNN | plain OpenBLAS | llm.c loop | PyTorch vs numpy |", "|---|---|---|---|---|"]
    for n in rs.sizes:
        cs = [rs.c[(r, n)] for r in rs.rounds if (r, n) in rs.c]
        ps = [rs.py[(r, n)] for r in rs.rounds if (r, n) in rs.py]
        cell = lambda key, src: "%.1e" % max(x[key] for x in src) if src and all(
            x.get(key) is not None for x in src) else "–"
        out.append("| %d | %s | %s | %s | %s |" % (
            n, cell("onednn_diff", cs), cell("openblas_diff", cs), cell("llmc_diff", cs),
            cell("torch_vs_numpy_diff", ps)))
    return out + [""]


def sgemm_lines(rs):
    out = ["## OpenBLAS's square sgemm (2048³, 1 thread), each round", "",
           "| round | core | GFLOP/s by CPU time | by wall-clock time | how the core was chosen |",
           "|---|---|---|---|---|"]
    for r in rs.sgemm:
        out.append("| %d | %s | %.1f | %.1f | %s |" % (
            r["round"], r["core"], r["cpu_gflops"], r["gflops"],
            "OPENBLAS_CORETYPE set by the user" if r.get("user_core")
            else "attn-tutor's choice for this CPU"))
    return out + [""]


def crossover(rows):
    rs = pick(rows, impl="crossover")
    if not rs:
        return []
    out = ["## The fused kernel against the two-pass one (`bench_attention --crossover`)", "",
           "`at_mha_attend_ex` on the same inputs with the fused kernel (all heads in one "
           "pass, the softmax down the keys for 8 or 16 queries at once) and with the "
           "two-pass kernel (2 sgemm calls per head, a softmax row by row), interleaved in "
           "one process; ratio = two-pass CPU time / fused CPU time per round (above 1: the fused "
           "kernel is faster). `at_mha_attend` takes the fused kernel on one thread up to "
           "4096 keys.", "",
           "| n | rounds | ratio median [min–max] | two-pass best | fused best |",
           "|---|---|---|---|---|"]
    for r in rs:
        out.append("| %d | %d | %.2f [%.2f–%.2f] | %s | %s |" % (
            r["n"], r["rounds"], r["ratio_median"], r["ratio_min"], r["ratio_max"],
            fmt_time(r["two_pass_best_s"]), fmt_time(r["fused_best_s"])))
    return out + [""]


def memory(rows):
    out = ["## Memory when nobody asks for the weights (`bench_memory`, 1 thread)", ""]
    for r in pick(rows, op="memory"):
        out.append("- n = %d, %d heads: peak extra memory %.1f MiB (target ≤ 64 MiB), in "
                   "%.1f s; the inputs q, k, v and out hold %.0f MiB; the two-pass kernel "
                   "would hold one head's weights, %.0f MiB, per worker." % (
                       r["n"], r["heads"], r["peak_extra_mib"], r["seconds"],
                       r["inputs_mib"], r["two_pass_scratch_mib"]))
    return out + [""] if len(out) > 2 else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--command", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--load-before", required=True)
    ap.add_argument("--load-after", required=True)
    ap.add_argument("--cores", type=int, required=True)
    ap.add_argument("--notes", help="a Markdown file added under the unmet targets")
    ap.add_argument("results")
    a = ap.parse_args()
    rows = load(a.results)
    rs, wall = Rounds(rows, "cpu"), Rounds(rows, "wall")
    notes = open(a.notes, encoding="utf-8").read() if a.notes else ""
    lines = header(a, rows, len(rs.rounds))
    lines += targets(rs, wall, rows)
    lines += ratio_table(rs, wall)
    lines += unmet(rs, rows, notes)
    lines += agreement(rs, rows)
    lines += sgemm_lines(rs)
    lines += crossover(rows)
    lines += memory(rows)
    lines += ["## Not in this run", "",
              "- Two-thread figures (see above); `build/bench/bench_attention "
              "--thread-thresholds` and `--case3 REPS` measure where a second thread pays.",
              "- The whole layer with its projections (`bench_attention --sizes …`).", ""]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
