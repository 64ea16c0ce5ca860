/* The numbers of a lesson: compute blocks and computed questions, through the
 * engine (at_attention_forward, at_softmax_row, at_softmax_row_f64). */
#define _GNU_SOURCE
#include "lesson/lesson.h"
#include "engine/attention.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int fail_at(at_error *err, const at_rows *where, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(at_error *err, const at_rows *where, int code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    at_error_set(err, code, "%s", msg);
    if (err && where) {
        err->line = where->line;
        err->col = where->col;
    }
    return code;
}

/* Rows of number cells into a dense double matrix [rows × cols]. */
static int rows_to_doubles(const at_rows *r, const char *name, double **out, size_t *rows,
                           size_t *cols, at_error *err)
{
    *out = NULL;
    if (!r->rows_count || !r->rows[0].cells_count)
        return fail_at(err, r, AT_EINVAL, "`%s` is empty", name);
    size_t n = r->rows_count, d = r->rows[0].cells_count;
    if (n > AT_COMPUTE_MAX_N || d > AT_COMPUTE_MAX_D)
        return fail_at(err, r, AT_ERANGE, "`%s` is %zu × %zu: larger than a lesson shows", name, n, d);
    double *m = malloc(n * d * sizeof *m);
    if (!m)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (r->rows[i].cells_count != d) {
            free(m);
            return fail_at(err, r, AT_EINVAL, "row %zu of `%s` has %u entries; every row "
                                              "must be as long as row 1", i + 1, name,
                           r->rows[i].cells_count);
        }
        for (size_t j = 0; j < d; j++) {
            if (at_parse_cell(r->rows[i].cells[j], &m[i * d + j])) {
                free(m);
                return fail_at(err, r, AT_EINVAL, "`%s` row %zu entry %zu is not a number", name,
                               i + 1, j + 1);
            }
        }
    }
    *out = m;
    *rows = n;
    *cols = d;
    return AT_OK;
}

/* The same as float, for the engine's sgemm path (q, k, v). */
static int rows_to_floats(const at_rows *r, const char *name, float **out, size_t *rows,
                          size_t *cols, at_error *err)
{
    double *m;
    *out = NULL;
    int rc = rows_to_doubles(r, name, &m, rows, cols, err);
    if (rc)
        return rc;
    size_t n = *rows * *cols;
    float *f = malloc(n * sizeof *f);
    if (f)
        for (size_t i = 0; i < n; i++)
            f[i] = (float)m[i];
    free(m);
    if (!f)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    *out = f;
    return AT_OK;
}

/* splitmix64 + Box–Muller: seeded standard-normal numbers, same on every machine. */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill_normal(float *x, size_t n, uint64_t *state)
{
    for (size_t i = 0; i < n; i += 2) {
        double u1 = ((splitmix(state) >> 11) + 1.0) / 9007199254740993.0;
        double u2 = (splitmix(state) >> 11) / 9007199254740992.0;
        double r = sqrt(-2.0 * log(u1));
        x[i] = (float)(r * cos(2.0 * M_PI * u2));
        if (i + 1 < n)
            x[i + 1] = (float)(r * sin(2.0 * M_PI * u2));
    }
}

