/* The shipped model (models/mini.safetensors, made by `make model`): the lesson
 * sentences, unknown words, and the held-out figures the file carries against a fresh
 * evaluation on the corpus. */
#include "check.h"
#include "engine/train.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL "models/mini.safetensors"
#define CORPUS "models/corpus.yaml"

static at_model *load(void)
{
    at_model *m;
    at_error err;
    if (at_model_load(MODEL, &m, &err))
        fail_msg("%s", err.msg);
    return m;
}

/* Weight of the coreference head from the first token `from` to the tokens `to`
 * (a list of token texts, all counted). */
static double coref_weight(const at_model *m, const char *s, const char *from,
                           const char *const *to, size_t n_to)
{
    at_tokens t;
    at_model_run r;
    at_model_info info;
    assert_int_equal(at_tokenize(s, strlen(s), &t, NULL), AT_OK);
    assert_int_equal(at_model_attend(m, &t, NULL, &r, NULL), AT_OK);
    at_model_get_info(m, &info);
    size_t p = t.n;
    for (size_t i = 0; i < t.n && p == t.n; i++)
        if (!strcmp(t.items[i].text, from))
            p = i;
    assert_true(p < t.n);
    const float *row = r.weights[info.coref_layer] + (info.coref_head * r.n + p) * r.n;
    double w = 0.0;
    for (size_t j = 0; j < t.n; j++)
        for (size_t k = 0; k < n_to; k++)
            if (!strcmp(t.items[j].text, to[k]))
                w += row[j];
    printf("# %s  %s → %s…: %.4f\n", s, from, to[0], w);
    at_model_run_free(&r);
    at_tokens_free(&t);
    return w;
}

static void test_lesson_sentences(void **state)
{
    at_model *m = load();
    at_model_info info;
    at_model_get_info(m, &info);
    assert_int_equal(info.trained, 1);
    assert_string_equal(at_model_kind(m), "trained");
    const char *animal[] = {"animal"}, *road[] = {"road"};
    const char *tired = "The animal didn't cross the road because it was too tired.";
    const char *wide = "The animal didn't cross the road because it was too wide.";
    assert_true(coref_weight(m, tired, "it", animal, 1) >= 0.5);
    assert_true(coref_weight(m, tired, "it", road, 1) < coref_weight(m, tired, "it", animal, 1));
    assert_true(coref_weight(m, wide, "it", road, 1) >= 0.5);
    assert_true(coref_weight(m, wide, "it", animal, 1) < coref_weight(m, wide, "it", road, 1));
    const char *xiaoming[] = {"小", "明"}, *dongwu[] = {"动", "物"}, *malu[] = {"马", "路"};
    assert_true(coref_weight(m, "小明今天没来学校，因为他生病了", "他", xiaoming, 2) >= 0.5);
    /* Written with spaces between words, 小明 is one token (the lesson's lab sentence). */
    const char *xiaoming_word[] = {"小明"};
    assert_true(coref_weight(m, "小明 今天 没 来 学校 ， 因为 他 生病 了", "他", xiaoming_word, 1)
                >= 0.5);
    assert_true(coref_weight(m, "动物没有过马路，因为它太累了", "它", dongwu, 2) >= 0.5);
    assert_true(coref_weight(m, "动物没有过马路，因为它太宽了", "它", malu, 2) >= 0.5);
    at_model_free(m);
}

/* The trainer's head survey travels in the file: every head is measured, the
 * coreference head puts the antecedent above the other noun in most sentences. */
