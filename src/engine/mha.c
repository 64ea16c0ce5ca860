/* Multi-head attention and cross-attention (Vaswani et al. 2017, §3.2.2–3.2.3). */
#include "engine/attention.h"

#include "engine/kernels.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* y = X·W + b: X [n × d], W [d × d], b [d] or NULL, y [n × d]. */
static void linear(size_t n, size_t d, const float *X, const float *W, const float *b, float *y)
{
    at_matmul(n, d, d, X, W, 0, y, 0);
    if (b)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d; j++)
                y[i * d + j] += b[j];
}

/* total = a·b + c in size_t; returns 0 on overflow. */
static int size_muladd(size_t a, size_t b, size_t c, size_t *total)
{
    size_t ab, bytes;
    return !__builtin_mul_overflow(a, b, &ab) && !__builtin_add_overflow(ab, c, total) &&
           !__builtin_mul_overflow(*total, sizeof(float), &bytes);
}

/* Scratch floats of the attention core: one head's weights [n_q × n_k] per worker. */
static int attend_scratch(size_t n_q, size_t n_k, size_t workers, size_t *need)
{
    size_t w;
    return !__builtin_mul_overflow(n_q, n_k, &w) && size_muladd(w, workers, 0, need);
}

/* Without weights to return, more keys than this go through the O(n)-memory kernel
 * (attention_online.c); fewer go through the two-pass one, whose scratch, one head's
 * n_q × n_k weights per worker, is then at most n_q × 512 floats. */
#define AT_ONLINE_MIN_KEYS 512

/* 1 when the heads are computed by at_attention_online: nobody asks for the weights
 * or the scores, and the keys are many. */
static int use_online(const float *weights, const at_mha_trace *trace, size_t n_k)
{
    return !weights && !(trace && (trace->scores || trace->scaled)) && n_k > AT_ONLINE_MIN_KEYS;
}

/* Below this many multiply-adds (h · n_q · n_k · d_head), one thread does all heads:
 * starting a worker costs tens of microseconds. Measured (bench_attention
 * --thread-thresholds, 8 heads of 64, 2 cores shared with other work, Haswell core):
 * two workers lose up to n = 96 tokens and win from n = 128. Scaled to the core in
 * use (at_blas_scaled_work). */
#define AT_HEAD_WORKERS_MIN_WORK ((size_t)8 * 112 * 112 * 64)
#define AT_MAX_WORKERS 16

/* Up to this many keys (with one worker), at_mha_attend takes the fused kernel
 * (attention_fused_*.c). Measured with bench_attention --crossover (8 heads of 64, the
 * two paths interleaved in one process, two-pass / fused CPU time per round, [min–max])
 * on a 2-core AVX-512 machine shared with other work: with OpenBLAS's best core there
 * (Cooperlake), 2 rounds: n = 8: 1.43–2.27, 16: 2.14–2.18, 64: 1.91–2.00, 256:
 * 1.54–1.58, 1024: 1.84–1.88, 4096: 1.93; with the Haswell core, 3 rounds: 2.13–3.33 at
 * every n from 8 to 4096 (bench/RESULTS.md). It wins at every size it takes, so it takes
 * every size up to its limit. */
#define AT_FUSED_AUTO_MAX_KEYS AT_FUSED_MAX_KEYS
/* From this many queries the 16-lane kernel is taken where the CPU has AVX-512. */
#define AT_FUSED_WIDE_MIN_QUERIES 16

/* How many threads share the heads: 1, or up to the BLAS thread maximum. */
static size_t attend_workers(size_t h_n, size_t n_q, size_t n_k, size_t d_head)
{
    size_t max = (size_t)at_blas_max_threads(), work;
    if (max < 2 || h_n < 2)
        return 1;
    int huge = __builtin_mul_overflow(h_n * d_head, n_q, &work) ||
               __builtin_mul_overflow(work, n_k, &work);
    if (!huge && work < at_blas_scaled_work(AT_HEAD_WORKERS_MIN_WORK))
        return 1;
    max = max < h_n ? max : h_n;
    return max < AT_MAX_WORKERS ? max : AT_MAX_WORKERS;
}

