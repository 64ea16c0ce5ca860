/* Memory and speed of attention without weights (a benchmark, not a test).
 *
 * 1. Peak extra memory: multi-head attention (at_mha_attend, 8 heads of 64) on
 *    already projected q, k, v [n × 512] with no weights asked for, n = 16384 by
 *    default; the peak resident set (VmHWM, reset just before the call) over the
 *    resident set before it, which already holds q, k, v and out. The two-pass kernel
 *    would need one head's weights, n² floats, per worker: 1 GiB at n = 16384.
 * 2. --compare N,N,…: the O(n) kernel (at_attention_forward without weights) against
 *    the two-pass one (with an n × n weights buffer, reused per head, as at_mha_attend
 *    used to), 8 heads of 64, interleaved: each round times one call of each, in
 *    alternating order; the ratio two-pass / online is taken per round (a burst of
 *    other load hits both sides of a round alike) and reported as median [min–max].
 *
 * Usage: bench_memory [--n N] [--compare N,N,…] [--rounds R]
 * Prints one JSON object per line for bench/report.py. */
#include "cli/blas_start.h"
#include "engine/attention.h"
#include "engine/kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { HEADS = 8, D_HEAD = 64, D_MODEL = HEADS * D_HEAD };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float *random_matrix(size_t n)
{
    float *m = malloc(n * sizeof *m);
    if (!m) {
        fprintf(stderr, "bench_memory: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        m[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
    return m;
}

/* A field of /proc/self/status in KiB ("VmRSS", "VmHWM"), or -1. */
static long status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t len = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, len) && line[len] == ':')
            v = atol(line + len + 1);
    if (f)
        fclose(f);
    return v;
}

static void peak_memory(size_t n)
{
    float *q = random_matrix(n * D_MODEL), *k = random_matrix(n * D_MODEL);
    float *v = random_matrix(n * D_MODEL), *out = random_matrix(n * D_MODEL);
    at_workspace ws = {0};
    at_error err;
    FILE *f = fopen("/proc/self/clear_refs", "w");   /* "5": reset the peak to now */
    int reset = f && fputs("5", f) >= 0;
    if (f)
        reset = fclose(f) == 0 && reset;
    long before = status_kib("VmRSS");
    double t0 = now();
    int rc = at_mha_attend(HEADS, D_MODEL, n, q, n, k, v, 1.0f / sqrtf((float)D_HEAD), NULL, out,
                           NULL, NULL, NULL, &ws, &err);
    double secs = now() - t0;
    long peak = status_kib("VmHWM");
    if (rc) {
        fprintf(stderr, "bench_memory: %s\n", err.msg);
        exit(1);
    }
    printf("{\"impl\":\"engine\",\"op\":\"memory\",\"n\":%zu,\"heads\":%d,\"threads\":%d,"
           "\"peak_extra_mib\":%.2f,\"peak_reset\":%d,\"inputs_mib\":%.1f,"
           "\"two_pass_scratch_mib\":%.1f,\"workspace_floats\":%zu,\"seconds\":%.3f}\n",
           n, HEADS, at_blas_max_threads(), reset ? (double)(peak - before) / 1024.0 : -1.0,
           reset, 4.0 * (double)n * D_MODEL * 4 / 1048576.0, (double)n * n * 4 / 1048576.0,
           ws.cap, secs);
    fflush(stdout);
    at_workspace_free(&ws);
    free(q), free(k), free(v), free(out);
}

/* s as a JSON string body (quotes and backslashes escaped, control bytes dropped). */
static void print_json_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The 8 heads of q, k, v [n × 512] one after another through at_attention_forward,
 * with `weights` (the two-pass kernel, the buffer reused per head) or without (NULL:
 * the O(n) kernel). Returns the seconds taken. */
static double heads_once(size_t n, const float *q, const float *k, const float *v, float *out,
                         float *weights)
{
    at_error err;
    double t0 = now();
    for (size_t h = 0; h < HEADS; h++) {
        at_attn_config c = at_attn_config_init(n, n, D_HEAD, D_HEAD);
        c.ld_q = c.ld_k = c.ld_v = c.ld_out = D_MODEL;
        if (at_attention_forward(&c, q + h * D_HEAD, k + h * D_HEAD, v + h * D_HEAD, weights,
                                 out + h * D_HEAD, NULL, NULL, &err)) {
            fprintf(stderr, "bench_memory: %s\n", err.msg);
            exit(1);
        }
    }
    return now() - t0;
}

static void compare(size_t n, int rounds)
{
    float *q = random_matrix(n * D_MODEL), *k = random_matrix(n * D_MODEL);
    float *v = random_matrix(n * D_MODEL), *out = random_matrix(n * D_MODEL);
    float *w = random_matrix(n * n);
    double *ratio = malloc((size_t)rounds * sizeof *ratio), best[2] = {INFINITY, INFINITY};
    heads_once(n, q, k, v, out, w);      /* warm: pages, caches */
    heads_once(n, q, k, v, out, NULL);
    for (int r = 0; r < rounds; r++) {
        double t[2];   /* [0] two-pass, [1] online; the first of a round alternates */
        int first = r % 2;
        t[first] = heads_once(n, q, k, v, out, first ? NULL : w);
        t[!first] = heads_once(n, q, k, v, out, first ? w : NULL);
        ratio[r] = t[0] / t[1];
        for (int i = 0; i < 2; i++)
            best[i] = t[i] < best[i] ? t[i] : best[i];
    }
    qsort(ratio, (size_t)rounds, sizeof *ratio, cmp_double);
    printf("{\"impl\":\"engine\",\"op\":\"online_vs_two_pass\",\"n\":%zu,\"heads\":%d,"
           "\"threads\":%d,\"rounds\":%d,\"ratio_median\":%.3f,\"ratio_min\":%.3f,"
           "\"ratio_max\":%.3f,\"two_pass_best_s\":%.6g,\"online_best_s\":%.6g}\n",
           n, HEADS, at_blas_max_threads(), rounds, ratio[rounds / 2], ratio[0],
           ratio[rounds - 1], best[0], best[1]);
    fflush(stdout);
    free(q), free(k), free(v), free(out), free(w), free(ratio);
}

int main(int argc, char **argv)
{
    cli_blas_start(argv);   /* the best OpenBLAS core for this CPU, as attn-tutor runs */
    size_t n = 16384, sizes[16];
    int n_sizes = 0, rounds = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n")) {
            n = strtoul(argv[i + 1], NULL, 10);
        } else if (!strcmp(argv[i], "--rounds")) {
            rounds = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--compare")) {
            for (char *s = argv[i + 1], *end; *s && n_sizes < 16; s = *end ? end + 1 : end) {
                sizes[n_sizes++] = strtoul(s, &end, 10);
                if (end == s)
                    break;
            }
        } else {
            argc = 0;
        }
    }
    if (argc % 2 == 0 || n == 0 || rounds < 1) {
        fprintf(stderr, "usage: bench_memory [--n N] [--compare N,N,…] [--rounds R]\n");
        return 2;
    }
    srand(1);
    printf("{\"impl\":\"versions\",\"core_report\":\"");
    print_json_text(cli_blas_core_report());
    printf("\"}\n");
    if (n_sizes)
        for (int i = 0; i < n_sizes; i++)
            compare(sizes[i], rounds);
    else
        peak_memory(n);
    return 0;
}
