/* attn-tutor compute [--format table|json] FILE.yaml|-
 * Attention on explicit small matrices: the same block a lesson's compute step
 * holds, loaded with libcyaml, computed by the engine (at_attention_forward). */
#include "cli/cli.h"
#include "engine/text.h"
#include "lesson/lesson.h"

#include <math.h>
#include <string.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor compute [--format table|json] FILE.yaml|-\n"
               "  FILE holds q, k, v (lists of rows), optional mask (causal, or rows of 1/0),\n"
               "  scale, heads, tokens; or scores (rows of scaled scores); .nan/.inf accepted.\n"
               "  Prints the scores QKᵀ, the scaled scores, the weights and the output.\n");
    return f == stdout ? 0 : 2;
}

/* ---- text */

/* Display columns, per grapheme cluster (engine/text.h): 👩🏿‍🔧 is 2, not 6. */
static int width_of(const char *s)
{
    return (int)at_text_width(s, strlen(s));
}

/* Print s padded with spaces to w columns (display width). */
static void pad(FILE *f, const char *s, int w, int right)
{
    int n = w - width_of(s);
    if (right)
        for (; n > 0; n--)
            fputc(' ', f);
    fputs(s, f);
    if (!right)
        for (; n > 0; n--)
            fputc(' ', f);
}

static void label(char *buf, size_t n, const char *const *labels, size_t i)
{
    if (labels && labels[i])
        snprintf(buf, n, "%s", labels[i]);
    else
        snprintf(buf, n, "%zu", i + 1);
}

static void print_matrix(FILE *f, const char *title, const float *m, size_t rows, size_t cols,
                         const char *const *rl, const char *const *cl,
                         const unsigned char *fully_masked)
{
    char buf[128];
    int lw = 3;
    for (size_t i = 0; i < rows; i++) {
        label(buf, sizeof buf, rl, i);
        if (width_of(buf) > lw)
            lw = width_of(buf);
    }
    fprintf(f, "%s\n", title);
    pad(f, "", lw + 2, 0);
    for (size_t j = 0; j < cols; j++) {
        label(buf, sizeof buf, cl, j);
        fputc(' ', f);
        pad(f, buf, 9, 1);
    }
    fputc('\n', f);
    for (size_t i = 0; i < rows; i++) {
        label(buf, sizeof buf, rl, i);
        fputs("  ", f);
        pad(f, buf, lw, 0);
        for (size_t j = 0; j < cols; j++) {
            float x = m[i * cols + j];
            if (isinf(x) && x < 0)
                fprintf(f, " %9s", "masked");
            else
                fprintf(f, " %9.4f", x);
        }
        if (fully_masked && fully_masked[i])
            fputs("   (fully masked: no key visible)", f);
        fputc('\n', f);
    }
    fputc('\n', f);
}

void cli_print_compute_text(FILE *f, const at_compute_result *r)
{
    size_t nn = r->n_q * r->n_k;
    const char *const *rl = r->tokens, *const *cl = r->key_tokens;
    if (!r->scores_only)
        fprintf(f, "n_q = %zu quer%s, n_k = %zu key%s, d_k = %zu, d_v = %zu, %zu head%s, "
                   "scale = %.6g%s\n\n", r->n_q, r->n_q == 1 ? "y" : "ies", r->n_k,
                r->n_k == 1 ? "" : "s", r->d_k, r->d_v, r->heads,
                r->heads == 1 ? "" : "s", r->scale,
                fabsf(r->scale * sqrtf((float)(r->d_k / r->heads)) - 1.0f) < 1e-6f
                    ? " (1/√d_k)" : r->scale == 1.0f ? " (no scaling)" : "");
    for (size_t h = 0; h < r->heads; h++) {
        char t[128];
        const char *hs = "";
        char hb[32];
        if (r->heads > 1) {
            snprintf(hb, sizeof hb, "head %zu: ", h + 1);
            hs = hb;
        }
        if (!r->scores_only) {
            snprintf(t, sizeof t, "%sscores QKᵀ", hs);
            print_matrix(f, t, r->raw + h * nn, r->n_q, r->n_k, rl, cl, NULL);
        }
        snprintf(t, sizeof t, r->scores_only ? "%sscores (as given, already scaled)"
                                             : "%sscaled scores QKᵀ × scale", hs);
        print_matrix(f, t, r->scaled + h * nn, r->n_q, r->n_k, rl, cl, NULL);
        snprintf(t, sizeof t, "%sweights softmax(scaled) (each row sums to 1)", hs);
        print_matrix(f, t, r->weights + h * nn, r->n_q, r->n_k, rl, cl, r->fully_masked);
    }
    if (!r->scores_only && r->d_v > 16)
        fprintf(f, "output weights × V: %zu × %zu, too wide to print (--format json has it)\n\n",
                r->n_q, r->d_v);
    else if (!r->scores_only)
        print_matrix(f, r->heads > 1 ? "output: heads concatenated, weights × V per head"
                                     : "output weights × V", r->out, r->n_q, r->d_v, rl, NULL,
                     r->fully_masked);
    if (r->raw && r->n_q * r->n_k > 1)
        fprintf(f, "variance of the raw scores q·k: %.4g\n", r->raw_variance);
    if (r->n_k > 1) {
        fputs("largest weight in each row:", f);
        for (size_t i = 0; i < r->n_q; i++) {
            float best = 0;
            for (size_t j = 0; j < r->n_k; j++)
                best = r->weights[i * r->n_k + j] > best ? r->weights[i * r->n_k + j] : best;
            fprintf(f, " %.4f", best);
        }
        fputc('\n', f);
    }
}