static int load_sources(const at_compute *c, at_compute_result *r, at_error *err)
{
    size_t rows, cols;
    int rc;
    if (c->random) {
        const at_random *rd = c->random;
        r->n_q = r->n_k = rd->n;
        r->d_k = rd->d_k;
        r->d_v = rd->d_v ? *rd->d_v : rd->d_k;
        if (!r->n_q || !r->d_k || !r->d_v || r->n_q > AT_COMPUTE_MAX_N ||
            r->d_k > AT_COMPUTE_MAX_D || r->d_v > AT_COMPUTE_MAX_D)
            return at_error_set(err, AT_ERANGE, "`random` needs 1 ≤ n ≤ %d and 1 ≤ d_k, d_v ≤ %d",
                                AT_COMPUTE_MAX_N, AT_COMPUTE_MAX_D);
        r->q = malloc(r->n_q * r->d_k * sizeof *r->q);
        r->k = malloc(r->n_k * r->d_k * sizeof *r->k);
        r->v = malloc(r->n_k * r->d_v * sizeof *r->v);
        if (!r->q || !r->k || !r->v)
            return at_error_set(err, AT_ENOMEM, "out of memory");
        uint64_t state = rd->seed ? *rd->seed : 1;
        fill_normal(r->q, r->n_q * r->d_k, &state);
        fill_normal(r->k, r->n_k * r->d_k, &state);
        fill_normal(r->v, r->n_k * r->d_v, &state);
        return AT_OK;
    }
    if (c->scores.rows_count) {
        r->scores_only = 1;
        if ((rc = rows_to_doubles(&c->scores, "scores", &r->scores64, &r->n_q, &r->n_k, err)))
            return rc;
        r->scaled = malloc(r->n_q * r->n_k * sizeof *r->scaled);
        r->weights64 = malloc(r->n_q * r->n_k * sizeof *r->weights64);
        if (!r->scaled || !r->weights64)
            return at_error_set(err, AT_ENOMEM, "out of memory");
        return AT_OK;
    }
    if ((rc = rows_to_floats(&c->q, "q", &r->q, &r->n_q, &r->d_k, err)))
        return rc;
    if ((rc = rows_to_floats(&c->k, "k", &r->k, &r->n_k, &cols, err)))
        return rc;
    if (cols != r->d_k)
        return fail_at(err, &c->k, AT_EINVAL, "`%s` rows have %zu numbers but `q` rows have %zu "
                                              "(q and k share d_k)", "k", cols, r->d_k);
    if ((rc = rows_to_floats(&c->v, "v", &r->v, &rows, &r->d_v, err)))
        return rc;
    if (rows != r->n_k)
        return fail_at(err, &c->v, AT_EINVAL, "`%s` has %zu rows but `k` has %zu (one value per key)",
                       "v", rows, r->n_k);
    return AT_OK;
}

static int build_mask(const at_compute *c, at_compute_result *r, at_error *err)
{
    size_t n = r->n_q * r->n_k;
    r->allowed = malloc(n ? n : 1);
    r->fully_masked = calloc(r->n_q ? r->n_q : 1, 1);
    if (!r->allowed || !r->fully_masked)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    memset(r->allowed, 1, n);
    r->masked = (c->mask && !strcmp(c->mask, "causal")) || c->mask_rows.rows_count > 0;
    if (c->mask && !strcmp(c->mask, "causal")) {
        for (size_t i = 0; i < r->n_q; i++)
            for (size_t j = i + 1; j < r->n_k; j++)
                r->allowed[i * r->n_k + j] = 0;
    } else if (c->mask && strcmp(c->mask, "none")) {
        return at_error_set(err, AT_EINVAL, "`mask` is none, causal or rows of 1/0, not '%s'",
                            c->mask);
    } else if (c->mask_rows.rows_count) {
        const at_rows *m = &c->mask_rows;
        if (m->rows_count != r->n_q)
            return fail_at(err, m, AT_EINVAL, "`mask` has %u rows; it needs one per query (%zu)",
                           m->rows_count, r->n_q);
        for (size_t i = 0; i < r->n_q; i++) {
            if (m->rows[i].cells_count != r->n_k)
                return fail_at(err, m, AT_EINVAL, "`mask` row %zu needs one 1/0 per key (%zu)",
                               i + 1, r->n_k);
            for (size_t j = 0; j < r->n_k; j++)
                r->allowed[i * r->n_k + j] = strcmp(m->rows[i].cells[j], "0") != 0;
        }
    }
    return AT_OK;
}

static int check_labels(const at_compute *c, at_compute_result *r, at_error *err)
{
    if (c->tokens_count && c->tokens_count != r->n_q)
        return at_error_set(err, AT_EINVAL, "`tokens` has %u labels but there are %zu query rows",
                            c->tokens_count, r->n_q);
    if (c->key_tokens_count && c->key_tokens_count != r->n_k)
        return at_error_set(err, AT_EINVAL, "`key_tokens` has %u labels but there are %zu keys",
                            c->key_tokens_count, r->n_k);
    r->tokens = c->tokens_count ? (const char *const *)c->tokens : NULL;
    r->key_tokens = c->key_tokens_count ? (const char *const *)c->key_tokens
                  : (r->n_k == r->n_q ? r->tokens : NULL);
    return AT_OK;
}

/* Given scores: one masked softmax per row, by the engine, in double (scores a
 * person types, such as 7999.99 next to 8000, lose their 4th decimal in float). */
