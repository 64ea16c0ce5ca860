/* Benchmark of the attention engine (not a test): multi-head attention with
 * 8 heads of dimension 64 over n tokens, OpenBLAS's own sgemm for reference,
 * and case 3 (QKᵀ of 8 tokens, d_k = 64, 100 000 times).
 *
 * Usage: bench_attention [--sizes N,N,…] [--case3 REPS] [--sgemm N]
 *        bench_attention --sizes N,N,… --crossover ROUNDS   (fused vs two-pass kernel)
 *        bench_attention --thread-thresholds
 * The BLAS thread count comes from OPENBLAS_NUM_THREADS, as for the engine.
 * Prints one JSON object per line for bench/report.py. */
#include "cli/blas_start.h"
#include "engine/attention.h"
#include "engine/kernels.h"
#include "timing.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { HEADS = 8, D_HEAD = 64, D_MODEL = HEADS * D_HEAD };

/* Median seconds per call over `samples` samples, each of enough calls to last
 * at least 50 ms (one call is run first to warm caches and the workspace). */
static double time_per_call(timed t, int samples)
{
    double t0 = bench_now();
    t.run(t.ctx);   /* warms caches and the workspace; its time sizes the samples */
    double one = bench_now() - t0;
    long reps = one >= 0.05 ? 1 : (long)(0.05 / (one > 1e-9 ? one : 1e-9)) + 1;
    double s[16];
    samples = samples > 16 ? 16 : samples;
    for (int i = 0; i < samples; i++) {
        t0 = bench_now();
        for (long r = 0; r < reps; r++)
            t.run(t.ctx);
        s[i] = (bench_now() - t0) / (double)reps;
    }
    qsort(s, (size_t)samples, sizeof *s, bench_cmp_double);
    return s[samples / 2];
}

/* The fastest of `samples` calls (for comparing settings on a busy machine). */
static double time_best(timed t, int samples)
{
    double best = INFINITY;
    long reps = 0;
    for (int i = 0; i < samples; i++) {
        double t0 = bench_now();
        long r = 0;
        do {
            t.run(t.ctx);
            r++;
        } while (reps ? r < reps : bench_now() - t0 < 0.002);
        reps = r;
        double per = (bench_now() - t0) / (double)r;
        best = per < best ? per : best;
    }
    return best;
}