/* The heads of one call, shared by the worker threads. */
typedef struct head_jobs {
    size_t h_n, d, n_q, n_k;
    const float *q, *k, *v;
    float scale;
    const at_mask *mask;
    float *heads, *weights;
    unsigned char *fully_masked;
    const at_mha_trace *trace;
    int blas_threads;          /* per product: 1 with workers, 0 = by size */
    atomic_size_t next;        /* the next head to take */
} head_jobs;

typedef struct head_worker {
    head_jobs *jobs;
    float *scratch;            /* this worker's weights [n_q × n_k] */
    int rc;
    at_error err;
    pthread_t thread;
} head_worker;

static int run_head(const head_jobs *j, size_t h, float *scratch, at_error *err)
{
    const size_t d_head = j->d / j->h_n, nn = j->n_q * j->n_k;
    at_attn_config c = at_attn_config_init(j->n_q, j->n_k, d_head, d_head);
    c.scale = j->scale;
    if (j->mask)
        c.mask = *j->mask;
    c.ld_q = c.ld_k = c.ld_v = c.ld_out = j->d;
    at_attn_trace t = {0};
    if (j->trace) {
        t.scores = j->trace->scores ? j->trace->scores + h * nn : NULL;
        t.scaled = j->trace->scaled ? j->trace->scaled + h * nn : NULL;
    }
    if (use_online(j->weights, j->trace, j->n_k))
        return at_attention_online(&c, j->q + h * d_head, j->k + h * d_head, j->v + h * d_head,
                                   j->heads + h * d_head, h == 0 ? j->fully_masked : NULL,
                                   j->blas_threads, err);
    return at_attention_run(&c, j->q + h * d_head, j->k + h * d_head, j->v + h * d_head,
                            j->weights ? j->weights + h * nn : scratch, j->heads + h * d_head,
                            h == 0 ? j->fully_masked : NULL, &t, j->blas_threads, err);
}

static void *head_work(void *arg)
{
    head_worker *w = arg;
    for (size_t h; (h = atomic_fetch_add(&w->jobs->next, 1)) < w->jobs->h_n;) {
        int rc = run_head(w->jobs, h, w->scratch, &w->err);
        if (rc && !w->rc)
            w->rc = rc;
    }
    return NULL;
}

/* Runs the heads on `workers` threads (this one included), each taking the next
 * head until none is left; each product then runs on one BLAS thread. */
static int attend_heads(head_jobs *jobs, size_t workers, float *scratch, at_error *err)
{
    head_worker w[AT_MAX_WORKERS];
    if (workers > 1)
        at_blas_use_threads(1);
    jobs->blas_threads = workers > 1 ? 1 : 0;
    atomic_init(&jobs->next, 0);
    size_t started = 1;
    for (size_t i = 0; i < workers; i++) {
        w[i] = (head_worker){.jobs = jobs};
        if (scratch)   /* NULL when the caller's weights buffer holds every head */
            w[i].scratch = scratch + i * jobs->n_q * jobs->n_k;
        at_error_clear(&w[i].err);
    }
    /* If a thread cannot start, the others take its heads. */
    while (started < workers && !pthread_create(&w[started].thread, NULL, head_work, &w[started]))
        started++;
    head_work(&w[0]);
    for (size_t i = 1; i < started; i++)
        pthread_join(w[i].thread, NULL);
    for (size_t i = 0; i < started; i++)
        if (w[i].rc) {
            if (err)
                *err = w[i].err;
            return w[i].rc;
        }
    return AT_OK;
}

static int check_heads(size_t n_heads, size_t d_model, size_t n_q, size_t n_k, at_error *err)
{
    if (n_heads == 0 || d_model == 0 || d_model % n_heads)
        return at_error_set(err, AT_EINVAL,
                            "multi-head attention: %zu heads do not divide d_model = %zu",
                            n_heads, d_model);
    if (n_q == 0 || n_k == 0)
        return at_error_set(err, AT_EINVAL, "multi-head attention: no tokens");
    return AT_OK;
}

