/* One round of the engine against the attention a C programmer would write with other
 * tools (a benchmark, not a test): multi-head attention, 8 heads of 64, n tokens, no mask,
 * one thread, for each n timed interleaved in this one process (bench/timing.h):
 *   engine    at_mha_attend on q, k, v [n × 512], as a caller of the engine runs it
 *   oneDNN    batched matmul over the heads, softmax primitive, batched matmul
 *   openblas  a plain OpenBLAS user: per head sgemm, a scalar softmax, sgemm
 *   llmc      llm.c's attention_forward loop (-Ofast -march=native)
 * (bench/peers/). Every peer's output is compared with the engine's (max |diff|). The
 * fastest sample of each, by wall-clock time and by the process's CPU time, goes out,
 * one JSON object per line, for bench/report.py;
 * bench/run.sh runs a round of this and one of bench_python.py, alternately first.
 *
 * Usage: bench_peers [--sizes N,N,…] [--samples S] [--round R]
 *        bench_peers --sgemm N [--round R]   (square sgemm with the core in use; without
 *                                             OPENBLAS_CORETYPE the best for this CPU)
 * OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=1 (oneDNN's threads) are expected. */
#include "cli/blas_start.h"
#include "engine/attention.h"
#include "engine/blas_core.h"
#include "engine/vexp.h"
#include "peers/peers.h"
#include "timing.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEADS = 8, D_HEAD = 64, D_MODEL = HEADS * D_HEAD };

static float *alloc_floats(size_t n)
{
    float *m = malloc((n ? n : 1) * sizeof *m);
    if (!m) {
        fprintf(stderr, "bench_peers: out of memory\n");
        exit(1);
    }
    return m;
}

static float *random_matrix(size_t n)
{
    float *m = alloc_floats(n);
    for (size_t i = 0; i < n; i++)
        m[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
    return m;
}

/* [n × heads·d] (row layout) → [heads × n × d] (head-major), or back. */
static void to_heads(size_t n, const float *rows, float *heads)
{
    for (size_t h = 0; h < HEADS; h++)
        for (size_t i = 0; i < n; i++)
            memcpy(heads + (h * n + i) * D_HEAD, rows + i * D_MODEL + h * D_HEAD,
                   D_HEAD * sizeof *heads);
}

static void from_heads(size_t n, const float *heads, float *rows)
{
    for (size_t h = 0; h < HEADS; h++)
        for (size_t i = 0; i < n; i++)
            memcpy(rows + i * D_MODEL + h * D_HEAD, heads + (h * n + i) * D_HEAD,
                   D_HEAD * sizeof *rows);
}

/* Everything one size needs, shared by the four operations. */
typedef struct problem {
    size_t n;
    float scale;
    float *q, *k, *v;                    /* row layout */
    float *qh, *kh, *vh;                 /* head-major copies */
    float *out_engine, *out_dnnl, *out_blas, *out_llmc;   /* llmc: row layout */
    float *scores, *preatt, *att;        /* scratch of the plain and llm.c peers */
    at_workspace ws;
    dnnl_peer *dnnl;
} problem;

static void run_engine(void *ctx)
{
    problem *p = ctx;
    at_error err;
    if (at_mha_attend(HEADS, D_MODEL, p->n, p->q, p->n, p->k, p->v, p->scale, NULL,
                      p->out_engine, NULL, NULL, NULL, &p->ws, &err)) {
        fprintf(stderr, "bench_peers: %s\n", err.msg);
        exit(1);
    }
}

static void run_dnnl(void *ctx)
{
    dnnl_peer_run(((problem *)ctx)->dnnl);
}

static void run_blas(void *ctx)
{
    problem *p = ctx;
    openblas_plain_attention(HEADS, p->n, D_HEAD, p->scale, p->qh, p->kh, p->vh, p->out_blas,
                             p->scores);
}

static void run_llmc(void *ctx)
{
    problem *p = ctx;
    llmc_attention(HEADS, p->n, D_HEAD, p->scale, p->q, p->k, p->v, p->out_llmc, p->preatt,
                   p->att);
}

/* The largest |a − b| over n floats (NaN counts as infinite). */
static double max_diff(const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        worst = isnan(d) ? INFINITY : d > worst ? d : worst;
    }
    return worst;
}