static float *random_matrix(size_t n)
{
    float *m = malloc(n * sizeof *m);
    if (!m) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        m[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
    return m;
}

/* The multi-head attention of already projected q, k, v [n × 512]: the same
 * operation as torch's scaled dot-product attention on [8, n, 64]. */
typedef struct mha_ctx {
    size_t n;
    float *q, *k, *v, *out;
    at_mha_weights w;
    at_workspace ws;
} mha_ctx;

static void run_attention_heads(void *p)
{
    mha_ctx *c = p;
    at_error err;
    if (at_mha_attend(HEADS, D_MODEL, c->n, c->q, c->n, c->k, c->v, 1.0f / sqrtf((float)D_HEAD),
                      NULL, c->out, NULL, NULL, NULL, &c->ws, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
}

/* The whole layer with its four projections (§3.2.2). */
static void run_mha_forward(void *p)
{
    mha_ctx *c = p;
    at_error err;
    if (at_mha_forward(&c->w, c->n, c->q, c->n, c->q, 1.0f / sqrtf((float)D_HEAD), NULL, c->out,
                       NULL, NULL, NULL, &c->ws, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
}

static void bench_size(size_t n, int threads)
{
    mha_ctx c = {.n = n};
    c.q = random_matrix(n * D_MODEL), c.k = random_matrix(n * D_MODEL);
    c.v = random_matrix(n * D_MODEL), c.out = random_matrix(n * D_MODEL);
    float *W = random_matrix(4 * D_MODEL * D_MODEL);
    c.w = (at_mha_weights){.d_model = D_MODEL, .n_heads = HEADS, .W_q = W,
                           .W_k = W + D_MODEL * D_MODEL, .W_v = W + 2 * D_MODEL * D_MODEL,
                           .W_o = W + 3 * D_MODEL * D_MODEL};
    int samples = n >= 1024 ? 3 : 7;
    double t = time_per_call((timed){run_attention_heads, &c}, samples);
    double flops = 4.0 * (double)n * (double)n * D_HEAD * HEADS;
    printf("{\"impl\":\"engine\",\"op\":\"attention\",\"n\":%zu,\"threads\":%d,\"seconds\":%.9g,"
           "\"gflops\":%.4g}\n", n, threads, t, flops / t * 1e-9);
    if (n <= 1024) {
        t = time_per_call((timed){run_mha_forward, &c}, samples);
        printf("{\"impl\":\"engine\",\"op\":\"mha_layer\",\"n\":%zu,\"threads\":%d,"
               "\"seconds\":%.9g}\n", n, threads, t);
    }
    fflush(stdout);
    at_workspace_free(&c.ws);
    free(c.q), free(c.k), free(c.v), free(c.out), free(W);
}

typedef struct sgemm_ctx {
    int m, n, k, trans_b;
    float *A, *B, *C;
} sgemm_ctx;

static void run_sgemm(void *p)
{
    sgemm_ctx *c = p;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, c->trans_b ? CblasTrans : CblasNoTrans, c->m, c->n,
                c->k, 1.0f, c->A, c->k, c->B, c->trans_b ? c->k : c->n, 0.0f, c->C, c->n);
}

/* OpenBLAS's own sgemm at the process's thread count: square n³ (the machine's
 * sgemm rate) and the two shapes attention uses at n tokens, d = 64. */
static void bench_sgemm(int n, int threads)
{
    openblas_set_num_threads(threads);
    const int shapes[3][4] = {{n, n, n, 0}, {4096, 4096, D_HEAD, 1}, {4096, D_HEAD, 4096, 0}};
    const char *names[3] = {"square", "qk", "wv"};
    for (int s = 0; s < 3; s++) {
        sgemm_ctx c = {shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], NULL, NULL, NULL};
        c.A = random_matrix((size_t)c.m * (size_t)c.k);
        c.B = random_matrix((size_t)c.k * (size_t)c.n);
        c.C = random_matrix((size_t)c.m * (size_t)c.n);
        double t = time_per_call((timed){run_sgemm, &c}, 5);
        printf("{\"impl\":\"openblas\",\"op\":\"sgemm_%s\",\"m\":%d,\"n\":%d,\"k\":%d,"
               "\"threads\":%d,\"seconds\":%.9g,\"gflops\":%.4g}\n", names[s], c.m, c.n, c.k,
               threads, t, 2.0 * c.m * (double)c.n * c.k / t * 1e-9);
        fflush(stdout);
        free(c.A), free(c.B), free(c.C);
    }
}

/* Case 3: QKᵀ with 8 tokens, d_k = 64, `reps` times; seconds for the whole loop. */
static double case3_loop(const float *Q, const float *K, float *S, long reps, int engine)
{
    double t0 = bench_now();
    for (long r = 0; r < reps; r++) {
        if (engine)
            at_matmul(8, 8, D_HEAD, Q, K, 1, S, 0);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 8, 8, D_HEAD, 1.0f, Q, D_HEAD,
                        K, D_HEAD, 0.0f, S, 8);
    }
    return bench_now() - t0;
}

/* Default configuration (the engine's at_matmul with OpenBLAS at its default
 * thread count) against one thread, alternating, median of 5 rounds. */
static void bench_case3(long reps)
{
    float *Q = random_matrix(8 * D_HEAD), *K = random_matrix(8 * D_HEAD), S[64];
    int default_threads = openblas_get_num_threads();
    double d[5], d_raw[5], one[5];
    for (int round = 0; round < 5; round++) {
        openblas_set_num_threads(default_threads);
        d[round] = case3_loop(Q, K, S, reps, 1);
        d_raw[round] = case3_loop(Q, K, S, reps, 0);
        openblas_set_num_threads(1);
        one[round] = case3_loop(Q, K, S, reps, 0);
    }
    qsort(d, 5, sizeof *d, bench_cmp_double);
    qsort(d_raw, 5, sizeof *d_raw, bench_cmp_double);
    qsort(one, 5, sizeof *one, bench_cmp_double);
    printf("{\"impl\":\"case3\",\"reps\":%ld,\"default_threads\":%d,\"engine_default_s\":%.6g,"
           "\"openblas_default_s\":%.6g,\"single_thread_s\":%.6g}\n", reps, default_threads,
           d[2], d_raw[2], one[2]);
    openblas_set_num_threads(default_threads);
    free(Q), free(K);
}

/* Where a second thread pays: square sgemm n³ on 1 and 2 OpenBLAS threads, and
 * the engine's heads on 1 and 2 worker threads, fastest of 30 samples each. */
static void bench_thread_thresholds(void)
{
    const int sizes[] = {32, 48, 64, 80, 96, 128, 160, 192, 256, 384};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s];
        sgemm_ctx c = {n, n, n, 0, random_matrix((size_t)n * n), random_matrix((size_t)n * n),
                       random_matrix((size_t)n * n)};
        double t[2];
        for (int th = 1; th <= 2; th++) {
            openblas_set_num_threads(th);
            t[th - 1] = time_best((timed){run_sgemm, &c}, 30);
        }
        printf("{\"impl\":\"threads\",\"op\":\"sgemm\",\"n\":%d,\"one_s\":%.6g,\"two_s\":%.6g}\n",
               n, t[0], t[1]);
        fflush(stdout);
        free(c.A), free(c.B), free(c.C);
    }
    const size_t tokens[] = {16, 24, 32, 48, 64, 96, 128};
    for (size_t s = 0; s < sizeof tokens / sizeof *tokens; s++) {
        size_t n = tokens[s];
        mha_ctx c = {.n = n};
        c.q = random_matrix(n * D_MODEL), c.k = random_matrix(n * D_MODEL);
        c.v = random_matrix(n * D_MODEL), c.out = random_matrix(n * D_MODEL);
        double t[2];
        for (int th = 1; th <= 2; th++) {
            at_blas_set_max_threads(th);
            t[th - 1] = time_best((timed){run_attention_heads, &c}, 30);
        }
        at_blas_set_max_threads(0);
        printf("{\"impl\":\"threads\",\"op\":\"heads\",\"n\":%zu,\"one_s\":%.6g,\"two_s\":%.6g}\n",
               n, t[0], t[1]);
        fflush(stdout);
        at_workspace_free(&c.ws);
        free(c.q), free(c.k), free(c.v), free(c.out);
    }
}

