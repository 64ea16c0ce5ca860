/* attn-tutor show LESSON_ID [--lang zh|en]
 * A lesson as plain text, step by step, with every number the engine computes
 * filled in: compute steps, lab steps (on the mini-model), expected answers. */
#include "cli/cli.h"
#include "engine/model.h"
#include "engine/text.h"
#include "engine/visible.h"
#include "lesson/lesson.h"
#include "quiz/lang.h"

#include <math.h>
#include <string.h>
#include <time.h>

static int usage(FILE *f)
{
    fprintf(f, "usage: attn-tutor show [LESSON_ID] [--lang zh|en] [--lessons DIR] [--model FILE]\n"
               "  Prints a lesson as plain text with every computed number filled in.\n"
               "  Without LESSON_ID: lists the lessons (id and title) in tutor order.\n\n"
               CLI_GLOBAL_FLAGS_HELP);
    return f == stdout ? 0 : 2;
}

/* Display columns as printed, per grapheme cluster (engine/text.h): 👩🏿‍🔧 is 2, not 6;
 * a control or an escape sequence's ESC is the one column of its "�" (engine/visible.h). */
static int cols(const char *s)
{
    return (int)at_visible_width(s, strlen(s));
}

static void indent(FILE *f, const char *text, const char *prefix)
{
    for (const char *p = text; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(f, "%s%.*s\n", n ? prefix : "", (int)n, p);
        p += n + (e != NULL);
    }
}

static void show_table(FILE *f, const at_table *t)
{
    size_t ncol = t->header_count;
    for (unsigned i = 0; i < t->rows.rows_count; i++)
        if (t->rows.rows[i].cells_count > ncol)
            ncol = t->rows.rows[i].cells_count;
    int w[32] = {0};
    ncol = ncol > 32 ? 32 : ncol;
    for (size_t j = 0; j < ncol; j++) {
        if (j < t->header_count && cols(t->header[j]) > w[j])
            w[j] = cols(t->header[j]);
        for (unsigned i = 0; i < t->rows.rows_count; i++)
            if (j < t->rows.rows[i].cells_count && cols(t->rows.rows[i].cells[j]) > w[j])
                w[j] = cols(t->rows.rows[i].cells[j]);
    }
    for (int r = -1; r < (int)t->rows.rows_count; r++) {
        char **cells = r < 0 ? t->header : t->rows.rows[r].cells;
        size_t n = r < 0 ? t->header_count : t->rows.rows[r].cells_count;
        if (r < 0 && !n)
            continue;
        fputs("  |", f);
        for (size_t j = 0; j < ncol; j++) {
            const char *c = j < n ? cells[j] : "";
            fprintf(f, " %s%*s |", c, w[j] - cols(c), "");
        }
        fputc('\n', f);
        if (r < 0) {
            fputs("  |", f);
            for (size_t j = 0; j < ncol; j++) {
                fputc(' ', f);
                for (int k = 0; k < w[j]; k++)
                    fputc('-', f);
                fputs(" |", f);
            }
            fputc('\n', f);
        }
    }
}

/* "holds" / "FAILS" / "unchecked" for at_expect_check's 0 / 1 / -1. */
static const char *verdict(int rc, qz_lang lang)
{
    return rc == 0 ? qz_tr(lang, "holds") : rc > 0 ? qz_tr(lang, "FAILS") : qz_tr(lang, "unchecked");
}

static void show_lab_settings(FILE *f, const at_lab *lab, qz_lang lang)
{
    char layer[32];
    if (lab->layer)
        snprintf(layer, sizeof layer, "%u", *lab->layer);
    const char *l = lab->layer ? layer : qz_tr(lang, "(last)");
    const char *h = lab->head ? lab->head : qz_tr(lang, "(the model's default)");
    int causal = lab->mask == AT_LAB_MASK_CAUSAL, off = lab->scale == AT_OFF;
    fprintf(f, qz_tr(lang, "  layer %s, head %s, mask %s, scaling %s%s%s\n"), l, h,
            causal ? qz_trc(lang, "mask", "causal") : qz_trc(lang, "mask", "none"),
            off ? qz_trc(lang, "scaling", "off") : qz_trc(lang, "scaling", "on"),
            lab->focus ? qz_tr(lang, ", focus ") : "", lab->focus ? lab->focus : "");
}

