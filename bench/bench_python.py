"""Benchmark of numpy and PyTorch attention on the shapes of bench_attention.c.

8 heads of dimension 64 over n tokens; q, k, v of shape [8, n, 64], float32.
Run with OPENBLAS_NUM_THREADS set (torch's own thread setting does not reach
OpenBLAS); --threads sets torch.set_num_threads to the same count.
Prints one JSON object per line, like bench_attention.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

HEADS, D_HEAD = 8, 64


def time_per_call(fn, samples):
    """Median seconds per call; each sample lasts at least 50 ms. The first call
    warms caches and its time sizes the samples."""
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    reps = 1 if one >= 0.05 else int(0.05 / max(one, 1e-9)) + 1
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps)
    return statistics.median(times)


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


def emit(impl, n, threads, seconds):
    flops = 4.0 * n * n * D_HEAD * HEADS
    print(json.dumps({"impl": impl, "op": "attention", "n": n, "threads": threads,
                      "seconds": seconds, "gflops": flops / seconds * 1e-9}), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--sizes", default="8,16,64,256,1024,4096")
    args = ap.parse_args()
    if os.environ.get("OPENBLAS_NUM_THREADS") != str(args.threads):
        sys.exit("bench_python: set OPENBLAS_NUM_THREADS=%d as well" % args.threads)
    torch.set_num_threads(args.threads)
    print(json.dumps({"impl": "versions", "torch": torch.__version__, "numpy": np.__version__}),
          flush=True)
    rng = np.random.default_rng(1)
    for n in (int(s) for s in args.sizes.split(",")):
        q, k, v = (rng.uniform(-1, 1, (HEADS, n, D_HEAD)).astype(np.float32) for _ in range(3))
        samples = 3 if n >= 1024 else 7
        emit("numpy", n, args.threads, time_per_call(lambda: numpy_attention(q, k, v), samples))
        tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
        with torch.inference_mode():
            emit("torch_sdpa", n, args.threads,
                 time_per_call(lambda: torch_sdpa(tq, tk, tv), samples))
            emit("torch_composition", n, args.threads,
                 time_per_call(lambda: torch_composition(tq, tk, tv), samples))


if __name__ == "__main__":
    main()
