/* Lesson loader: structs filled from YAML, numbers computed by the engine,
 * diagnostics at the right FILE:LINE:COL, hostile input refused cleanly. */
#include "check.h"
#include "lesson/lesson.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static at_lesson *load(const char *yaml, at_diag_list *d)
{
    at_lesson *l = NULL;
    at_lesson_load_data("t.yaml", yaml, strlen(yaml), &l, d);
    return l;
}

/* The first diagnostic, as "LINE:COL: level: msg". */
static void first_diag(const at_diag_list *d, char *buf, size_t n)
{
    if (!d->count) {
        snprintf(buf, n, "(none)");
        return;
    }
    snprintf(buf, n, "%d:%d: %s: %s", d->items[0].line, d->items[0].col,
             d->items[0].level == AT_DIAG_ERROR ? "error" : "warning", d->items[0].msg);
}

static const char *q3_lesson =
    "id: self-test\n"
    "lang: en\n"
    "order: 10\n"
    "title: Self-test\n"
    "steps:\n"
    "  - text: Only questions.\n"
    "  - question:\n"
    "      id: q3\n"
    "      kind: softmax\n"
    "      prompt: Weights of 下雨 and 没?\n"
    "      tokens: [今天, 下雨, 我, 没, 带, 伞]\n"
    "      scores: [0.1, 0.3, 0.2, 0.5, 0.1, 1.2]\n"
    "      ask: [下雨, 4]\n"
    "      hints: [exp first]\n"
    "  - table:\n"
    "      header: [Role, Asks]\n"
    "      rows:\n"
    "        - [Query, What am I looking for?]\n"
    "        - [Key, What do I offer?]\n";

