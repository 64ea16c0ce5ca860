"""One round of numpy and PyTorch attention on the shapes of bench_peers.c (not a test).

8 heads of dimension 64 over n tokens; q, k, v of shape [8, n, 64], float32, no mask.
For each n the implementations are timed interleaved in this process, as bench_peers
times the engine and its C peers: one call of each first (warm-up), then `samples`
times in turn (the order rotating), each time enough calls to last about 2 ms; the
fastest sample of each is printed, by wall-clock time and by the process's CPU time. bench/run.sh runs one round of this and one of
bench_peers, alternately first, so both see the same load.

Run with OPENBLAS_NUM_THREADS=1 (numpy's BLAS reads it at start); torch.set_num_threads(1).
PyTorch's plain composition is timed up to n = 1024 (beyond it the SDPA is the faster).
Without PyTorch (python3-torch missing) numpy alone is timed and the JSON says so.
Prints one JSON object per line.
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

try:
    import torch
    import torch.nn.functional as F
except ImportError:   # numpy only, said in the output
    torch = None

HEADS, D_HEAD = 8, 64
COMPOSITION_MAX_N = 1024


def numpy_attention(q, k, v):
    s = q @ k.transpose(0, 2, 1)
    s *= np.float32(1.0 / math.sqrt(D_HEAD))
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s @ v


def torch_composition(q, k, v):
    return torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(D_HEAD), dim=-1) @ v


def torch_sdpa(q, k, v):
    # torch 1.13: (query, key, value, attn_mask, dropout_p, need_attn_weights, is_causal)
    return F._scaled_dot_product_attention(q, k, v, None, 0.0, False, False)[0]


def time_interleaved(fns, samples, window=0.002):
    """Fastest seconds per call of each function, sampled in turn (see the docstring), by
    wall-clock time and by the process's CPU time (time.process_time: every thread)."""
    reps, best, best_cpu = [], [], []
    for fn in fns:
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        one = time.perf_counter() - t0
        reps.append(1 if one >= window else int(window / max(one, 1e-9)) + 1)
        best.append(one)
        best_cpu.append(time.process_time() - c0)
    for s in range(samples):
        for i in range(len(fns)):
            o = (i + s) % len(fns)
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(reps[o]):
                fns[o]()
            best[o] = min(best[o], (time.perf_counter() - t0) / reps[o])
            best_cpu[o] = min(best_cpu[o], (time.process_time() - c0) / reps[o])
    return best, best_cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="8,16,64,256,1024,4096")
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--round", type=int, default=0)
    args = ap.parse_args()
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        sys.exit("bench_python: set OPENBLAS_NUM_THREADS=1")
    if torch is not None:
        torch.set_num_threads(1)
    print(json.dumps({"impl": "py_versions", "round": args.round, "numpy": np.__version__,
                      "torch": torch.__version__ if torch is not None else None,
                      "python": sys.version.split()[0]}), flush=True)
    rng = np.random.default_rng(1)
    for n in (int(s) for s in args.sizes.split(",")):
        q, k, v = (rng.uniform(-1, 1, (HEADS, n, D_HEAD)).astype(np.float32) for _ in range(3))
        names = ["numpy"]
        fns = [lambda: numpy_attention(q, k, v)]
        if torch is not None:
            tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
            names.append("torch_sdpa")
            fns.append(lambda: torch_sdpa(tq, tk, tv))
            if n <= COMPOSITION_MAX_N:
                names.append("torch_composition")
                fns.append(lambda: torch_composition(tq, tk, tv))
        samples = 1 if n >= 4096 else args.samples
        if torch is not None:
            with torch.inference_mode():
                best, cpu = time_interleaved(fns, samples)
                diff = float(np.abs(torch_sdpa(tq, tk, tv).numpy() - numpy_attention(q, k, v)).max())
        else:
            best, cpu = time_interleaved(fns, samples)
            diff = None
        row = {"impl": "py_round", "round": args.round, "n": n, "samples": samples,
               "torch_vs_numpy_diff": diff}
        row.update({name + "_s": t for name, t in zip(names, best)})
        row.update({name + "_cpu_s": t for name, t in zip(names, cpu)})
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