static void test_head_profiles(void **state)
{
    at_model *m = load(), *demo;
    at_model_info info;
    at_model_get_info(m, &info);
    at_head_profile p;
    for (size_t l = 0; l < info.n_layers; l++)
        for (size_t h = 0; h < info.n_heads[l]; h++) {
            assert_int_equal(at_model_head_profile(m, l, h, &p), AT_OK);
            assert_int_equal(p.measured, 1);
            assert_true(p.pronoun_to_antecedent >= 0 && p.pronoun_to_antecedent <= 1);
        }
    assert_int_equal(at_model_head_profile(m, info.coref_layer, info.coref_head, &p), AT_OK);
    printf("# coreference head: antecedent %.3f, other noun %.3f, above other %.3f\n",
           p.pronoun_to_antecedent, p.pronoun_to_other_noun, p.antecedent_above_other);
    assert_string_equal(p.role, "coreference");
    /* the named head: layer 1 head 1 looks at the token before, on every row */
    size_t nl, nh;
    assert_int_equal(at_model_named_head(m, &nl, &nh), 1);
    assert_int_equal(nl, 0);
    assert_int_equal(nh, 0);
    at_head_profile prev;
    assert_int_equal(at_model_head_profile(m, nl, nh, &prev), AT_OK);
    assert_string_equal(prev.role, "previous token");
    printf("# named head: %.3f of each row's weight on the token before\n", prev.to_previous);
    assert_true(prev.to_previous >= 0.9);
    assert_true(p.antecedent_above_other >= 0.9);
    assert_true(p.pronoun_to_antecedent > p.pronoun_to_other_noun);
    assert_int_equal(at_model_head_profile(m, info.n_layers, 0, &p), AT_EINVAL);
    assert_int_equal(at_model_demo(1, &demo, NULL), AT_OK);
    assert_int_equal(at_model_head_profile(demo, 0, 0, &p), AT_OK);
    assert_int_equal(p.measured, 0);
    assert_int_equal(at_model_named_head(demo, &nl, &nh), 0);
    at_model_free(demo);
    at_model_free(m);
}

static void test_file_size(void **state)
{
    FILE *f = fopen(MODEL, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    fclose(f);
    printf("# %s: %ld bytes\n", MODEL, size);
    assert_true(size > 0 && size <= 4L * 1024 * 1024);
}

static void test_unknown_words_marked(void **state)
{
    at_model *m = load();
    const char *s = "The elephant didn't cross the canal because it was too tired.";
    at_tokens t;
    at_model_run r;
    assert_int_equal(at_tokenize(s, strlen(s), &t, NULL), AT_OK);
    assert_int_equal(at_model_attend(m, &t, NULL, &r, NULL), AT_OK);
    for (size_t i = 0; i < t.n; i++) {
        int expect = !strcmp(t.items[i].text, "elephant") || !strcmp(t.items[i].text, "canal");
        if (r.unknown[i] != expect)
            fail_msg("token '%s': unknown = %d", t.items[i].text, r.unknown[i]);
    }
    assert_true(at_model_knows(m, "Animal"));   /* case-insensitive */
    assert_false(at_model_knows(m, "elephant"));
    at_model_run_free(&r);
    at_tokens_free(&t);
    at_model_free(m);
}

/* The file records its corpus as `make model` generated it from models/corpus.yaml. */
static void test_corpus_recorded(void **state)
{
    at_model *m = load();
    at_corpus c;
    assert_int_equal(at_corpus_load(CORPUS, &c, NULL), AT_OK);
    const at_model_frame *f;
    size_t n = at_model_frames(m, &f), train = 0;
    assert_int_equal(n, c.n_frames);
    for (size_t i = 0; i < c.n; i++)
        train += c.ex[i].split == AT_SPLIT_TRAIN && c.ex[i].kind == AT_EX_PRONOUN;
    assert_int_equal(at_model_train_sentences(m), train);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(f[i].id, c.frames[i].id);
        assert_string_equal(f[i].pronoun, c.frames[i].pronoun);
        assert_int_equal(f[i].held_out, c.frames[i].held_out_frame);
        assert_int_equal(f[i].sentences, c.frames[i].n_train);
        if (!f[i].held_out)   /* the example is one of its training sentences */
            assert_string_equal(f[i].example, c.ex[c.frames[i].example].text);
    }
    const char *p[32];
    assert_int_equal(at_model_pronouns(m, p, 32), c.n_pronouns);
    for (size_t i = 0; i < c.n_pronouns; i++)
        assert_string_equal(p[i], c.pronouns[i]);
    /* the pronouns the issue asks for, both languages */
    const char *want[] = {"it", "he", "she", "they", "him", "her", "them", "his", "its",
                          "它", "他", "她", "他们", "她们", "它们"};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        int found = 0;
        for (size_t i = 0; i < c.n_pronouns; i++)
            found |= !strcmp(p[i], want[k]);
        if (!found)
            fail_msg("the model was not trained at '%s'", want[k]);
        assert_true(at_model_knows(m, want[k]));
    }
    at_corpus_free(&c);
    at_model_free(m);
}