static void run_scores_only(at_compute_result *r)
{
    size_t n_k = r->n_k;
    for (size_t i = 0; i < r->n_q; i++) {
        double *w = r->weights64 + i * n_k, *s = r->scores64 + i * n_k;
        const unsigned char *allowed = r->allowed + i * n_k;
        memcpy(w, s, n_k * sizeof *w);
        r->fully_masked[i] = (unsigned char)at_softmax_row_f64(w, allowed, n_k);
        for (size_t j = 0; j < n_k; j++) {
            if (!allowed[j])
                s[j] = -INFINITY;
            r->scaled[i * n_k + j] = (float)s[j];
            r->weights[i * n_k + j] = (float)w[j];
        }
    }
}

static int run_heads(const at_compute *c, at_compute_result *r, at_error *err)
{
    size_t h = r->heads, dk = r->d_k / h, dv = r->d_v / h, nn = r->n_q * r->n_k;
    r->scale = c->scale ? (float)*c->scale : 1.0f / sqrtf((float)dk);
    for (size_t i = 0; i < h; i++) {
        at_attn_config cfg = at_attn_config_init(r->n_q, r->n_k, dk, dv);
        cfg.scale = r->scale;
        cfg.mask.allowed = r->allowed;
        cfg.ld_q = cfg.ld_k = r->d_k;
        cfg.ld_v = cfg.ld_out = r->d_v;
        at_attn_trace tr = {r->raw + i * nn, r->scaled + i * nn};
        int rc = at_attention_forward(&cfg, r->q + i * dk, r->k + i * dk, r->v + i * dv,
                                      r->weights + i * nn, r->out + i * dv, r->fully_masked,
                                      &tr, err);
        if (rc)
            return rc;
    }
    return AT_OK;
}

/* The sample variance of the visible, finite entries of m [heads × n_q × n_k]. */
static double variance_of(const at_compute_result *r, const float *m)
{
    double sum = 0, sq = 0;
    size_t n = 0, nn = r->n_q * r->n_k;
    for (size_t i = 0; m && i < r->heads * nn; i++) {
        double x = m[i];
        if (!r->allowed[i % nn] || !isfinite(x))
            continue;
        sum += x;
        sq += x * x;
        n++;
    }
    return n > 1 ? (sq - sum * sum / (double)n) / (double)(n - 1) : 0.0;
}

int at_compute_run(const at_compute *c, at_compute_result *r, at_error *err)
{
    int rc;
    memset(r, 0, sizeof *r);
    at_error_clear(err);
    r->heads = c->heads ? *c->heads : 1;
    if ((rc = load_sources(c, r, err)) || (rc = check_labels(c, r, err)) ||
        (rc = build_mask(c, r, err)))
        goto out;
    int bad_heads = r->heads == 0 || (r->scores_only && r->heads != 1) ||
                    (!r->scores_only && (r->d_k % r->heads || r->d_v % r->heads));
    if (bad_heads) {
        rc = at_error_set(err, AT_EINVAL, "`heads` (%zu) must divide d_k = %zu and d_v = %zu",
                          r->heads, r->d_k, r->d_v);
        goto out;
    }
    size_t nn = r->heads * r->n_q * r->n_k;
    if (nn > AT_COMPUTE_MAX_CELLS) {
        rc = at_error_set(err, AT_ERANGE, "%zu heads × %zu × %zu weights is more than a lesson "
                          "computes (at most %u); make it smaller or `time: true`", r->heads,
                          r->n_q, r->n_k, AT_COMPUTE_MAX_CELLS);
        goto out;
    }
    r->weights = malloc(nn * sizeof *r->weights);
    if (!r->weights) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    if (r->scores_only) {
        r->scale = 1.0f;
        run_scores_only(r);
        goto out;
    }
    r->raw = malloc(nn * sizeof *r->raw);
    r->scaled = malloc(nn * sizeof *r->scaled);
    r->out = malloc(r->n_q * r->d_v * sizeof *r->out);
    if (!r->raw || !r->scaled || !r->out) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = run_heads(c, r, err)))
        goto out;
    r->raw_variance = variance_of(r, r->raw);
    r->scaled_variance = variance_of(r, r->scaled);
out:
    if (rc)
        at_compute_result_free(r);
    return rc;
}

void at_compute_result_free(at_compute_result *r)
{
    if (!r)
        return;
    free(r->q);
    free(r->k);
    free(r->v);
    free(r->raw);
    free(r->scaled);
    free(r->weights);
    free(r->scores64);
    free(r->weights64);
    free(r->out);
    free(r->allowed);
    free(r->fully_masked);
    memset(r, 0, sizeof *r);
}
