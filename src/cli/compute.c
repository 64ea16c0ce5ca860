/* attn-tutor compute [--format table|json] FILE.yaml|-
 * Attention on explicit small matrices: the same block a lesson's compute step
 * holds, loaded with libcyaml, computed by the engine (at_attention_forward). */
#include "cli/cli.h"
#include "engine/text.h"
#include "engine/visible.h"
#include "lesson/lesson.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor compute [--format table|json] FILE.yaml|-\n"
               "  FILE holds q, k, v (lists of rows), optional mask (causal, or rows of 1/0),\n"
               "  scale, heads, tokens; or scores (rows of scaled scores); .nan/.inf accepted.\n"
               "  Prints the scores QKᵀ, the scaled scores, the weights and the output.\n\n"
               CLI_GLOBAL_FLAGS_HELP);
    return f == stdout ? 0 : 2;
}

/* ---- text */

/* Display columns as printed, per grapheme cluster (engine/text.h): 👩🏿‍🔧 is 2, not 6;
 * a control or an escape sequence's ESC is the one column of its "�" (engine/visible.h). */
static int width_of(const char *s)
{
    return (int)at_visible_width(s, strlen(s));
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

/* A matrix to print: floats from the engine, or doubles (given scores). */
typedef struct cells {
    const float *f;
    const double *d;
} cells;

/* The value of cell i. A float is read as the shortest decimal that gives it back
 * (7999.99f is 7999.990234375, shown as 7999.9900, not 7999.9902: digits the
 * input never had). */
static double cell_value(cells m, size_t i)
{
    if (m.d)
        return m.d[i];
    float x = m.f[i];
    if (!isfinite(x))
        return x;
    char buf[32];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*g", p, (double)x);
        if ((float)strtod(buf, NULL) == x)
            break;
    }
    return strtod(buf, NULL);
}

static void format_cell(char *buf, size_t n, double x)
{
    if (isinf(x) && x < 0)
        snprintf(buf, n, "masked");
    else
        snprintf(buf, n, "%.4f", x);
}

/* Width of each column: its label or its widest printed cell, at least 9. */
static int *column_widths(cells m, size_t rows, size_t cols, const char *const *cl)
{
    int *w = malloc((cols ? cols : 1) * sizeof *w);
    char buf[128];
    for (size_t j = 0; w && j < cols; j++) {
        label(buf, sizeof buf, cl, j);
        w[j] = width_of(buf) > 9 ? width_of(buf) : 9;
        for (size_t i = 0; i < rows; i++) {
            format_cell(buf, sizeof buf, cell_value(m, i * cols + j));
            if (width_of(buf) > w[j])
                w[j] = width_of(buf);
        }
    }
    return w;
}

static void print_matrix(FILE *f, const char *title, cells m, size_t rows, size_t cols,
                         const char *const *rl, const char *const *cl,
                         const unsigned char *fully_masked)
{
    char buf[128];
    int lw = 3, *cw = column_widths(m, rows, cols, cl);
    if (!cw) {
        fprintf(f, "%s: out of memory\n", title);
        return;
    }
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
        pad(f, buf, cw[j], 1);
    }
    fputc('\n', f);
    for (size_t i = 0; i < rows; i++) {
        label(buf, sizeof buf, rl, i);
        fputs("  ", f);
        pad(f, buf, lw, 0);
        for (size_t j = 0; j < cols; j++) {
            format_cell(buf, sizeof buf, cell_value(m, i * cols + j));
            fputc(' ', f);
            pad(f, buf, cw[j], 1);
        }
        if (fully_masked && fully_masked[i])
            fputs("   (fully masked: no key visible)", f);
        fputc('\n', f);
    }
    fputc('\n', f);
    free(cw);
}

static cells floats(const float *f)
{
    return (cells){f, NULL};
}