static void scope_of(const at_model *m, const char *s, at_scope *sc, at_tokens *t)
{
    assert_int_equal(at_tokenize(s, strlen(s), t, NULL), AT_OK);
    assert_int_equal(at_model_scope(m, t, sc, NULL), AT_OK);
}

static void test_scope(void **state)
{
    at_model *m = load(), *demo;
    at_scope sc;
    at_tokens t;
    scope_of(m, "The animal didn't cross the road because it was too tired.", &sc, &t);
    assert_int_equal(sc.reasons, 0);
    assert_int_equal(sc.n_unseen, 0);
    assert_int_equal(sc.n_trained_rows, 1);
    assert_true(sc.trained_row[7]);   /* it */
    assert_int_equal(at_scope_row_trained(m, &sc, 1, 0), 0);   /* last layer, The */
    assert_int_equal(at_scope_row_trained(m, &sc, 1, 7), 1);
    assert_int_equal(at_scope_row_trained(m, &sc, 0, 0), 1);   /* layer 1: every row */
    at_scope_free(&sc);
    at_tokens_free(&t);
    scope_of(m, "zq ZQ zq xv", &sc, &t);   /* distinct, case-insensitive, first occurrences */
    assert_int_equal(sc.unseen_tokens, 4);
    assert_int_equal(sc.n_unseen, 2);
    assert_int_equal(sc.unseen[0], 0);
    assert_int_equal(sc.unseen[1], 3);
    assert_int_equal(sc.unseen_han, 0);
    assert_int_equal(sc.reasons, AT_SCOPE_NO_PRONOUN | AT_SCOPE_UNSEEN);
    at_scope_free(&sc);
    at_tokens_free(&t);
    /* 3 of 12 tokens unseen is a quarter, not more: no note for that */
    scope_of(m, "The elk didn't cross the bog because it was too numb.", &sc, &t);
    assert_int_equal(sc.unseen_tokens, 3);
    assert_int_equal(sc.reasons, 0);
    at_scope_free(&sc);
    at_tokens_free(&t);
    /* only 垫 is not in the training sentences: 1 of 13 tokens, no note */
    scope_of(m, "猫坐在垫子上，因为它很累。", &sc, &t);
    assert_int_equal(sc.n_unseen, 1);
    assert_string_equal(t.items[sc.unseen[0]].text, "垫");
    assert_int_equal(sc.unseen_han, 1);
    assert_int_equal(sc.reasons, 0);
    at_scope_free(&sc);
    at_tokens_free(&t);
    scope_of(m, "企鹅在冰面上滑倒了，因为它跑得太快。", &sc, &t);
    assert_true(sc.unseen_tokens * 4 > sc.n);
    assert_int_equal(sc.unseen_han, 1);
    assert_int_equal(sc.reasons, AT_SCOPE_UNSEEN);
    at_scope_free(&sc);
    at_tokens_free(&t);
    assert_int_equal(at_model_demo(1, &demo, NULL), AT_OK);
    scope_of(demo, "The animal didn't cross the road because it was too tired.", &sc, &t);
    assert_int_equal(sc.reasons, AT_SCOPE_UNTRAINED);
    assert_int_equal(sc.n_trained_rows, 0);
    assert_int_equal(at_scope_row_trained(demo, &sc, 0, 0), 0);
    assert_int_equal(at_model_frames(demo, &(const at_model_frame *){NULL}), 0);
    at_scope_free(&sc);
    at_tokens_free(&t);
    at_model_free(demo);
    at_model_free(m);
}

/* One figure of an evaluation array: the entry whose key fields (split, lang, decided,
 * set) are those of `like`. */
