"""Turns the JSON lines of bench_attention and bench_python.py into bench/RESULTS.md.

Usage: report.py --command CMD --date DATE --load-before L --load-after L RESULTS.jsonl
Every number in the tables is computed from the measurements of that one run.
"""
import argparse
import json
import os

TARGETS = {8: 10.0, 64: 2.0, 256: 1.2, 1024: 1.2, 4096: 1.2}   # engine vs PyTorch
SGEMM_SHARE_TARGET = 0.60   # n = 4096: engine GFLOP/s over OpenBLAS sgemm GFLOP/s
CASE3_TARGET = 1.2          # default configuration over single thread


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def pick(rows, **kv):
    return [r for r in rows if all(r.get(k) == v for k, v in kv.items())]


def one(rows, **kv):
    found = pick(rows, **kv)
    return found[0] if found else None


def fmt_time(s):
    if s is None:
        return "–"
    if s < 1e-3:
        return "%.1f µs" % (s * 1e6)
    if s < 1:
        return "%.2f ms" % (s * 1e3)
    return "%.2f s" % s


def verdict(value, target, higher_is_better=True):
    if value is None:
        return "–"
    ok = value >= target if higher_is_better else value <= target
    return "yes" if ok else "**no**"


def attention_table(rows, threads):
    out = ["| n | engine | numpy | torch SDPA | torch composition | engine vs PyTorch "
           "(faster of the two) | target | met | engine vs numpy | engine GFLOP/s |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for n in sorted({r["n"] for r in pick(rows, op="attention", threads=threads)}):
        t = {impl: (one(rows, impl=impl, op="attention", n=n, threads=threads) or {}).get("seconds")
             for impl in ("engine", "numpy", "torch_sdpa", "torch_composition")}
        torch = min(x for x in (t["torch_sdpa"], t["torch_composition"]) if x is not None) \
            if t["torch_sdpa"] or t["torch_composition"] else None
        ratio = torch / t["engine"] if torch and t["engine"] else None
        vs_numpy = t["numpy"] / t["engine"] if t["numpy"] and t["engine"] else None
        engine = one(rows, impl="engine", op="attention", n=n, threads=threads)
        target = TARGETS.get(n)
        out.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %.1f |" % (
            n, fmt_time(t["engine"]), fmt_time(t["numpy"]), fmt_time(t["torch_sdpa"]),
            fmt_time(t["torch_composition"]), "%.2f×" % ratio if ratio else "–",
            "≥ %g×" % target if target else "–", verdict(ratio, target) if target else "–",
            "%.2f×" % vs_numpy if vs_numpy else "–", engine["gflops"] if engine else 0.0))
    return out


def unmet_lines(rows):
    """For each missed speed target: the GFLOP/s it would need, against OpenBLAS's sgemm."""
    out = []
    for threads in (1, 2):
        sq = one(rows, impl="openblas", op="sgemm_square", threads=threads)
        for n, target in sorted(TARGETS.items()):
            eng = one(rows, impl="engine", op="attention", n=n, threads=threads)
            torch = [r["seconds"] for r in pick(rows, op="attention", n=n, threads=threads)
                     if r["impl"].startswith("torch")]
            if not eng or not torch or not sq or min(torch) / eng["seconds"] >= target:
                continue
            need = eng["gflops"] * target * eng["seconds"] / min(torch)
            out.append("- %d thread%s, n = %d: %.2f× needs the engine at %.1f GFLOP/s, "
                       "%.0f%% of this run's square sgemm rate (%.1f); it ran at %.1f (%.0f%%)." % (
                           threads, "s" if threads > 1 else "", n, target, need,
                           100 * need / sq["gflops"], sq["gflops"], eng["gflops"],
                           100 * eng["gflops"] / sq["gflops"]))
    return out or ["- none"]