static void test_softmax_question(void **state)
{
    at_diag_list d = {0};
    at_lesson *l = load(q3_lesson, &d);
    char msg[600];
    first_diag(&d, msg, sizeof msg);
    assert_non_null(l);
    assert_int_equal(d.errors, 0);
    assert_string_equal(l->doc->id, "self-test");
    assert_int_equal(l->doc->lang, AT_LANG_EN);
    assert_int_equal(*l->doc->order, 10);
    assert_int_equal(l->doc->steps_count, 3);
    assert_int_equal(at_step_kind_of(&l->doc->steps[0]), AT_STEP_TEXT);
    size_t step;
    const at_question *q = at_lesson_find_question(l, "q3", &step);
    assert_non_null(q);
    assert_int_equal(step, 1);
    assert_int_equal(q->kind, AT_Q_SOFTMAX);
    assert_int_equal(q->ask_count, 2);
    const at_question_calc *c = l->calc[1].question;
    assert_non_null(c);
    assert_int_equal(c->n, 2);
    assert_int_equal(c->ask_index[0], 1);
    assert_int_equal(c->ask_index[1], 3);
    /* softmax of the six scores: exps sum to 9.7504, weights 0.1384 and 0.1691 */
    assert_true(fabs(c->exp_sum - 9.7504) < 1e-4);
    assert_true(fabs(c->expected[0] - 1.3499 / 9.7504) < 1e-4);
    assert_true(fabs(c->expected[1] - 1.6487 / 9.7504) < 1e-4);
    assert_true(fabs(c->tolerance - 0.01) < 1e-12);   /* one unit of the 2nd decimal, as the grader */
    /* the table's rows come from the libyaml pass */
    const at_table *t = l->doc->steps[2].table;
    assert_int_equal(t->rows.rows_count, 2);
    assert_string_equal(t->rows.rows[1].cells[1], "What do I offer?");
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* Case 1 of the cases file: first key padding, causal on top, Q = K = 0, V = I. */
static const char *case1 =
    "tokens: [<pad>, I, am]\n"
    "q: [[0, 0], [0, 0], [0, 0]]\n"
    "k: [[.nan, .inf], [0, 0], [0, 0]]\n"
    "v: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n"
    "mask: [[0, 0, 0], [0, 1, 0], [0, 1, 1]]\n";

static void test_compute_fully_masked(void **state)
{
    char yaml[600];
    snprintf(yaml, sizeof yaml,
             "id: m\nlang: en\ntitle: Masks\nsteps:\n  - compute:\n      %s", "");
    /* indent the block under compute: */
    for (const char *p = case1; *p;) {
        const char *e = strchr(p, '\n');
        strncat(yaml, p, (size_t)(e - p + 1));
        p = e + 1;
        if (*p)
            strcat(yaml, "      ");
    }
    at_diag_list d = {0};
    at_lesson *l = load(yaml, &d);
    char msg[600];
    first_diag(&d, msg, sizeof msg);
    if (!l)
        fail_msg("%s", msg);
    const at_compute_result *r = l->calc[0].compute;
    assert_non_null(r);
    const float want_w[9] = {0, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f};
    check_tensor(r->weights, want_w, 9, 1e-6f, "case 1 weights");
    const float want_out[9] = {0, 0, 0, 0, 1, 0, 0, 0.5f, 0.5f};
    check_tensor(r->out, want_out, 9, 1e-6f, "case 1 output");
    assert_int_equal(r->fully_masked[0], 1);
    assert_int_equal(r->fully_masked[1], 0);
    assert_int_equal(r->fully_masked[2], 0);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* The variance of the raw scores and of the scaled ones, computed from the engine's
 * scores: q·k for q = [1, 2], keys [1, 0], [0, 1], [1, 1] is 1, 2, 3 (variance 1); ÷ √2
 * halves the variance. A block with a mask says so (its variance is not shown). */
static void test_compute_variances(void **state)
{
    const char *yaml =
        "id: v\nlang: en\ntitle: V\nsteps:\n"
        "  - compute:\n      q: [[1, 2]]\n      k: [[1, 0], [0, 1], [1, 1]]\n"
        "      v: [[1], [2], [3]]\n"
        "  - compute:\n      q: [[1, 2]]\n      k: [[1, 0], [0, 1], [1, 1]]\n"
        "      v: [[1], [2], [3]]\n      scale: 1\n"
        "  - compute:\n      q: [[1, 2], [2, 1]]\n      k: [[1, 0], [0, 1]]\n"
        "      v: [[1], [2]]\n      mask: causal\n";
    at_diag_list d = {0};
    at_lesson *l = load(yaml, &d);
    char msg[600];
    first_diag(&d, msg, sizeof msg);
    if (!l)
        fail_msg("%s", msg);
    const at_compute_result *a = l->calc[0].compute, *b = l->calc[1].compute,
                            *c = l->calc[2].compute;
    assert_true(fabs(a->raw_variance - 1.0) < 1e-6);
    assert_true(fabs(a->scaled_variance - 0.5) < 1e-6);
    assert_int_equal(a->masked, 0);
    assert_true(fabs(b->scaled_variance - b->raw_variance) < 1e-6);
    assert_int_equal(c->masked, 1);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* Predictions answered by the engine: the weight of a key (and of a word over several
 * tokens), the key a query weighs most, an output entry, the raw variance, the right
 * options; and what cannot be answered, said. */
static void test_predict_answers(void **state)
{
    const char *yaml =
        "id: p\nlang: en\ntitle: P\nsteps:\n"
        "  - compute:\n      tokens: [x, y]\n      q: [[1, 2], [0, 1]]\n"
        "      k: [[1, 0], [0, 1], [1, 1]]\n      key_tokens: [小, 明, c]\n"
        "      v: [[1], [2], [3]]\n      scale: 1\n";
    at_diag_list d = {0};
    at_lesson *l = load(yaml, &d);
    char msg[400];
    first_diag(&d, msg, sizeof msg);
    if (!l)
        fail_msg("%s", msg);
    const at_compute_result *r = l->calc[0].compute;
    /* row x: scores 1, 2, 3 → weights e/(e+e²+e³) … */
    double e1 = exp(1), e2 = exp(2), e3 = exp(3), s = e1 + e2 + e3;
    at_expect_value wv = {.from = "x", .to = "明"};
    at_predict p = {.prompt = "?", .kind = AT_PREDICT_NUMBER, .weight = &wv};
    at_predict_answer a;
    assert_int_equal(at_predict_answer_of(&p, r, NULL, &a, msg, sizeof msg), 0);
    assert_true(fabs(a.value - e2 / s) < 1e-5);
    wv.to = "小明";   /* a word over two tokens: the sum of their weights */
    assert_int_equal(at_predict_answer_of(&p, r, NULL, &a, msg, sizeof msg), 0);
    assert_true(fabs(a.value - (e1 + e2) / s) < 1e-5);
    unsigned row1 = 1, col1 = 1;
    at_expect_value ov = {.row = &row1, .col = &col1};
    at_predict po = {.prompt = "?", .kind = AT_PREDICT_NUMBER, .output = &ov};
    assert_int_equal(at_predict_answer_of(&po, r, NULL, &a, msg, sizeof msg), 0);
    assert_true(fabs(a.value - (e1 * 1 + e2 * 2 + e3 * 3) / s) < 1e-4);
    at_predict pv = {.prompt = "?", .kind = AT_PREDICT_NUMBER, .variance = AT_VARIANCE_RAW};
    assert_int_equal(at_predict_answer_of(&pv, r, NULL, &a, msg, sizeof msg), 0);
    assert_true(fabs(a.value - r->raw_variance) < 1e-12);
    assert_true(fabs(at_predict_tolerance(&pv) - 1.0) < 1e-12);
    at_predict pt = {.prompt = "?", .kind = AT_PREDICT_TOKEN, .from = "y"};
    assert_int_equal(at_predict_answer_of(&pt, r, NULL, &a, msg, sizeof msg), 0);
    assert_int_equal(a.row, 1);
    assert_int_equal(a.token, 1);   /* y = [0, 1]: scores 0, 1, 1 → 明 first of the tie */
    pt.from = NULL;   /* two query rows, none named */
    assert_int_equal(at_predict_answer_of(&pt, r, NULL, &a, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "which of the 2 query rows"));
    at_option opts[] = {{"a", false, NULL}, {"b", true, NULL}, {"c", true, NULL}};
    at_predict pc = {.prompt = "?", .kind = AT_PREDICT_CHOICE, .options = opts, .options_count = 3};
    assert_int_equal(at_predict_answer_of(&pc, r, NULL, &a, msg, sizeof msg), 0);
    assert_int_equal(a.correct, 6);
    opts[1].correct = opts[2].correct = false;
    assert_int_equal(at_predict_answer_of(&pc, r, NULL, &a, msg, sizeof msg), -1);
    wv.to = "z";
    assert_int_equal(at_predict_answer_of(&p, r, NULL, &a, msg, sizeof msg), -1);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

/* Case 10: wrong shapes, each an error at its line:col, nothing leaked (ASan). */
static void expect_first(const char *yaml, const char *want)
{
    at_diag_list d = {0};
    at_lesson *l = load(yaml, &d);
    char msg[600];
    first_diag(&d, msg, sizeof msg);
    assert_null(l);
    assert_string_equal(msg, want);
    at_diag_list_free(&d);
}

static void test_case10_shapes(void **state)
{
    expect_first("id: a\nlang: en\ntitle: {en: Attention}\nsteps:\n  - text: x\n",
                 "3:8: error: `title` should be a string, not a mapping");
    expect_first("id: a\nlang: en\ntitle: A\nsteps: 5\n",
                 "4:8: error: `steps` should be a list (lines starting with '- '), not a number");
    expect_first("id: a\nlang: en\ntitle: A\nsteps: []\n",
                 "4:8: error: `steps` needs at least 1 entry");
}

static void test_hostile_input(void **state)
{
    expect_first("", "1:1: error: empty file: a lesson needs `id`, `lang`, `title` and `steps`");
    expect_first("a: &x [1, 2]\nb: *x\n",
                 "2:4: error: aliases (*name) are not allowed in lesson files: write the value out");
    char deep[400] = "a: ";
    for (int i = 0; i < 100; i++)
        strcat(deep, "[");
    for (int i = 0; i < 100; i++)
        strcat(deep, "]");
    at_diag_list d = {0};
    assert_null(load(deep, &d));
    assert_int_equal(d.errors, 1);
    assert_non_null(strstr(d.items[0].msg, "nested too deeply"));
    at_diag_list_free(&d);
    const char garbage[] = "\x01\xff\xfe\x00zz\x80";
    at_lesson *l = NULL;
    assert_int_equal(at_lesson_load_data("g", garbage, sizeof garbage, &l, &d), AT_EINVAL);
    assert_null(l);
    assert_int_equal(d.errors, 1);
    at_diag_list_free(&d);
}

static void test_parse_cell(void **state)
{
    double x;
    assert_int_equal(at_parse_cell("0.005", &x), 0);
    assert_true(x == 0.005);
    assert_int_equal(at_parse_cell(".nan", &x), 0);
    assert_true(isnan(x));
    assert_int_equal(at_parse_cell("-.inf", &x), 0);
    assert_true(isinf(x) && x < 0);
    assert_int_equal(at_parse_cell("+.Inf", &x), 0);
    assert_true(isinf(x) && x > 0);
    assert_int_equal(at_parse_cell("nan", &x), -1);
    assert_int_equal(at_parse_cell("1e400", &x), -1);
    assert_int_equal(at_parse_cell("0,5", &x), -1);
    assert_int_equal(at_parse_cell("", &x), -1);
    /* the Unicode minus of typeset text */
    assert_int_equal(at_parse_cell("\u22120.5", &x), 0);
    assert_true(x == -0.5);
    assert_int_equal(at_parse_cell("1.5e\u22122", &x), 0);
    assert_true(fabs(x - 0.015) < 1e-15);
    assert_int_equal(at_parse_cell("\u2212.inf", &x), 0);
    assert_true(isinf(x) && x < 0);
}

/* expect entries against a hand-made weights matrix (what a lab's view looks like). */
static void test_expect_check(void **state)
{
    const char *toks[] = {"小", "明", "今天", "他"};
    float w[16] = {0};
    w[3 * 4 + 0] = 0.30f;   /* 他 → 小 */
    w[3 * 4 + 1] = 0.25f;   /* 他 → 明 */
    w[3 * 4 + 2] = 0.45f;   /* 他 → 今天 */
    at_compute_result r = {.n_q = 4, .n_k = 4, .heads = 1, .weights = w,
                           .tokens = toks, .key_tokens = toks};
    char msg[400];
    at_expect e = {.top = "今天"};
    assert_int_equal(at_expect_check(&e, &r, "他", msg, sizeof msg), 0);
    e.top = "小明";       /* 小 and 明 together, but the largest single weight is 今天's */
    assert_int_equal(at_expect_check(&e, &r, "他", msg, sizeof msg), 1);
    assert_string_equal(msg, "the largest weight of query 4 goes to '今天' (0.45), not to '小明' (0.3)");
    double v = 0.55, lo = 0.5, hi = 0.5;
    at_expect_value wv = {.to = "小明", .value = &v};   /* a word's weight: the sum 0.55 */
    at_expect ew = {.weight = &wv};
    assert_int_equal(at_expect_check(&ew, &r, "他", msg, sizeof msg), 0);
    v = 0.54;                                            /* default tolerance 0.005 */
    assert_int_equal(at_expect_check(&ew, &r, "4", msg, sizeof msg), 1);
    wv.value = NULL;
    wv.at_least = &lo;
    assert_int_equal(at_expect_check(&ew, &r, "他", msg, sizeof msg), 0);
    wv.at_least = NULL;
    wv.at_most = &hi;
    assert_int_equal(at_expect_check(&ew, &r, "他", msg, sizeof msg), 1);
    wv.to = "猫";
    assert_int_equal(at_expect_check(&ew, &r, "他", msg, sizeof msg), -1);
    at_expect out = {.output = &wv};                     /* no output in a lab view */
    assert_int_equal(at_expect_check(&out, &r, "他", msg, sizeof msg), -1);
    at_expect none = {.top = "今天"};                    /* no query named, four rows */
    assert_int_equal(at_expect_check(&none, &r, NULL, msg, sizeof msg), -1);
}

/* Numbers read as in the "C" locale even when the program's LC_NUMERIC uses a decimal
 * comma (libcyaml parses floats with strtod). tests/cli/lesson_locale.sh builds de_DE
 * with localedef and runs this with LOCPATH; without that locale it is left out. */
static void test_numeric_locale(void **state)
{
    assert_non_null(setlocale(LC_ALL, "de_DE.UTF-8"));
    const char *yaml =
        "id: l\nlang: en\ntitle: L\nsteps:\n"
        "  - question:\n      id: n\n      kind: numeric\n      prompt: p\n"
        "      value: 0.25\n      tolerance: 0.005\n"
        "  - compute:\n      scores: [[0.5, 1.5]]\n      expect:\n"
        "        - weight: {row: 1, col: 2, value: 0.731, tolerance: 0.001}\n";
    at_diag_list d = {0};
    at_lesson *l = load(yaml, &d);
    char msg[600];
    first_diag(&d, msg, sizeof msg);
    setlocale(LC_ALL, "C");
    if (!l)
        fail_msg("%s", msg);
    assert_true(*l->doc->steps[0].question->value == 0.25);
    assert_true(l->calc[0].question->tolerance == 0.005);
    /* softmax([0.5, 1.5]) = [0.2689414, 0.7310586] */
    assert_true(fabsf(l->calc[1].compute->weights[1] - 0.7310586f) < 1e-6f);
    at_lesson_free(l);
    at_diag_list_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_softmax_question),
        cmocka_unit_test(test_compute_fully_masked),
        cmocka_unit_test(test_compute_variances),
        cmocka_unit_test(test_predict_answers),
        cmocka_unit_test(test_case10_shapes),
        cmocka_unit_test(test_hostile_input),
        cmocka_unit_test(test_parse_cell),
        cmocka_unit_test(test_expect_check),
        cmocka_unit_test(test_numeric_locale),   /* last: left out without de_DE */
    };
    int have_de = setlocale(LC_ALL, "de_DE.UTF-8") != NULL;
    setlocale(LC_ALL, "C");
    size_t n = sizeof tests / sizeof tests[0] - !have_de;
    return _cmocka_run_group_tests("test_lesson", tests, n, NULL, NULL);
}