static void bench_size(size_t n, int samples, int round)
{
    problem p = {.n = n, .scale = 1.0f / sqrtf((float)D_HEAD)};
    const size_t nd = n * D_MODEL;
    p.q = random_matrix(nd), p.k = random_matrix(nd), p.v = random_matrix(nd);
    p.qh = alloc_floats(nd), p.kh = alloc_floats(nd), p.vh = alloc_floats(nd);
    to_heads(n, p.q, p.qh), to_heads(n, p.k, p.kh), to_heads(n, p.v, p.vh);
    p.out_engine = alloc_floats(nd), p.out_dnnl = alloc_floats(nd);
    p.out_blas = alloc_floats(nd), p.out_llmc = alloc_floats(nd);
    p.scores = alloc_floats(n * n), p.preatt = alloc_floats(n), p.att = alloc_floats(n);
    char err[256];
    p.dnnl = dnnl_peer_new(HEADS, n, D_HEAD, p.scale, p.qh, p.kh, p.vh, p.out_dnnl, err,
                           sizeof err);
    if (!p.dnnl) {
        fprintf(stderr, "bench_peers: %s\n", err);
        exit(1);
    }
    timed ops[4] = {{run_engine, &p}, {run_dnnl, &p}, {run_blas, &p}, {run_llmc, &p}};
    double best[4], cpu[4];
    time_interleaved(ops, 4, samples, 0.002, best, cpu);
    /* each output against the engine's, in the row layout */
    float *rows = alloc_floats(nd);
    from_heads(n, p.out_dnnl, rows);
    double d_dnnl = max_diff(rows, p.out_engine, nd);
    from_heads(n, p.out_blas, rows);
    double d_blas = max_diff(rows, p.out_engine, nd);
    double d_llmc = max_diff(p.out_llmc, p.out_engine, nd);
    printf("{\"impl\":\"c_round\",\"round\":%d,\"n\":%zu,\"samples\":%d,\"engine_s\":%.9g,"
           "\"onednn_s\":%.9g,\"openblas_s\":%.9g,\"llmc_s\":%.9g,\"engine_cpu_s\":%.9g,"
           "\"onednn_cpu_s\":%.9g,\"openblas_cpu_s\":%.9g,\"llmc_cpu_s\":%.9g,"
           "\"onednn_diff\":%.3g,\"openblas_diff\":%.3g,\"llmc_diff\":%.3g,"
           "\"onednn_impl\":\"%s\"}\n", round, n, samples, best[0], best[1], best[2], best[3],
           cpu[0], cpu[1], cpu[2], cpu[3], d_dnnl, d_blas, d_llmc, dnnl_peer_impl(p.dnnl));
    fflush(stdout);
    dnnl_peer_free(p.dnnl);
    at_workspace_free(&p.ws);
    float *bufs[] = {p.q, p.k, p.v, p.qh, p.kh, p.vh, p.out_engine, p.out_dnnl, p.out_blas,
                     p.out_llmc, p.scores, p.preatt, p.att, rows};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        free(bufs[i]);
}

typedef struct sgemm_ctx {
    int n;
    float *A, *B, *C;
} sgemm_ctx;

static void run_sgemm(void *ctx)
{
    sgemm_ctx *c = ctx;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c->n, c->n, c->n, 1.0f, c->A, c->n,
                c->B, c->n, 0.0f, c->C, c->n);
}