/* The model's scope on the lab's sentence: unseen words, the note, an untrained row. */
static void show_lab_scope(FILE *f, const at_model *m, const at_lab_result *r, qz_lang lang)
{
    at_scope sc;
    at_error err;
    char note[1024];
    if (at_model_scope(m, &r->tokens, &sc, &err))
        return;
    if (sc.n_unseen && !(sc.reasons & AT_SCOPE_UNTRAINED)) {
        fprintf(f, "%s", sc.unseen_han ? qz_trc(lang, "Chinese characters", "  never seen in training: ")
                                        : qz_tr(lang, "  never seen in training: "));
        for (size_t k = 0; k < sc.n_unseen; k++)
            fprintf(f, "%s%s", k ? " " : "", r->tokens.items[sc.unseen[k]].text);
        fputc('\n', f);
    }
    size_t nl, nh, at;
    double mean, min;
    if (at_model_named_head(m, &nl, &nh) && r->layer == nl && r->head == nh &&
        at_run_previous_token(&r->run, nl, nh, &mean, &min, &at))
        fprintf(f, qz_tr(lang, "  the previous-token head (trained so that every token looks at "
                               "the one before it, on any sentence): here %.2f of each row's "
                               "weight on average, lowest %.2f (%s)\n"),
                mean, min, r->tokens.items[at].text);
    else if (cli_scope_note(m, &sc, lang, note, sizeof note))
        fprintf(f, qz_tr(lang, "  note: %s\n"), note);
    at_model_info info;
    at_model_get_info(m, &info);
    for (size_t i = 0; i < sc.n && info.trained && r->head != AT_LAB_ALL_HEADS; i++)
        if (r->focus == (long)i && !at_scope_row_trained(m, &sc, r->layer, i))
            fprintf(f, qz_tr(lang, "  the row of %s in this layer was never trained\n"), r->tokens.items[i].text);
    at_scope_free(&sc);
}

/* A step's prediction: the prompt, the options, and the engine's answer (show is the
 * instructor's preview: the answer is printed). */
static void show_predict(FILE *f, const at_predict *p, const at_compute_result *r,
                         const char *from_default, qz_lang lang)
{
    if (!p)
        return;
    fprintf(f, qz_tr(lang, "[predict first] "));
    const char *t = p->prompt ? p->prompt : "";
    size_t n = strlen(t);
    while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
        n--;
    fprintf(f, "%.*s\n", (int)n, t);
    for (unsigned i = 0; p->kind == AT_PREDICT_CHOICE && i < p->options_count; i++)
        fprintf(f, "  %c) %s%s\n", 'a' + (int)(i % 26), p->options[i].text,
                p->options[i].correct ? qz_tr(lang, "   (right)") : "");
    at_predict_answer a;
    char msg[400];
    if (at_predict_answer_of(p, r, from_default, &a, msg, sizeof msg)) {
        fprintf(f, qz_tr(lang, "  (cannot be answered: %s)\n"), msg);
        return;
    }
    if (p->kind == AT_PREDICT_NUMBER)
        fprintf(f, qz_tr(lang, "  the engine: %.4g (close within %g)\n"), a.value,
                at_predict_tolerance(p));
    else if (p->kind == AT_PREDICT_TOKEN)
        fprintf(f, qz_tr(lang, "  the engine: %s (%.4f)\n"),
                r->key_tokens ? r->key_tokens[a.token] : "?",
                (double)r->weights[a.row * r->n_k + a.token]);
}

static void show_lab(FILE *f, const at_lab *lab, const at_model *m, qz_lang lang)
{
    fprintf(f, qz_tr(lang, "[lab] %s\n"), lab->sentence);
    show_lab_settings(f, lab, lang);
    at_lab_result r;
    at_error err;
    if (at_lab_run(lab, m, &r, &err)) {
        fprintf(f, qz_tr(lang, "  (cannot run: %s)\n"), err.msg);
        at_lab_result_free(&r);
        return;
    }
    show_predict(f, lab->predict, &r.view, lab->focus, lang);
    int all = r.head == AT_LAB_ALL_HEADS;
    size_t head = all ? 0 : r.head + 1;
    fprintf(f, all ? qz_tr(lang, "  %s, layer %zu, head mean of all, %zu\n")
                   : qz_tr(lang, "  %s, layer %zu, head %zu\n"), cli_model_kind(m, lang), r.layer + 1, head);
    for (size_t i = 0; i < r.view.n_q; i++) {
        if (r.focus >= 0 && (long)i != r.focus)
            continue;
        fprintf(f, "  %s →", r.view.tokens[i]);
        for (size_t j = 0; j < r.view.n_k; j++)
            fprintf(f, " %s %.3f", r.view.key_tokens[j], r.view.weights[i * r.view.n_k + j]);
        fputc('\n', f);
    }
    show_lab_scope(f, m, &r, lang);
    for (unsigned i = 0; i < lab->expect_count; i++) {
        char msg[400];
        int rc = at_expect_check(&lab->expect[i], &r.view, lab->focus, msg, sizeof msg);
        fprintf(f, qz_tr(lang, "  expect %u: %s: %s\n"), i + 1,
                verdict(rc, lang), msg);
    }
    at_lab_result_free(&r);
}

