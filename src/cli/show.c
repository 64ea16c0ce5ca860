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
    return rc == 0 ? QZ_TR(lang, "holds", "成立") : rc > 0 ? QZ_TR(lang, "FAILS", "不成立")
                                                           : QZ_TR(lang, "unchecked", "未检查");
}

static void show_lab_settings(FILE *f, const at_lab *lab, qz_lang lang)
{
    char layer[32];
    if (lab->layer)
        snprintf(layer, sizeof layer, "%u", *lab->layer);
    const char *l = lab->layer ? layer : QZ_TR(lang, "(last)", "最后一层");
    const char *h = lab->head ? lab->head : QZ_TR(lang, "(the model's default)", "模型默认的头");
    int causal = lab->mask == AT_LAB_MASK_CAUSAL, off = lab->scale == AT_OFF;
    if (lang == QZ_ZH)
        fprintf(f, "  层：%s，头：%s，掩码：%s，缩放：%s%s%s\n", l, h, causal ? "因果" : "无",
                off ? "关" : "开", lab->focus ? "，焦点：" : "", lab->focus ? lab->focus : "");
    else
        fprintf(f, "  layer %s, head %s, mask %s, scaling %s%s%s\n", l, h,
                causal ? "causal" : "none", off ? "off" : "on", lab->focus ? ", focus " : "",
                lab->focus ? lab->focus : "");
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
        if (lang == QZ_ZH)
            fprintf(f, "  训练中没见过的%s：", sc.unseen_han ? "字" : "词");
        else
            fprintf(f, "  never seen in training: ");
        for (size_t k = 0; k < sc.n_unseen; k++)
            fprintf(f, "%s%s", k ? " " : "", r->tokens.items[sc.unseen[k]].text);
        fputc('\n', f);
    }
    if (cli_scope_note(m, &sc, lang, note, sizeof note))
        fprintf(f, QZ_TR(lang, "  note: %s\n", "  注意：%s\n"), note);
    at_model_info info;
    at_model_get_info(m, &info);
    for (size_t i = 0; i < sc.n && info.trained && r->head != AT_LAB_ALL_HEADS; i++)
        if (r->focus == (long)i && !at_scope_row_trained(m, &sc, r->layer, i))
            fprintf(f, QZ_TR(lang, "  the row of %s in this layer was never trained\n",
                             "  这一层里 %s 那一行从没训练过\n"), r->tokens.items[i].text);
    at_scope_free(&sc);
}

/* A step's prediction: the prompt, the options, and the engine's answer (show is the
 * instructor's preview: the answer is printed). */
static void show_predict(FILE *f, const at_predict *p, const at_compute_result *r,
                         const char *from_default, qz_lang lang)
{
    if (!p)
        return;
    fprintf(f, QZ_TR(lang, "[predict first] ", "[先预测] "));
    const char *t = p->prompt ? p->prompt : "";
    size_t n = strlen(t);
    while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
        n--;
    fprintf(f, "%.*s\n", (int)n, t);
    for (unsigned i = 0; p->kind == AT_PREDICT_CHOICE && i < p->options_count; i++)
        fprintf(f, "  %c) %s%s\n", 'a' + (int)(i % 26), p->options[i].text,
                p->options[i].correct ? QZ_TR(lang, "   (right)", "   （正确）") : "");
    at_predict_answer a;
    char msg[400];
    if (at_predict_answer_of(p, r, from_default, &a, msg, sizeof msg)) {
        fprintf(f, QZ_TR(lang, "  (cannot be answered: %s)\n", "  （无法作答：%s）\n"), msg);
        return;
    }
    if (p->kind == AT_PREDICT_NUMBER)
        fprintf(f, QZ_TR(lang, "  the engine: %.4g (close within %g)\n",
                         "  引擎的答案：%.4g（相差 %g 以内算接近）\n"), a.value,
                at_predict_tolerance(p));
    else if (p->kind == AT_PREDICT_TOKEN)
        fprintf(f, QZ_TR(lang, "  the engine: %s (%.4f)\n", "  引擎的答案：%s（%.4f）\n"),
                r->key_tokens ? r->key_tokens[a.token] : "?",
                (double)r->weights[a.row * r->n_k + a.token]);
}