static const cJSON *entry_like(const cJSON *arr, const cJSON *like)
{
    static const char *const keys[] = {"split", "lang", "decided", "set"};
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        int same = 1;
        for (size_t k = 0; k < 4; k++) {
            const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, keys[k]);
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(like, keys[k]);
            same &= (!a && !b) || (a && b && !strcmp(a->valuestring, b->valuestring));
        }
        if (same)
            return e;
    }
    return NULL;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(x))
        fail_msg("evaluation: no number '%s'", key);
    return x->valuedouble;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(x) ? x->valuestring : "";
}

/* Every held-out figure the file stores equals the fresh one: counts of sentences
 * exactly, counts of right answers within max(2, 0.5%) and mean weights within 0.005
 * (another OpenBLAS core may round a last bit differently). */
static void compare(const char *what, const cJSON *stored, const cJSON *fresh,
                    const char *const *counts, const char *const *rights)
{
    const cJSON *s;
    size_t n = 0;
    cJSON_ArrayForEach(s, stored) {
        if (!strcmp(str(s, "split"), "train") || !strcmp(str(s, "set"), "training sentences"))
            continue;   /* the fresh run skips the training split */
        const cJSON *f = entry_like(fresh, s);
        if (!f)
            fail_msg("%s: the file has %s %s %s%s, a fresh evaluation has not", what,
                     str(s, "split"), str(s, "lang"), str(s, "decided"), str(s, "set"));
        for (size_t k = 0; counts[k]; k++)
            assert_int_equal((long)num(s, counts[k]), (long)num(f, counts[k]));
        double total = num(s, counts[0]);
        for (size_t k = 0; rights[k]; k++) {
            double a = num(s, rights[k]), b = num(f, rights[k]), tol = 0.005 * total;
            printf("# %s %s %s %s%s: %s stored %.0f, fresh %.0f of %.0f\n", what,
                   str(s, "split"), str(s, "lang"), str(s, "decided"), str(s, "set"),
                   rights[k], a, b, total);
            assert_true(fabs(a - b) <= (tol > 2 ? tol : 2));
        }
        if (cJSON_GetObjectItemCaseSensitive(s, "mean_weight"))
            assert_true(fabs(num(s, "mean_weight") - num(f, "mean_weight")) <= 0.005);
        n++;
    }
    assert_true(n > 0);
}

/* The targets, on one evaluation: agreement sentences of held-out noun pairs (made of
 * the model's vocabulary) and of held-out frames, each ≥ 90% right in each language;
 * twin pairs of held-out frames ≥ 80% both right; the named head ≥ 0.7 of each row's
 * weight on the token before it, on average, on every held-out set. */
static void check_targets(const cJSON *j)
{
    static const char *const splits[2] = {"held_out_combinations", "held_out_frames"};
    const cJSON *g;
    for (int zh = 0; zh < 2; zh++) {
        const char *lang = zh ? "zh" : "en";
        for (int k = 0; k < 2; k++) {
            double n = 0, ok = 0;
            cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "groups"))
                if (!strcmp(str(g, "lang"), lang) && !strcmp(str(g, "decided"), "agreement") &&
                    !strcmp(str(g, "split"), splits[k])) {
                    n += num(g, "n");
                    ok += num(g, "right");
                }
            printf("# %s: agreement, %s: %.0f/%.0f right\n", lang, splits[k], ok, n);
            assert_true(n >= 500 && ok >= 0.9 * n);
        }
        double pairs = 0, both = 0;
        cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "twins"))
            if (!strcmp(str(g, "lang"), lang) && !strcmp(str(g, "split"), "held_out_frames")) {
                pairs += num(g, "pairs");
                both += num(g, "both_right");
            }
        printf("# %s: twin pairs of held-out frames %.0f/%.0f both right\n", lang, both, pairs);
        assert_true(pairs >= 200 && both >= 0.8 * pairs);
    }
    size_t sets = 0;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "previous_token")) {
        if (!strcmp(str(g, "set"), "training sentences"))
            continue;
        printf("# named head, %s (%s): mean %.3f, %.0f of %.0f rows at least 0.7\n",
               str(g, "set"), str(g, "lang"), num(g, "mean_weight"), num(g, "rows_ok"),
               num(g, "rows"));
        assert_true(num(g, "mean_weight") >= 0.7);
        sets++;
    }
    assert_int_equal(sets, 6);   /* held-out sentences, random sequences, probes × 2 */
}