/* What a compute block too wide to print shows instead of its tables. */
static void show_compute_summary(FILE *f, const at_compute_result *r, qz_lang lang)
{
    fprintf(f, qz_tr(lang, "n = %zu tokens, d_k = %zu, d_v = %zu (too large to print)\n"), r->n_q,
            r->d_k, r->d_v);
    if (r->raw && !r->masked) {
        fprintf(f, qz_tr(lang, "variance of the raw scores q·k: %.4g\n"), r->raw_variance);
        if (r->scale != 1.0f)
            fprintf(f, qz_tr(lang, "variance of the scaled scores: %.4g\n"), r->scaled_variance);
    }
    double best = 0;
    for (size_t i = 0; i < r->n_q * r->n_k; i++)
        best = r->weights[i] > best ? r->weights[i] : best;
    fprintf(f, qz_tr(lang, "largest weight anywhere: %.4f\n"), best);
}

static void show_compute(FILE *f, const at_compute *c, const at_compute_result *given,
                         qz_lang lang)
{
    at_compute_result mine;
    at_error err;
    const at_compute_result *r = given;
    double ms = -1;
    if (!r) {                     /* a `time: true` step: run and time it here */
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (at_compute_run(c, &mine, &err)) {
            fprintf(f, qz_tr(lang, "[compute] cannot run: %s\n"),
                    err.msg);
            return;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        r = &mine;
    }
    fprintf(f, "%s%s\n", qz_tr(lang, "[compute]"),
            c->random ? qz_tr(lang, " seeded random q, k, v") : "");
    show_predict(f, c->predict, r, NULL, lang);
    if (r->n_q <= 16 && r->n_k <= 16)     /* (a wide output is summarised) */
        cli_print_compute_text(f, r);
    else
        show_compute_summary(f, r, lang);
    if (ms >= 0)
        fprintf(f, qz_tr(lang, "computed in %.3f ms (here; the tutor times it live)\n"), ms);
    for (unsigned i = 0; i < c->expect_count; i++) {
        char msg[400];
        int rc = at_expect_check(&c->expect[i], r, NULL, msg, sizeof msg);
        fprintf(f, qz_tr(lang, "expect %u: %s: %s\n"), i + 1,
                verdict(rc, lang), msg);
    }
    if (r == &mine)
        at_compute_result_free(&mine);
}

static void show_softmax_answer(FILE *f, const at_question *q, const at_question_calc *c,
                                qz_lang lang)
{
    fprintf(f, qz_tr(lang, "  worked: exp of each score, the sum %.4f, each exp / sum\n"), c->exp_sum);
    int w = 4;
    for (unsigned i = 0; i < q->tokens_count; i++)
        w = cols(q->tokens[i]) > w ? cols(q->tokens[i]) : w;
    for (unsigned i = 0; i < q->tokens_count; i++)
        fprintf(f, qz_tr(lang, "    %s%*s  score %-7s exp %.4f  weight %.4f\n"), q->tokens[i],
                w - cols(q->tokens[i]), "", q->scores[i], c->exps[i], c->all_weights[i]);
    fputs(qz_tr(lang, "  answer:"), f);
    for (size_t i = 0; i < c->n; i++)
        fprintf(f, " %s %.*f", q->tokens[c->ask_index[i]], c->decimals, c->expected[i]);
    fprintf(f, "  (± %.3g)\n", c->tolerance);
}

static void show_answer(FILE *f, const at_question *q, const at_question_calc *c, qz_lang lang)
{
    if (q->kind == AT_Q_SOFTMAX && c) {
        show_softmax_answer(f, q, c, lang);
    } else if ((q->kind == AT_Q_ATTENTION || q->kind == AT_Q_NUMERIC) && c) {
        const char *what = "";
        if (q->kind == AT_Q_ATTENTION)
            cli_print_compute_text(f, &c->attn);
        if (q->kind == AT_Q_ATTENTION && strcmp(q->ask[0], "weights"))
            what = qz_tr(lang, " (output row)");
        else if (q->kind == AT_Q_ATTENTION)
            what = qz_tr(lang, " (weights row)");
        fprintf(f, qz_tr(lang, "  answer%s:"), what);
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, " %.*f", c->decimals, c->expected[i]);
        fprintf(f, "  (± %.3g)\n", c->tolerance);
    } else if (q->kind == AT_Q_CHOICE) {
        for (unsigned i = 0; i < q->options_count; i++) {
            fprintf(f, "  [%c] %s\n", q->options[i].correct ? 'x' : ' ', q->options[i].text);
            if (q->options[i].feedback)
                indent(f, q->options[i].feedback, "        ");
        }
    } else if (q->kind == AT_Q_FORMULA) {
        fprintf(f, qz_tr(lang, "  answer: %s\n"), q->canonical);
    } else if (q->kind == AT_Q_CODE) {
        fputs(qz_tr(lang, "  answer:"), f);
        fputc('\n', f);
        indent(f, q->canonical, "    ");
        for (unsigned i = 0; i < q->mistakes_count; i++) {
            fprintf(f, qz_tr(lang, "  mistake %s:\n"), q->mistakes[i].name);
            for (unsigned k = 0; k < q->mistakes[i].answers_count; k++)
                indent(f, q->mistakes[i].answers[k], "    ");
            indent(f, q->mistakes[i].feedback, "      ");
        }
    } else if (q->kind == AT_Q_TEXT) {
        fprintf(f, qz_tr(lang, "  key concepts (%u needed):\n"),
                q->min_concepts ? *q->min_concepts : q->rubric_count);
        for (unsigned i = 0; i < q->rubric_count; i++)
            fprintf(f, "    - %s\n", q->rubric[i].concept);
        fputs(qz_tr(lang, "  reference answer:\n"), f);
        indent(f, q->reference, "    ");
    }
}