int at_fused_possible(size_t n_heads, size_t d_model, size_t n_k, const at_mha_trace *trace)
{
    return n_heads > 0 && d_model % n_heads == 0 && n_k <= AT_FUSED_MAX_KEYS &&
           d_model / n_heads <= AT_FUSED_MAX_DHEAD && !(trace && (trace->scores || trace->scaled)) &&
           at_vhave_avx2();
}

/* 1 when the heads go through the fused kernel: asked for (fused > 0) or chosen
 * (fused < 0: few keys, one worker), and possible. */
static int use_fused(int fused, size_t n_heads, size_t d_model, size_t n_k,
                     const at_mha_trace *trace, size_t workers)
{
    return fused && (fused > 0 || (n_k <= AT_FUSED_AUTO_MAX_KEYS && workers == 1)) &&
           at_fused_possible(n_heads, d_model, n_k, trace);
}

typedef int fused_fn(size_t, size_t, size_t, const float *, size_t, const float *,
                     const float *, float, const at_mask *, float *, float *, unsigned char *,
                     float *, at_error *);

/* The fused kernel of the width asked for (8 or 16 lanes; 2: the AVX2 one), else the
 * widest this CPU has, except for fewer than 16 queries (half the lanes of a 16-lane
 * block would idle): then 8 lanes, with the AVX-512 output sums where the CPU has them. */
static fused_fn *fused_kernel(int fused, size_t n_q)
{
    if (at_cpu_isa() < AT_ISA_AVX512 || fused == 2)
        return at_attention_fused_avx2;
    if (fused == 8 || (fused != 16 && n_q < AT_FUSED_WIDE_MIN_QUERIES))
        return at_attention_fused8_avx512;
    return at_attention_fused_avx512;
}

int at_mha_attend_ex(size_t n_heads, size_t d_model, size_t n_q, const float *q, size_t n_k,
                     const float *k, const float *v, float scale, const at_mask *mask,
                     float *out, float *weights, unsigned char *fully_masked,
                     const at_mha_trace *trace, at_workspace *ws, int fused, at_error *err)
{
    if (!q || !k || !v || !out || !ws)
        return at_error_set(err, AT_EINVAL, "multi-head attention: a required argument is missing");
    int rc = check_heads(n_heads, d_model, n_q, n_k, err);
    if (rc)
        return rc;
    if (!isfinite(scale))
        return at_error_set(err, AT_EINVAL, "attention: the scale must be a finite number");
    size_t workers = attend_workers(n_heads, n_q, n_k, d_model / n_heads), need;
    if (use_fused(fused, n_heads, d_model, n_k, trace, workers)) {
        float *pack = at_workspace_reserve(ws, AT_FUSED_PACK(n_k, d_model / n_heads));
        if (!pack)
            return at_error_set(err, AT_ENOMEM, "multi-head attention: out of memory");
        return fused_kernel(fused, n_q)(n_heads, d_model, n_q, q, n_k, k, v, scale, mask, out,
                                        weights, fully_masked, pack, err);
    }
    if (!attend_scratch(n_q, n_k, weights || use_online(weights, trace, n_k) ? 0 : workers,
                        &need))
        return at_error_set(err, AT_ERANGE, "multi-head attention: %zu × %zu tokens is too large",
                            n_q, n_k);
    float *scratch = at_workspace_reserve(ws, need);
    if (!scratch && need)
        return at_error_set(err, AT_ENOMEM, "multi-head attention: out of memory");
    head_jobs jobs = {.h_n = n_heads, .d = d_model, .n_q = n_q, .n_k = n_k, .q = q, .k = k,
                      .v = v, .scale = scale, .mask = mask, .heads = out, .weights = weights,
                      .fully_masked = fully_masked, .trace = trace};
    return attend_heads(&jobs, workers, scratch, err);
}