static void test_evaluation_recorded(void **state)
{
    at_model *m = load();
    at_corpus c;
    at_error err;
    if (at_corpus_load(CORPUS, &c, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(at_corpus_featurize(&c, m, NULL), AT_OK);
    at_ex_result *res = calloc(c.n, sizeof *res);
    assert_non_null(res);
    assert_int_equal(at_evaluate_run(m, &c, 0, res, &err), AT_OK);
    char *json = at_evaluation_json(m, &c, res);
    assert_non_null(json);
    const char *stored_text = at_model_evaluation(m);
    assert_non_null(stored_text);
    cJSON *fresh = cJSON_Parse(json), *stored = cJSON_Parse(stored_text);
    assert_non_null(fresh);
    assert_non_null(stored);
    static const char *const g_counts[] = {"n", "predictable", NULL};
    static const char *const g_rights[] = {"right", "predicted", NULL};
    static const char *const t_counts[] = {"pairs", NULL}, *const t_rights[] = {"both_right", NULL};
    static const char *const p_counts[] = {"rows", "sentences", NULL};
    static const char *const p_rights[] = {"rows_ok", NULL};
    static const char *const r_counts[] = {"n", NULL}, *const r_rights[] = {"right", NULL};
#define ARR(j, k) cJSON_GetObjectItemCaseSensitive(j, k)
    compare("groups", ARR(stored, "groups"), ARR(fresh, "groups"), g_counts, g_rights);
    compare("twins", ARR(stored, "twins"), ARR(fresh, "twins"), t_counts, t_rights);
    compare("named head", ARR(stored, "previous_token"), ARR(fresh, "previous_token"),
            p_counts, p_rights);
    compare("probes", ARR(stored, "probes"), ARR(fresh, "probes"), r_counts, r_rights);
#undef ARR
    check_targets(fresh);
    check_targets(stored);
    /* the held-out splits are all there, with sentences of both languages */
    size_t split_n[AT_N_SPLITS] = {0};
    for (size_t i = 0; i < c.n; i++)
        split_n[c.ex[i].split] += c.ex[i].kind == AT_EX_PRONOUN;
    for (int sp = 0; sp < AT_N_SPLITS; sp++)
        assert_true(split_n[sp] >= 1000);
    assert_true(split_n[AT_SPLIT_HELD_OUT] < split_n[AT_SPLIT_TRAIN] / 5);
    cJSON_Delete(fresh);
    cJSON_Delete(stored);
    free(json);
    free(res);
    at_corpus_free(&c);
    at_model_free(m);
}

/* Training is deterministic: the same corpus and seed give the same weights bit for
 * bit (a few steps of the real trainer, twice). */
static at_model *train_few_steps(at_corpus *c, char **words, size_t n_words)
{
    at_model_config cfg = at_model_default_config(n_words);
    at_model *m;
    assert_int_equal(at_model_alloc(&cfg, &m, NULL), AT_OK);
    for (size_t i = 0; i < n_words; i++)
        m->vocab[i] = strdup(words[i]);
    at_model_init_params(m, c->seed, 0.3f);
    assert_int_equal(at_corpus_featurize(c, m, NULL), AT_OK);
    at_train_opts o = at_train_defaults();
    o.steps = 3;
    o.batch = 8;
    o.seed = c->seed;
    assert_int_equal(at_train(m, c, &o, NULL), AT_OK);
    return m;
}

static void test_training_is_deterministic(void **state)
{
    at_corpus c;
    char **words;
    size_t n_words;
    assert_int_equal(at_corpus_load(CORPUS, &c, NULL), AT_OK);
    assert_int_equal(at_corpus_vocab(&c, &words, &n_words, NULL), AT_OK);
    at_model *a = train_few_steps(&c, words, n_words), *b = train_few_steps(&c, words, n_words);
    assert_int_equal(a->n_flat, b->n_flat);
    assert_memory_equal(a->flat, b->flat, a->n_flat * sizeof(float));
    /* and training moved the weights away from their initial values */
    at_model *init;
    at_model_config cfg = at_model_default_config(n_words);
    assert_int_equal(at_model_alloc(&cfg, &init, NULL), AT_OK);
    at_model_init_params(init, c.seed, 0.3f);
    assert_true(memcmp(init->flat, a->flat, a->n_flat * sizeof(float)) != 0);
    for (size_t i = 0; i < n_words; i++)
        free(words[i]);
    free(words);
    at_model_free(init);
    at_model_free(a);
    at_model_free(b);
    at_corpus_free(&c);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_corpus_errors(void **state)
{
    at_corpus c;
    at_error err;
    assert_int_equal(at_corpus_load("build/no-such-corpus.yaml", &c, &err), AT_EIO);
    at_corpus_free(&c);
    const char *path = "build/test-corpus-bad.yaml";
    const char *head = "seed: 1\nheld_out: 0.1\nlists:\n  - {name: x, class: thing, words: [cat]}\n"
                       "pronouns:\n  - {lang: en, word: it, form: subject, refers: [thing]}\n"
                       "  - {lang: en, word: him, form: object, refers: [boy]}\n";
    char text[1024];
    snprintf(text, sizeof text, "%sframes:\n  - id: broken\n    lang: en\n    text: \"The {a} "
             "saw the {b}; {p} was {adj}.\"\n    form: subject\n    a: [x]\n    b: [nowhere]\n"
             "    adj_a: [big]\n", head);
    write_file(path, text);
    assert_int_equal(at_corpus_load(path, &c, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "broken"));
    assert_non_null(strstr(err.msg, "nowhere"));
    at_corpus_free(&c);
    /* a frame whose pronouns fit none of its nouns makes no sentence: said so */
    snprintf(text, sizeof text, "%sframes:\n  - id: empty\n    lang: en\n    text: \"{a} saw "
             "{b} and {p} left.\"\n    form: object\n    a: [x]\n    b: [x]\n", head);
    write_file(path, text);
    assert_int_equal(at_corpus_load(path, &c, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "empty"));
    assert_non_null(strstr(err.msg, "makes no sentence"));
    printf("# %s\n", err.msg);
    at_corpus_free(&c);
    remove(path);
}

static const at_example *find_text(const at_corpus *c, const char *text)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->ex[i].text, text))
            return &c->ex[i];
    fail_msg("no sentence \"%s\"", text);
    return NULL;
}

