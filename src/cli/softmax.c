/* attn-tutor softmax [--scale X] [--format table|json] S1 S2 …
 * A softmax worked step by step: each score, (scaled), exp(score − max), the sum,
 * each weight. The weights come from the engine's at_softmax_row. */
#include "cli/cli.h"
#include "engine/attention.h"
#include "engine/text.h"
#include "quiz/lang.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor softmax [--lang zh|en] [--scale X] [--format table|json] "
               "S1 S2 …\n"
               "  Works softmax(S·X) by hand: exp of each score, the sum, each weight.\n"
               "  --scale X   multiply every score by X first (e.g. 0.125 for 1/√64)\n"
               "  --lang zh|en  the language of the table's text (JSON keys stay English)\n");
    return f == stdout ? 0 : 2;
}

/* s right-aligned in cols display columns (a Chinese heading is two columns a character). */
static void put_right(const char *s, int cols)
{
    int w = (int)at_text_width(s, strlen(s));
    printf("%*s%s", cols > w ? cols - w : 0, "", s);
}

static void print_table(qz_lang lang, const double *s, const double *e, const double *w,
                        size_t n, double scale, double max, int shifted, double shown_sum)
{
    printf(qz_ntr(lang, "softmax of %zu score%s\n\n", "softmax of %zu scores%s\n\n", n), n,
           scale != 1.0 ? qz_tr(lang, " (each multiplied by the scale first)") : "");
    printf("  %3s  ", "#");
    put_right(qz_tr(lang, "score"), 12);
    printf("  ");
    put_right(shifted ? "exp(s-max)" : "exp(s)", 12);
    printf("  ");
    put_right(qz_tr(lang, "weight"), 12);
    putchar('\n');
    for (size_t j = 0; j < n; j++)
        printf("  %3zu  %12.4f  %12.4f  %12.4f\n", j + 1, s[j] * scale,
               shifted ? e[j] : e[j] * exp(max), w[j]);
    printf(qz_tr(lang, "\n  sum of exp = %.4f\n"), shown_sum);
    printf(qz_tr(lang, "  weight_i = exp_i / sum%s\n"),
           shifted ? qz_tr(lang, "   (exp shifted by the largest score, so nothing overflows)") : "");
}

int cli_softmax(int argc, char **argv)
{
    double scale = 1.0;
    int json = 0;
    size_t n = 0;
    int only_numbers = 0;
    double *s = calloc((size_t)argc, sizeof *s);
    int rc = 2;
    if (!s)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int num = cli_parse_double(a, &s[n]);
        if (only_numbers || num == 0 || num != CLI_NUM_NOT_A_NUMBER) {
            if (num) {
                fprintf(stderr, "attn-tutor softmax: argument %d: '%s' %s\n", i, a,
                        cli_number_problem(num, 0));
                goto out;
            }
            n++;
        } else if (!strcmp(a, "--")) {
            only_numbers = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            rc = usage(stdout);
            goto out;
        } else if (!strcmp(a, "--scale") && i + 1 < argc) {
            int num = cli_parse_double(argv[++i], &scale);
            if (num) {
                fprintf(stderr, "attn-tutor softmax: --scale wants a number: '%s' %s\n", argv[i],
                        cli_number_problem(num, 0));
                goto out;
            }
        } else if (!strcmp(a, "--format") && i + 1 < argc) {
            const char *f = argv[++i];
            if (!strcmp(f, "json"))
                json = 1;
            else if (strcmp(f, "table")) {
                fprintf(stderr, "attn-tutor softmax: --format is table or json, not '%s'\n", f);
                goto out;
            }
        } else {
            fprintf(stderr, "attn-tutor softmax: argument %d: '%s' %s\n", i, a,
                    cli_number_problem(num, 0));
            goto out;
        }
    }
    if (n == 0) {
        fprintf(stderr, "attn-tutor softmax: give at least one score\n");
        usage(stderr);
        goto out;
    }
    double *w = malloc(n * sizeof *w);
    if (!w) {
        rc = 1;
        goto out;
    }
    double max = -INFINITY;
    for (size_t j = 0; j < n; j++) {
        w[j] = s[j] * scale;
        if (w[j] > max)
            max = w[j];
    }
    double *e = malloc(n * sizeof *e), sum = 0.0;
    for (size_t j = 0; e && j < n; j++) {
        e[j] = exp(w[j] - max);
        sum += e[j];
    }
    at_softmax_row_f64(w, NULL, n);
    if (!e) {
        free(w);
        rc = 1;
        goto out;
    }
    /* Shown exps are exp(x) when that is representable, else exp(x − max). */
    int shifted = max > 80.0 || max < -80.0;
    double shown_sum = shifted ? sum : sum * exp(max);
    if (json) {
        printf("{\"scores\":[");
        for (size_t j = 0; j < n; j++) {
            if (j) putchar(',');
            cli_print_number(stdout, s[j], 1);
        }
        printf("],\"scale\":");
        cli_print_number(stdout, scale, 1);
        printf(",\"max\":");
        cli_print_number(stdout, max, 1);
        printf(",\"exp_shifted_by_max\":%s,\"exp\":[", shifted ? "true" : "false");
        for (size_t j = 0; j < n; j++) {
            if (j) putchar(',');
            cli_print_number(stdout, shifted ? e[j] : e[j] * exp(max), 1);
        }
        printf("],\"sum\":");
        cli_print_number(stdout, shown_sum, 1);
        printf(",\"weights\":[");
        for (size_t j = 0; j < n; j++) {
            if (j) putchar(',');
            cli_print_number(stdout, w[j], 1);
        }
        printf("]}\n");
    } else {
        print_table(qz_lang_from(cli_g.lang ? cli_g.lang : cli_default_lang()), s, e, w, n,
                    scale, max, shifted, shown_sum);
    }
    free(e);
    free(w);
    rc = 0;
out:
    free(s);
    return rc;
}