/* ---- json */

static void json_matrix(FILE *f, const float *m, size_t rows, size_t cols)
{
    fputc('[', f);
    for (size_t i = 0; i < rows; i++) {
        fputs(i ? ",[" : "[", f);
        for (size_t j = 0; j < cols; j++) {
            if (j)
                fputc(',', f);
            cli_print_number(f, m[i * cols + j], 1);
        }
        fputc(']', f);
    }
    fputc(']', f);
}

static void json_head(FILE *f, const at_compute_result *r, size_t h, int with_output)
{
    size_t nn = r->n_q * r->n_k;
    fputs("\"scores\":", f);
    json_matrix(f, r->scores_only ? r->scaled : r->raw + h * nn, r->n_q, r->n_k);
    fputs(",\"scaled\":", f);
    json_matrix(f, r->scaled + h * nn, r->n_q, r->n_k);
    fputs(",\"weights\":", f);
    json_matrix(f, r->weights + h * nn, r->n_q, r->n_k);
    if (with_output) {
        fputs(",\"output\":", f);
        if (r->out)
            json_matrix(f, r->out, r->n_q, r->d_v);
        else
            fputs("null", f);
    }
}

void cli_print_compute_json(FILE *f, const at_compute_result *r)
{
    fputc('{', f);
    if (r->heads == 1) {
        json_head(f, r, 0, 1);
    } else {
        fputs("\"heads\":[", f);
        for (size_t h = 0; h < r->heads; h++) {
            fputs(h ? ",{" : "{", f);
            json_head(f, r, h, 0);
            fputc('}', f);
        }
        fputs("],\"output\":", f);
        json_matrix(f, r->out, r->n_q, r->d_v);
    }
    fputs(",\"fully_masked_rows\":[", f);
    for (size_t i = 0, k = 0; i < r->n_q; i++)
        if (r->fully_masked[i])
            fprintf(f, k++ ? ",%zu" : "%zu", i + 1);
    fputs("]}\n", f);
}

/* Check the block's expect list; prints one line each; returns failures. */
static int check_expects(const at_compute *c, const at_compute_result *r, FILE *f)
{
    int failed = 0;
    for (unsigned i = 0; i < c->expect_count; i++) {
        char msg[400];
        int rc = at_expect_check(&c->expect[i], r, NULL, msg, sizeof msg);
        fprintf(f, "expect %u: %s: %s\n", i + 1, rc == 0 ? "ok" : rc > 0 ? "FAILED" : "cannot check",
                msg);
        failed += rc != 0;
    }
    return failed;
}

int cli_compute(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout);
        if (!strcmp(a, "--format") && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "json") && strcmp(v, "table")) {
                fprintf(stderr, "attn-tutor compute: --format is table or json, not '%s'\n", v);
                return 2;
            }
            json = !strcmp(v, "json");
        } else if (!strncmp(a, "--format=", 9)) {
            json = !strcmp(a + 9, "json");
        } else if ((a[0] != '-' || !strcmp(a, "-")) && !path) {
            path = a;
        } else {
            fprintf(stderr, "attn-tutor compute: unexpected argument '%s'\n", a);
            return usage(stderr);
        }
    }
    if (!path)
        return usage(stderr);
    at_diag_list d = {0};
    at_compute_file *file = NULL;
    at_compute_result r;
    at_error err;
    int rc = 2;
    if (at_compute_file_load(path, &file, &d)) {
        at_diag_print(&d, stderr);
        goto out;
    }
    const at_compute *c = at_compute_file_block(file);
    if (c->time && *c->time)
        fprintf(stderr, "attn-tutor compute: `time` is for the tutor; computing once\n");
    if (at_compute_run(c, &r, &err)) {
        if (err.line > 0)
            fprintf(stderr, "%s:%d:%d: error: %s\n", path, err.line, err.col, err.msg);
        else
            fprintf(stderr, "%s: error: %s\n", path, err.msg);
        goto out;
    }
    if (json)
        cli_print_compute_json(stdout, &r);
    else
        cli_print_compute_text(stdout, &r);
    rc = check_expects(c, &r, json ? stderr : stdout) ? 1 : 0;
    at_compute_result_free(&r);
out:
    at_compute_file_free(file);
    at_diag_list_free(&d);
    return rc;
}