def sgemm_table(rows):
    out = ["| threads | sgemm square GFLOP/s | sgemm QKᵀ shape (4096×4096×64) | "
           "sgemm weights×V shape (4096×64×4096) | engine n = 4096 GFLOP/s | "
           "engine / square sgemm | target | met |", "|---|---|---|---|---|---|---|---|"]
    for threads in sorted({r["threads"] for r in pick(rows, impl="openblas")}):
        sq = one(rows, impl="openblas", op="sgemm_square", threads=threads)
        qk = one(rows, impl="openblas", op="sgemm_qk", threads=threads)
        wv = one(rows, impl="openblas", op="sgemm_wv", threads=threads)
        eng = one(rows, impl="engine", op="attention", n=4096, threads=threads)
        share = eng["gflops"] / sq["gflops"] if eng and sq else None
        out.append("| %d | %.1f (%d³) | %.1f | %.1f | %s | %s | ≥ %d%% | %s |" % (
            threads, sq["gflops"], sq["m"], qk["gflops"], wv["gflops"],
            "%.1f" % eng["gflops"] if eng else "–", "%.0f%%" % (100 * share) if share else "–",
            100 * SGEMM_SHARE_TARGET, verdict(share, SGEMM_SHARE_TARGET)))
    return out


def layer_table(rows):
    out = ["| n | 1 thread | 2 threads |", "|---|---|---|"]
    for n in sorted({r["n"] for r in pick(rows, op="mha_layer")}):
        cells = [fmt_time((one(rows, op="mha_layer", n=n, threads=t) or {}).get("seconds"))
                 for t in (1, 2)]
        out.append("| %d | %s | %s |" % (n, cells[0], cells[1]))
    return out


def thresholds_table(rows):
    out = ["| what | n | 1 thread | 2 threads | 2 threads / 1 |", "|---|---|---|---|---|"]
    for op, label in (("sgemm", "OpenBLAS sgemm n×n×n"), ("heads", "engine, 8 heads of 64, n tokens")):
        for r in pick(rows, impl="threads", op=op):
            out.append("| %s | %d | %s | %s | %.2f |" % (label, r["n"], fmt_time(r["one_s"]),
                                                       fmt_time(r["two_s"]), r["two_s"] / r["one_s"]))
    return out


def case3_lines(rows):
    c = one(rows, impl="case3")
    if not c:
        return ["(not run)"]
    ratio = c["engine_default_s"] / c["single_thread_s"]
    raw = c["openblas_default_s"] / c["single_thread_s"]
    return ["QKᵀ with 8 tokens and d_k = 64, %d times, median of 5 alternating rounds; default "
            "configuration = no OPENBLAS_NUM_THREADS, OpenBLAS at %d threads." % (
                c["reps"], c["default_threads"]), "",
            "| engine at_matmul, default | cblas_sgemm, default | cblas_sgemm, 1 thread | "
            "engine default / 1 thread | target | met |", "|---|---|---|---|---|---|",
            "| %s | %s | %s | %.2f× (raw OpenBLAS %.2f×) | ≤ %g× | %s |" % (
                fmt_time(c["engine_default_s"]), fmt_time(c["openblas_default_s"]),
                fmt_time(c["single_thread_s"]), ratio, raw, CASE3_TARGET,
                verdict(ratio, CASE3_TARGET, higher_is_better=False))]