static void show_lab(FILE *f, const at_lab *lab, const at_model *m, qz_lang lang)
{
    fprintf(f, QZ_TR(lang, "[lab] %s\n", "[实验] %s\n"), lab->sentence);
    show_lab_settings(f, lab, lang);
    at_lab_result r;
    at_error err;
    if (at_lab_run(lab, m, &r, &err)) {
        fprintf(f, QZ_TR(lang, "  (cannot run: %s)\n", "  （无法运行：%s）\n"), err.msg);
        at_lab_result_free(&r);
        return;
    }
    show_predict(f, lab->predict, &r.view, lab->focus, lang);
    int all = r.head == AT_LAB_ALL_HEADS;
    size_t head = all ? 0 : r.head + 1;
    if (lang == QZ_ZH)
        fprintf(f, "  %s，第 %zu 层，%s%zu\n", cli_model_kind(m, lang), r.layer + 1,
                all ? "所有头的平均 " : "头 ", head);
    else
        fprintf(f, "  %s, layer %zu, head %s%zu\n", cli_model_kind(m, lang), r.layer + 1,
                all ? "mean of all, " : "", head);
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
        fprintf(f, QZ_TR(lang, "  expect %u: %s: %s\n", "  期望 %u：%s：%s\n"), i + 1,
                verdict(rc, lang), msg);
    }
    at_lab_result_free(&r);
}

/* What a compute block too wide to print shows instead of its tables. */
static void show_compute_summary(FILE *f, const at_compute_result *r, qz_lang lang)
{
    fprintf(f, QZ_TR(lang, "n = %zu tokens, d_k = %zu, d_v = %zu (too large to print)\n",
                     "n = %zu 个词元，d_k = %zu，d_v = %zu（太大，不逐个打印）\n"), r->n_q,
            r->d_k, r->d_v);
    if (r->raw && !r->masked) {
        fprintf(f, QZ_TR(lang, "variance of the raw scores q·k: %.4g\n",
                         "原始分数 q·k 的方差：%.4g\n"), r->raw_variance);
        if (r->scale != 1.0f)
            fprintf(f, QZ_TR(lang, "variance of the scaled scores: %.4g\n",
                             "缩放后分数的方差：%.4g\n"), r->scaled_variance);
    }
    double best = 0;
    for (size_t i = 0; i < r->n_q * r->n_k; i++)
        best = r->weights[i] > best ? r->weights[i] : best;
    fprintf(f, QZ_TR(lang, "largest weight anywhere: %.4f\n", "所有权重中最大的：%.4f\n"), best);
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
            fprintf(f, QZ_TR(lang, "[compute] cannot run: %s\n", "[计算] 无法运行：%s\n"),
                    err.msg);
            return;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        r = &mine;
    }
    fprintf(f, "%s%s\n", QZ_TR(lang, "[compute]", "[计算]"),
            c->random ? QZ_TR(lang, " seeded random q, k, v", " 带种子的随机 q、k、v") : "");
    show_predict(f, c->predict, r, NULL, lang);
    if (r->n_q <= 16 && r->n_k <= 16)     /* (a wide output is summarised) */
        cli_print_compute_text(f, r);
    else
        show_compute_summary(f, r, lang);
    if (ms >= 0)
        fprintf(f, QZ_TR(lang, "computed in %.3f ms (here; the tutor times it live)\n",
                         "用时 %.3f 毫秒（在这里；导师界面里现场计时）\n"), ms);
    for (unsigned i = 0; i < c->expect_count; i++) {
        char msg[400];
        int rc = at_expect_check(&c->expect[i], r, NULL, msg, sizeof msg);
        fprintf(f, QZ_TR(lang, "expect %u: %s: %s\n", "期望 %u：%s：%s\n"), i + 1,
                verdict(rc, lang), msg);
    }
    if (r == &mine)
        at_compute_result_free(&mine);
}