static void check_sentence(const at_corpus *c, const char *text, const char *pronoun,
                           const char *ante, const char *other, int decided)
{
    const at_example *e = find_text(c, text);
    char got[3][64] = {"", "", ""};
    for (size_t i = e->span[e->answer][0]; i < e->span[e->answer][1]; i++)
        strcat(got[0], e->toks.items[i].text);
    for (size_t i = e->span[!e->answer][0]; i < e->span[!e->answer][1]; i++)
        strcat(got[1], e->toks.items[i].text);
    assert_string_equal(e->toks.items[e->pronoun].text, pronoun);
    assert_string_equal(got[0], ante);
    assert_string_equal(got[1], other);
    assert_int_equal(e->decided, decided);
    assert_int_equal(e->kind, AT_EX_PRONOUN);
    /* its twin: the same nouns, the other answer */
    assert_true(e->twin != AT_NO_INDEX);
    const at_example *t = &c->ex[e->twin];
    assert_int_equal(t->twin, (size_t)(e - c->ex));
    assert_int_equal(t->answer, !e->answer);
    assert_int_equal(t->frame, e->frame);
}

/* The generator: agreement decides when the pronoun fits one noun, the adjective when
 * it fits both; the antecedent is the noun's last word; Chinese comes in both
 * spellings; twins pair the two answers of one pair of nouns. */