/* The kind of a question as the lessons name it (at_question_kind_name), in lang. */
static const char *question_kind(at_question_kind k, qz_lang lang)
{
    static const char *const names[] = {"?", QZ_NC_("question kind", "softmax"),
                                        QZ_NC_("question kind", "numeric"),
                                        QZ_NC_("question kind", "attention"),
                                        QZ_NC_("question kind", "choice"),
                                        QZ_NC_("question kind", "formula"),
                                        QZ_NC_("question kind", "text"),
                                        QZ_NC_("question kind", "code")};
    if (k == 0 || (unsigned)k >= sizeof names / sizeof names[0])
        return at_question_kind_name(k);
    return qz_trc(lang, "question kind", names[k]);
}

static void show_question(FILE *f, const at_question *q, const at_question_calc *c, qz_lang lang)
{
    fprintf(f, qz_tr(lang, "[question %s, %s]\n"), q->id,
            question_kind(q->kind, lang));
    indent(f, q->prompt, "  ");
    for (unsigned i = 0; i < q->hints_count; i++)
        fprintf(f, qz_tr(lang, "  hint %u: %s\n"), i + 1, q->hints[i]);
    show_answer(f, q, c, lang);
    if (q->explanation) {
        fputs(qz_tr(lang, "  explanation:\n"), f);
        indent(f, q->explanation, "    ");
    }
}

/* The kind of a step as the lessons name it (at_step_kind_name), in lang. */
static const char *step_kind(at_step_kind k, qz_lang lang)
{
    static const char *const names[] = {QZ_NC_("step kind", "none"), QZ_NC_("step kind", "text"),
                                        QZ_NC_("step kind", "table"), QZ_NC_("step kind", "formula"),
                                        QZ_NC_("step kind", "code"), QZ_NC_("step kind", "lab"),
                                        QZ_NC_("step kind", "compute"),
                                        QZ_NC_("step kind", "question")};
    if ((unsigned)k >= sizeof names / sizeof names[0])
        return at_step_kind_name(k);
    return qz_trc(lang, "step kind", names[k]);
}