def memory_lines(rows):
    out = []
    for r in pick(rows, op="memory"):
        out.append("- n = %d, %d heads, weights not requested: peak extra memory %.1f MiB "
                   "(target ≤ 64 MiB: %s), in %.1f s; the inputs q, k, v and out hold %.0f MiB; "
                   "the two-pass kernel would hold one head's weights, %.0f MiB, per worker." % (
                       r["n"], r["heads"], r["peak_extra_mib"],
                       verdict(r["peak_extra_mib"], 64.0, higher_is_better=False), r["seconds"],
                       r["inputs_mib"], r["two_pass_scratch_mib"]))
    cmp = pick(rows, op="online_vs_two_pass")
    if cmp:
        out += ["", "The O(n) kernel (tiles of 64 queries × 256 keys, online softmax) against "
                "the two-pass one on the same heads, interleaved round by round; ratio = "
                "two-pass time / O(n) time (above 1: the O(n) kernel is faster).", "",
                "| n | rounds | ratio median [min–max] | two-pass best | O(n) best |",
                "|---|---|---|---|---|"]
        for r in cmp:
            out.append("| %d | %d | %.2f [%.2f–%.2f] | %s | %s |" % (
                r["n"], r["rounds"], r["ratio_median"], r["ratio_min"], r["ratio_max"],
                fmt_time(r["two_pass_best_s"]), fmt_time(r["online_best_s"])))
    return out or ["(not measured in this run)"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--command", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--load-before", required=True)
    ap.add_argument("--load-after", required=True)
    ap.add_argument("--notes", default="")
    ap.add_argument("results")
    a = ap.parse_args()
    rows = load(a.results)
    cores = os.cpu_count() or 0
    loads = [float(a.load_before.split()[0]), float(a.load_after.split()[0])]
    loaded = max(loads) > 0.5 * cores
    lines = [
        "# Benchmark: attention engine against numpy and PyTorch",
        "",
        "Made by `%s` on %s. Every ratio below comes from this one run." % (a.command, a.date),
        "",
        "OpenBLAS: %s (core %s). " % tuple(next(((r["openblas"], r["core"]) for r in pick(
            rows, impl="versions") if "openblas" in r), ("?", "?"))) +
        "%s. " % next((r["core_report"] for r in pick(rows, impl="versions")
                       if "core_report" in r), "OpenBLAS core: not reported") +
        "Machine: %d cores; load average (1, 5, 15 min) %s before and %s after the run%s" % (
            cores, a.load_before, a.load_after,
            " — **the machine was loaded** (shared with other work while this ran), so "
            "absolute times are noisy and two-thread numbers suffer most." if loaded else "."),
        "",
        "Shapes: multi-head attention with 8 heads of dimension 64 on already projected q, k, v "
        "(engine `at_mha_attend` on [n × 512]; numpy and PyTorch on [8, n, 64]); per-call "
        "time is the median of repeats. GFLOP/s counts 4·n²·64 per head. PyTorch %s: "
        "`torch.nn.functional._scaled_dot_product_attention` (SDPA) and "
        "`softmax(q @ kᵀ / √d) @ v` (composition); \"vs PyTorch\" is the time of the faster of "
        "the two over the engine's (higher is better)." % (
            next((r["torch"] for r in pick(rows, impl="versions") if "torch" in r), "?")),
        "",
    ]
    for threads in (1, 2):
        lines += ["## %d thread%s (OPENBLAS_NUM_THREADS=%d, torch.set_num_threads(%d))" % (
            threads, "s" if threads > 1 else "", threads, threads), ""]
        lines += attention_table(rows, threads) + [""]
    lines += ["## Targets missed, and what they would need", "",
              "At small n the engine's time is its 16 sgemm calls (QKᵀ and weights×V per "
              "head) plus the softmax; where a target asks for more GFLOP/s than OpenBLAS's "
              "own sgemm reaches on this machine, no arrangement of sgemm calls can meet it.",
              ""] + unmet_lines(rows) + [""]
    lines += ["## Against OpenBLAS's own sgemm (same run, same thread count)", ""]
    lines += sgemm_table(rows) + [""]
    lines += ["## Case 3: threads on tiny matrices", ""] + case3_lines(rows) + [""]
    lines += ["## Where a second thread pays (fastest of 30 samples each)", "",
              "The engine uses one BLAS thread below 128³ multiply-adds per product "
              "(`at_blas_threads`) and shares heads between worker threads from about "
              "8·112²·64 multiply-adds per call (`at_mha_attend`), both measured on "
              "OpenBLAS's Haswell core and scaled by the speed of one thread of the core "
              "in use (×2 on SkylakeX, ×¼ on Prescott: `at_blas_scaled_work`).", ""]
    lines += thresholds_table(rows) + [""]
    lines += ["## Memory when nobody asks for the weights (`bench_memory`, 1 thread)", ""]
    lines += memory_lines(rows) + [""]
    lines += ["## The whole layer (engine `at_mha_forward`, with W_q, W_k, W_v, W_o; no comparison)",
              ""] + layer_table(rows) + [""]
    if a.notes:
        lines += ["## Notes", "", a.notes, ""]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