/* Square sgemm n³ on one thread with the core in use: the machine's sgemm rate. */
static void bench_sgemm(int n, int round)
{
    sgemm_ctx c = {n, random_matrix((size_t)n * n), random_matrix((size_t)n * n),
                   alloc_floats((size_t)n * n)};
    double best, cpu;
    time_interleaved(&(timed){run_sgemm, &c}, 1, 3, 0.05, &best, &cpu);
    const char *user_core = getenv("OPENBLAS_CORETYPE");
    printf("{\"impl\":\"sgemm\",\"round\":%d,\"n\":%d,\"core\":\"%s\",\"user_core\":%d,"
           "\"seconds\":%.9g,\"gflops\":%.4g,\"cpu_seconds\":%.9g,\"cpu_gflops\":%.4g}\n",
           round, n, openblas_get_corename(), user_core && *user_core, best,
           2.0 * n * (double)n * n / best * 1e-9, cpu, 2.0 * n * (double)n * n / cpu * 1e-9);
    free(c.A), free(c.B), free(c.C);
}

/* The CPU's model name and which of its vector extensions matter here. */
static void print_cpu(void)
{
    char line[4096], model[128] = "?", flags[256] = "";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10) && strchr(line, ':') && !strcmp(model, "?")) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
        }
        if (!strncmp(line, "flags", 5) && !flags[0]) {
            const char *want[] = {"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq",
                                  "avx512_bf16", "amx_tile"};
            for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
                char pat[32];
                snprintf(pat, sizeof pat, " %s ", want[i]);
                line[strcspn(line, "\n")] = ' ';
                if (strstr(line, pat))
                    snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s",
                             flags[0] ? " " : "", want[i]);
            }
        }
    }
    if (f)
        fclose(f);
    printf("{\"impl\":\"cpu\",\"model\":\"%s\",\"isa\":\"%s\",\"flags\":\"%s\"}\n", model,
           at_isa_name(at_cpu_isa()), flags);
}

int main(int argc, char **argv)
{
    cli_blas_start(argv);   /* the OpenBLAS core attn-tutor would run */
    size_t sizes[16] = {8, 16, 64, 256, 1024, 4096};
    int n_sizes = 6, samples = 5, round = 0, sgemm = 0, bad = argc % 2 == 0;
    for (int i = 1; i + 1 < argc && !bad; i += 2) {
        if (!strcmp(argv[i], "--sizes")) {
            n_sizes = 0;
            for (char *s = argv[i + 1], *end; *s && n_sizes < 16; s = *end ? end + 1 : end) {
                sizes[n_sizes++] = strtoul(s, &end, 10);
                bad |= end == s || sizes[n_sizes - 1] == 0;
            }
        } else if (!strcmp(argv[i], "--samples"))
            samples = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--round"))
            round = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--sgemm"))
            sgemm = atoi(argv[i + 1]);
        else
            bad = 1;
    }
    if (bad || samples < 1 || sgemm < 0) {
        fprintf(stderr, "usage: bench_peers [--sizes N,N,…] [--samples S] [--round R]\n"
                        "       bench_peers --sgemm N [--round R]\n");
        return 2;
    }
    at_blas_set_max_threads(1);
    if (sgemm) {
        bench_sgemm(sgemm, round);
        return 0;
    }
    srand(1);
    printf("{\"impl\":\"versions\",\"round\":%d,\"openblas\":\"%s\",\"core\":\"%s\","
           "\"core_report\":\"", round, openblas_get_config(), openblas_get_corename());
    bench_json_text(cli_blas_core_report());
    printf("\",\"onednn\":\"%s\",\"engine_kernel\":\"%s\"}\n", dnnl_peer_version(),
           !at_vhave_avx2() ? "the two-pass kernel (sgemm calls and a softmax row by row)"
           : at_cpu_isa() >= AT_ISA_AVX512
               ? "its fused kernel with AVX-512 (16 queries a vector; 8 below 16 tokens)"
               : "its fused kernel with AVX2 + FMA (8 queries a vector)");
    print_cpu();
    fflush(stdout);
    for (int i = 0; i < n_sizes; i++)
        bench_size(sizes[i], sizes[i] >= 4096 ? 1 : samples, round);
    return 0;
}