static void show_step(FILE *f, const at_lesson *l, unsigned i, const at_model *m, qz_lang lang)
{
    const at_step *s = &l->doc->steps[i];
    if (s->text)
        indent(f, s->text, "");
    else if (s->table)
        show_table(f, s->table);
    else if (s->formula)
        fprintf(f, "    %s\n", s->formula);
    else if (s->code)
        fprintf(f, "```%s\n%s```\n", s->code->lang ? s->code->lang : "", s->code->source);
    else if (s->lab)
        show_lab(f, s->lab, m, lang);
    else if (s->compute)
        show_compute(f, s->compute, l->calc[i].compute, lang);
    else if (s->question)
        show_question(f, s->question, l->calc[i].question, lang);
}

static void show_lesson(FILE *f, const at_lesson *l, const at_model *m, qz_lang lang)
{
    const at_lesson_doc *d = l->doc;
    fprintf(f, "%s\n", d->title);
    for (int i = cols(d->title); i > 0; i--)
        fputc('=', f);
    fprintf(f, "\n(%s, %s)\n", d->id, d->lang == AT_LANG_ZH ? "zh" : "en");
    if (d->summary)
        fprintf(f, "%s\n", d->summary);
    for (unsigned i = 0; i < d->steps_count; i++) {
        const char *kind = step_kind(at_step_kind_of(&d->steps[i]), lang);
        fprintf(f, qz_tr(lang, "\n--- step %u of %u: %s\n"), i + 1, d->steps_count, kind);
        show_step(f, l, i, m, lang);
    }
}

static int open_model(at_model **m)
{
    at_error err;
    const char *path = cli_g.model_path ? cli_g.model_path
                                        : cli_data_path("models/mini.safetensors");
    if (path && at_model_load(path, m, &err) == AT_OK)
        return 0;
    if (path)
        fprintf(stderr, "attn-tutor show: %s\n", err.msg);
    return at_model_demo(1, m, &err) ? -1 : 0;
}

/* The lessons of set, "  ID  TITLE" a line, ids padded to one column. */
static void list_lessons(FILE *f, const at_lesson_set *set)
{
    int w = 0;
    for (size_t i = 0; i < set->count; i++)
        w = cols(set->lessons[i]->doc->id) > w ? cols(set->lessons[i]->doc->id) : w;
    for (size_t i = 0; i < set->count; i++) {
        const at_lesson_doc *d = set->lessons[i]->doc;
        fprintf(f, "  %s%*s  %s\n", d->id, w - cols(d->id), "", d->title);
    }
}

int cli_show(int argc, char **argv)
{
    const char *id = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return usage(stdout);
        if (argv[i][0] == '-' || id) {
            fprintf(stderr, "attn-tutor show: unexpected argument '%s'\n", argv[i]);
            return usage(stderr);
        }
        id = argv[i];
    }
    const char *lang = cli_g.lang ? cli_g.lang : cli_default_lang();
    int refused = cli_refuse_special_files("show", lang, CLI_FILES_MODEL | CLI_FILES_LESSONS);
    if (refused)
        return refused;
    at_lesson_set set;
    at_diag_list d = {0};
    cli_load_lessons(lang, NULL, &set, &d);
    const at_lesson *l = id ? at_lesson_set_find(&set, id) : NULL;
    at_model *m = NULL;
    int rc = 0;
    if (!id && set.count) {
        printf(qz_ntr(qz_lang_from(lang), "%zu lesson (attn-tutor show ID prints one, attn-tutor lesson ID opens it):\n",
                      "%zu lessons (attn-tutor show ID prints one, attn-tutor lesson ID opens it):\n", set.count),
               set.count);
        list_lessons(stdout, &set);
    } else if (!id) {
        at_diag_print(&d, stderr);
        fprintf(stderr, "attn-tutor show: no lessons found; looked in:\n");
        cli_print_lesson_dirs(stderr, lang);
        rc = 2;
    } else if (!l) {
        at_diag_print(&d, stderr);
        fprintf(stderr, "attn-tutor show: no lesson '%s' (ids:", id);
        for (size_t i = 0; i < set.count; i++)
            fprintf(stderr, " %s", set.lessons[i]->doc->id);
        fprintf(stderr, "%s); looked in:\n", set.count ? "" : " none");
        cli_print_lesson_dirs(stderr, lang);
        rc = 2;
    } else if (open_model(&m)) {
        fprintf(stderr, "attn-tutor show: cannot make the model\n");
        rc = 1;
    } else {
        show_lesson(stdout, l, m, qz_lang_from(lang));
    }
    at_model_free(m);
    at_lesson_set_free(&set);
    at_diag_list_free(&d);
    return rc;
}