static void show_softmax_answer(FILE *f, const at_question *q, const at_question_calc *c,
                                qz_lang lang)
{
    fprintf(f, QZ_TR(lang, "  worked: exp of each score, the sum %.4f, each exp / sum\n",
                     "  解法：每个分数取 exp，求和得 %.4f，每个 exp 除以这个和\n"), c->exp_sum);
    int w = 4;
    for (unsigned i = 0; i < q->tokens_count; i++)
        w = cols(q->tokens[i]) > w ? cols(q->tokens[i]) : w;
    for (unsigned i = 0; i < q->tokens_count; i++)
        fprintf(f, QZ_TR(lang, "    %s%*s  score %-7s exp %.4f  weight %.4f\n",
                         "    %s%*s  分数 %-7s exp %.4f  权重 %.4f\n"), q->tokens[i],
                w - cols(q->tokens[i]), "", q->scores[i], c->exps[i], c->all_weights[i]);
    fputs(QZ_TR(lang, "  answer:", "  答案："), f);
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
            what = QZ_TR(lang, " (output row)", "（输出这一行）");
        else if (q->kind == AT_Q_ATTENTION)
            what = QZ_TR(lang, " (weights row)", "（权重这一行）");
        fprintf(f, QZ_TR(lang, "  answer%s:", "  答案%s："), what);
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
        fprintf(f, QZ_TR(lang, "  answer: %s\n", "  答案：%s\n"), q->canonical);
    } else if (q->kind == AT_Q_TEXT) {
        fprintf(f, QZ_TR(lang, "  key concepts (%u needed):\n", "  要点（至少答出 %u 个）：\n"),
                q->min_concepts ? *q->min_concepts : q->rubric_count);
        for (unsigned i = 0; i < q->rubric_count; i++)
            fprintf(f, "    - %s\n", q->rubric[i].concept);
        fputs(QZ_TR(lang, "  reference answer:\n", "  参考答案：\n"), f);
        indent(f, q->reference, "    ");
    }
}

static const char *question_kind(at_question_kind k, qz_lang lang)
{
    static const char *zh[] = {"?", "softmax", "数值", "注意力", "选择", "公式", "简答"};
    if (lang != QZ_ZH || (unsigned)k >= sizeof zh / sizeof zh[0])
        return at_question_kind_name(k);
    return zh[k];
}

static void show_question(FILE *f, const at_question *q, const at_question_calc *c, qz_lang lang)
{
    fprintf(f, QZ_TR(lang, "[question %s, %s]\n", "[问题 %s，%s]\n"), q->id,
            question_kind(q->kind, lang));
    indent(f, q->prompt, "  ");
    for (unsigned i = 0; i < q->hints_count; i++)
        fprintf(f, QZ_TR(lang, "  hint %u: %s\n", "  提示 %u：%s\n"), i + 1, q->hints[i]);
    show_answer(f, q, c, lang);
    if (q->explanation) {
        fputs(QZ_TR(lang, "  explanation:\n", "  讲解：\n"), f);
        indent(f, q->explanation, "    ");
    }
}

static const char *step_kind(at_step_kind k, qz_lang lang)
{
    static const char *zh[] = {"无", "文字", "表格", "公式", "代码", "实验", "计算", "问题"};
    if (lang != QZ_ZH || (unsigned)k >= sizeof zh / sizeof zh[0])
        return at_step_kind_name(k);
    return zh[k];
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
        if (lang == QZ_ZH)
            fprintf(f, "\n--- 第 %u 步（共 %u 步）：%s\n", i + 1, d->steps_count, kind);
        else
            fprintf(f, "\n--- step %u of %u: %s\n", i + 1, d->steps_count, kind);
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
        if (qz_lang_from(lang) == QZ_ZH)
            printf("共 %zu 课（attn-tutor show ID 打印一课，attn-tutor lesson ID 打开它）：\n",
                   set.count);
        else
            printf("%zu lesson%s (attn-tutor show ID prints one, attn-tutor lesson ID opens it):\n",
                   set.count, set.count == 1 ? "" : "s");
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