void cli_print_compute_text(FILE *f, const at_compute_result *r)
{
    size_t nn = r->n_q * r->n_k;
    const char *const *rl = r->tokens, *const *cl = r->key_tokens;
    char per_head[48] = "";   /* several heads: each scales by its own width */
    if (r->heads > 1)
        snprintf(per_head, sizeof per_head, " (%zu per head)", r->d_k / r->heads);
    if (!r->scores_only)
        fprintf(f, "n_q = %zu quer%s, n_k = %zu key%s, d_k = %zu%s, d_v = %zu, %zu head%s, "
                   "scale = %.6g%s\n\n", r->n_q, r->n_q == 1 ? "y" : "ies", r->n_k,
                r->n_k == 1 ? "" : "s", r->d_k, per_head, r->d_v, r->heads,
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
            print_matrix(f, t, floats(r->raw + h * nn), r->n_q, r->n_k, rl, cl, NULL);
        }
        snprintf(t, sizeof t, r->scores_only ? "%sscores (as given, already scaled)"
                                             : "%sscaled scores QKᵀ × scale", hs);
        print_matrix(f, t, r->scores64 ? (cells){NULL, r->scores64} : floats(r->scaled + h * nn),
                     r->n_q, r->n_k, rl, cl, NULL);
        snprintf(t, sizeof t, "%sweights softmax(scaled) (each row sums to 1)", hs);
        print_matrix(f, t, r->weights64 ? (cells){NULL, r->weights64} : floats(r->weights + h * nn),
                     r->n_q, r->n_k, rl, cl, r->fully_masked);
    }
    if (!r->scores_only && r->d_v > 16)
        fprintf(f, "output weights × V: %zu × %zu, too wide to print (--format json has it)\n\n",
                r->n_q, r->d_v);
    else if (!r->scores_only)
        print_matrix(f, r->heads > 1 ? "output: heads concatenated, weights × V per head"
                                     : "output weights × V", floats(r->out), r->n_q, r->d_v, rl, NULL,
                     r->fully_masked);
    if (r->raw && r->n_q * r->n_k > 1 && !r->masked) {   /* (a mask makes it meaningless) */
        fprintf(f, "variance of the raw scores q·k: %.4g\n", r->raw_variance);
        if (r->scale != 1.0f)
            fprintf(f, "variance of the scaled scores: %.4g\n", r->scaled_variance);
    }
    if (r->n_k > 1) {
        fputs("largest weight in each row:", f);
        cells w = r->weights64 ? (cells){NULL, r->weights64} : floats(r->weights);
        for (size_t i = 0; i < r->n_q; i++) {
            double best = 0;
            for (size_t j = 0; j < r->n_k; j++)
                best = fmax(best, cell_value(w, i * r->n_k + j));
            fprintf(f, " %.4f", best);
        }
        fputc('\n', f);
    }
}

/* ---- json */

static void json_matrix(FILE *f, cells m, size_t rows, size_t cols)
{
    fputc('[', f);
    for (size_t i = 0; i < rows; i++) {
        fputs(i ? ",[" : "[", f);
        for (size_t j = 0; j < cols; j++) {
            if (j)
                fputc(',', f);
            cli_print_number(f, m.d ? m.d[i * cols + j] : m.f[i * cols + j], 1);
        }
        fputc(']', f);
    }
    fputc(']', f);
}

static void json_head(FILE *f, const at_compute_result *r, size_t h, int with_output)
{
    size_t nn = r->n_q * r->n_k;
    cells scaled = r->scores64 ? (cells){NULL, r->scores64} : floats(r->scaled + h * nn);
    fputs("\"scores\":", f);
    json_matrix(f, r->scores_only ? scaled : floats(r->raw + h * nn), r->n_q, r->n_k);
    fputs(",\"scaled\":", f);
    json_matrix(f, scaled, r->n_q, r->n_k);
    fputs(",\"weights\":", f);
    json_matrix(f, r->weights64 ? (cells){NULL, r->weights64} : floats(r->weights + h * nn),
                r->n_q, r->n_k);
    if (with_output) {
        fputs(",\"output\":", f);
        if (r->out)
            json_matrix(f, floats(r->out), r->n_q, r->d_v);
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
        json_matrix(f, floats(r->out), r->n_q, r->d_v);
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
    /* Lint's warnings on the same text (e.g. a decimal comma YAML reads as two numbers). */
    at_diag_sort(&d);
    at_diag_print(&d, stderr);
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