int at_mha_attend(size_t n_heads, size_t d_model, size_t n_q, const float *q, size_t n_k,
                  const float *k, const float *v, float scale, const at_mask *mask, float *out,
                  float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                  at_workspace *ws, at_error *err)
{
    return at_mha_attend_ex(n_heads, d_model, n_q, q, n_k, k, v, scale, mask, out, weights,
                            fully_masked, trace, ws, -1, err);
}

int at_mha_forward_ex(const at_mha_weights *w, size_t n_q, const float *X_q, size_t n_k,
                      const float *X_kv, float scale, const at_mask *mask, float *out,
                      float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                      at_workspace *ws, int fused, at_error *err)
{
    if (!w || !X_q || !X_kv || !out || !ws)
        return at_error_set(err, AT_EINVAL, "multi-head attention: a required argument is missing");
    int rc = check_heads(w->n_heads, w->d_model, n_q, n_k, err);
    if (rc)
        return rc;
    const size_t d = w->d_model;

    /* One scratch block: q [n_q × d], k, v [n_k × d], concatenated heads [n_q × d],
     * then the attention core's scratch. */
    size_t workers = attend_workers(w->n_heads, n_q, n_k, d / w->n_heads), core, need;
    fused = use_fused(fused, w->n_heads, d, n_k, trace, workers) ? fused : 0;
    if (fused)   /* one head's keys and values, packed */
        core = AT_FUSED_PACK(n_k, d / w->n_heads);
    else if (!attend_scratch(n_q, n_k, weights || use_online(weights, trace, n_k) ? 0 : workers,
                             &core))
        core = SIZE_MAX;
    if (core == SIZE_MAX || n_q + n_k < n_q ||
        2 * d < d || !size_muladd(2 * d, n_q + n_k, core, &need))
        return at_error_set(err, AT_ERANGE, "multi-head attention: %zu × %zu tokens is too large",
                            n_q, n_k);
    float *buf = at_workspace_reserve(ws, need);
    if (!buf)
        return at_error_set(err, AT_ENOMEM, "multi-head attention: out of memory");
    float *q = trace && trace->q ? trace->q : buf;
    float *k = trace && trace->k ? trace->k : buf + n_q * d;
    float *v = trace && trace->v ? trace->v : buf + n_q * d + n_k * d;
    float *heads = trace && trace->heads_out ? trace->heads_out : buf + n_q * d + 2 * n_k * d;
    float *scratch = buf + 2 * n_q * d + 2 * n_k * d;

    linear(n_q, d, X_q, w->W_q, w->b_q, q);
    linear(n_k, d, X_kv, w->W_k, w->b_k, k);
    linear(n_k, d, X_kv, w->W_v, w->b_v, v);
    head_jobs jobs = {.h_n = w->n_heads, .d = d, .n_q = n_q, .n_k = n_k, .q = q, .k = k,
                      .v = v, .scale = scale, .mask = mask, .heads = heads, .weights = weights,
                      .fully_masked = fully_masked, .trace = trace};
    if (fused)
        rc = fused_kernel(fused, n_q)(w->n_heads, d, n_q, q, n_k, k, v, scale, mask, heads,
                                      weights, fully_masked, scratch, err);
    else
        rc = attend_heads(&jobs, workers, scratch, err);
    if (rc)
        return rc;
    linear(n_q, d, heads, w->W_o, w->b_o, out);
    return AT_OK;
}

int at_mha_forward(const at_mha_weights *w, size_t n_q, const float *X_q, size_t n_k,
                   const float *X_kv, float scale, const at_mask *mask, float *out,
                   float *weights, unsigned char *fully_masked, const at_mha_trace *trace,
                   at_workspace *ws, at_error *err)
{
    return at_mha_forward_ex(w, n_q, X_q, n_k, X_kv, scale, mask, out, weights, fully_masked,
                             trace, ws, -1, err);
}