/* The fused kernel and the two-pass one (at_mha_attend_ex, 8 heads of 64, no mask, no
 * weights), interleaved in this process; per round the ratio two-pass / fused of their
 * fastest samples by CPU time, over `rounds` rounds median [min–max] (above 1: the fused
 * kernel is faster). */
typedef struct path_ctx {
    mha_ctx *c;
    int fused;
} path_ctx;

static void run_path(void *p)
{
    path_ctx *pc = p;
    mha_ctx *c = pc->c;
    at_error err;
    if (at_mha_attend_ex(HEADS, D_MODEL, c->n, c->q, c->n, c->k, c->v,
                         1.0f / sqrtf((float)D_HEAD), NULL, c->out, NULL, NULL, NULL, &c->ws,
                         pc->fused, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
}

static void bench_crossover(const size_t *sizes, int n_sizes, int rounds)
{
    at_blas_set_max_threads(1);
    double ratio[n_sizes][32], t_fused[n_sizes], t_two[n_sizes];
    rounds = rounds > 32 ? 32 : rounds;
    for (int i = 0; i < n_sizes; i++)
        t_fused[i] = t_two[i] = INFINITY;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < n_sizes; i++) {
            size_t n = sizes[i];
            mha_ctx c = {.n = n};
            c.q = random_matrix(n * D_MODEL), c.k = random_matrix(n * D_MODEL);
            c.v = random_matrix(n * D_MODEL), c.out = random_matrix(n * D_MODEL);
            path_ctx two = {&c, 0}, fused = {&c, 1};
            timed ops[2] = {{run_path, &two}, {run_path, &fused}};
            double wall[2], best[2];   /* by CPU time: see bench/timing.h */
            time_interleaved(ops, 2, 3, 0.002, wall, best);
            ratio[i][r] = best[0] / best[1];
            t_two[i] = best[0] < t_two[i] ? best[0] : t_two[i];
            t_fused[i] = best[1] < t_fused[i] ? best[1] : t_fused[i];
            at_workspace_free(&c.ws);
            free(c.q), free(c.k), free(c.v), free(c.out);
        }
    for (int i = 0; i < n_sizes; i++) {
        qsort(ratio[i], (size_t)rounds, sizeof(double), bench_cmp_double);
        printf("{\"impl\":\"crossover\",\"op\":\"fused_vs_two_pass\",\"n\":%zu,\"rounds\":%d,"
               "\"ratio_median\":%.4g,\"ratio_min\":%.4g,\"ratio_max\":%.4g,"
               "\"two_pass_best_s\":%.6g,\"fused_best_s\":%.6g}\n", sizes[i], rounds,
               ratio[i][rounds / 2], ratio[i][0], ratio[i][rounds - 1], t_two[i], t_fused[i]);
    }
    fflush(stdout);
}

static int parse_sizes(const char *s, size_t *sizes, int max)
{
    int n = 0;
    for (char *end; *s && n < max; s = *end ? end + 1 : end) {
        sizes[n++] = strtoul(s, &end, 10);
        if (end == s)
            return -1;
    }
    return n;
}

int main(int argc, char **argv)
{
    cli_blas_start(argv);   /* the best OpenBLAS core for this CPU, as attn-tutor runs */
    size_t sizes[16] = {8, 16, 64, 256, 1024, 4096};
    int n_sizes = 6, sgemm_n = 2048;
    long case3 = 0;
    int crossover = 0;
    if (argc == 2 && !strcmp(argv[1], "--thread-thresholds")) {
        srand(1);
        bench_thread_thresholds();
        return 0;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--sizes"))
            n_sizes = parse_sizes(argv[i + 1], sizes, 16);
        else if (!strcmp(argv[i], "--case3"))
            case3 = atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--crossover"))
            crossover = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sgemm"))
            sgemm_n = atoi(argv[i + 1]);
        else
            n_sizes = -1;
    }
    if (n_sizes < 0 || argc % 2 == 0) {
        fprintf(stderr, "usage: bench_attention [--sizes N,N,…] [--case3 REPS] [--sgemm N]\n"
                        "       bench_attention --sizes N,N,… --crossover ROUNDS\n"
                        "       bench_attention --thread-thresholds\n");
        return 2;
    }
    srand(1);
    int threads = openblas_get_num_threads();
    if (crossover > 0) {
        bench_crossover(sizes, n_sizes, crossover);
        return 0;
    }
    if (case3 > 0) {
        bench_case3(case3);
        return 0;
    }
    printf("{\"impl\":\"versions\",\"openblas\":\"%s\",\"core\":\"%s\",\"core_report\":\"",
           openblas_get_config(), openblas_get_corename());
    bench_json_text(cli_blas_core_report());
    printf("\"}\n");
    if (sgemm_n > 0)
        bench_sgemm(sgemm_n, threads);
    for (int i = 0; i < n_sizes; i++)
        bench_size(sizes[i], threads);
    return 0;
}