static void test_corpus_generator(void **state)
{
    const char *path = "build/test-corpus-gen.yaml";
    write_file(path,
        "seed: 1\nheld_out: 0\nlists:\n"
        "  - {name: boys, class: boy, words: [Tom]}\n"
        "  - {name: girls, class: girl, words: [Anna]}\n"
        "  - {name: things, class: thing, words: [the ball, the box]}\n"
        "  - {name: 男, class: boy, words: [小明]}\n"
        "  - {name: 男们, class: boys, words: [男孩们]}\n"
        "pronouns:\n"
        "  - {lang: en, word: he, form: subject, refers: [boy]}\n"
        "  - {lang: en, word: she, form: subject, refers: [girl]}\n"
        "  - {lang: en, word: it, form: subject, refers: [thing]}\n"
        "  - {lang: en, word: they, form: subject, be: were, refers: [boys]}\n"
        "  - {lang: zh, word: 他, form: any, refers: [boy]}\n"
        "  - {lang: zh, word: 他们, form: any, refers: [boys]}\n"
        "frames:\n"
        "  - {id: agree, lang: en, text: \"{a} saw {b}, and {p} {be} glad.\", form: subject,\n"
        "     a: [boys, girls], b: [boys, girls]}\n"
        "  - {id: adj, lang: en, text: \"{a} didn't fit in {b} because {p} {be} too {adj}.\",\n"
        "     form: subject, a: [things], b: [things], adj_a: [big], adj_b: [small]}\n"
        "  - {id: zh, lang: zh, text: \"{a} 看见 {b} ， {p} 很 高兴\", form: any,\n"
        "     a: [男], b: [男们]}\n");
    at_corpus c;
    at_error err;
    if (at_corpus_load(path, &c, &err))
        fail_msg("%s", err.msg);
    remove(path);
    for (size_t i = 0; i < c.n; i++)
        printf("# %s\n", c.ex[i].text);
    assert_int_equal(c.n, 4 + 4 + 4);   /* 2 pairs × 2 pronouns; 2 × 2 adjectives; 2 × 2 spellings */
    check_sentence(&c, "Tom saw Anna, and he was glad.", "he", "Tom", "Anna", AT_BY_AGREEMENT);
    check_sentence(&c, "Tom saw Anna, and she was glad.", "she", "Anna", "Tom", AT_BY_AGREEMENT);
    check_sentence(&c, "The ball didn't fit in the box because it was too big.", "it", "ball",
                   "box", AT_BY_ADJECTIVE);
    check_sentence(&c, "The box didn't fit in the ball because it was too small.", "it", "ball",
                   "box", AT_BY_ADJECTIVE);
    /* with spaces a word is a token; without, 他们 starts at 他 and 男孩们 is three tokens */
    int spaced = 0, joined = 0;
    for (size_t i = 0; i < c.n; i++) {
        const at_example *e = &c.ex[i];
        if (e->frame != 2)
            continue;
        assert_int_equal(e->zh, 1);
        if (strchr(e->text, ' ')) {
            spaced++;
            assert_string_equal(e->toks.items[e->span[0][0]].text, "小明");
        } else {
            joined++;
            assert_string_equal(e->toks.items[e->pronoun].text, "他");
            if (strstr(e->text, "他们"))
                assert_int_equal(e->span[e->answer][1] - e->span[e->answer][0], 3);
        }
    }
    assert_int_equal(spaced, 2);
    assert_int_equal(joined, 2);
    /* the pronouns of the training sentences, in the file's order, and the frames' */
    assert_int_equal(c.n_pronouns, 5);   /* they fits no noun of these frames */
    assert_string_equal(c.pronouns[0], "he");
    assert_string_equal(c.pronouns[4], "他们");
    assert_string_equal(c.frames[0].pronoun, "he/she");
    assert_string_equal(c.frames[0].pattern, "{boys/girls} saw {boys/girls}, and {he/she} was glad.");
    assert_string_equal(c.frames[1].pattern,
                        "{things} didn't fit in {things} because {it} was too {adj}.");
    at_corpus_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lesson_sentences),
        cmocka_unit_test(test_head_profiles),
        cmocka_unit_test(test_file_size),
        cmocka_unit_test(test_unknown_words_marked),
        cmocka_unit_test(test_corpus_recorded),
        cmocka_unit_test(test_scope),
        cmocka_unit_test(test_evaluation_recorded),
        cmocka_unit_test(test_training_is_deterministic),
        cmocka_unit_test(test_corpus_errors),
        cmocka_unit_test(test_corpus_generator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
