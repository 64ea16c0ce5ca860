/* The shipped model (models/mini.safetensors, made by `make model`): the lesson
 * sentences, unknown words, and the held-out figures recomputed from the corpus. */
#include "check.h"
#include "engine/train.h"

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
    assert_true(p.antecedent_above_other >= 0.9);
    assert_true(p.pronoun_to_antecedent > p.pronoun_to_other_noun);
    assert_int_equal(at_model_head_profile(m, info.n_layers, 0, &p), AT_EINVAL);
    assert_int_equal(at_model_demo(1, &demo, NULL), AT_OK);
    assert_int_equal(at_model_head_profile(demo, 0, 0, &p), AT_OK);
    assert_int_equal(p.measured, 0);
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
        train += c.ex[i].split == AT_SPLIT_TRAIN;
    assert_int_equal(at_model_train_sentences(m), train);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(f[i].id, c.frames[i].id);
        assert_string_equal(f[i].pronoun, c.frames[i].pronoun);
        assert_int_equal(f[i].held_out, c.frames[i].held_out_frame);
        assert_int_equal(f[i].sentences, c.frames[i].n_train);
        if (!f[i].held_out)   /* the example is one of its training sentences */
            assert_string_equal(f[i].example, c.ex[c.frames[i].example].text);
    }
    const char *p[8];
    assert_int_equal(at_model_pronouns(m, p, 8), 3);
    assert_string_equal(p[0], "it");
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
    scope_of(m, "a A a b", &sc, &t);   /* distinct, case-insensitive, first occurrences */
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
    scope_of(m, "猫坐在垫子上，因为它很累。", &sc, &t);
    assert_int_equal(sc.n_unseen, 5);
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

static void held_out_case(const at_model *m, const at_corpus *c, const char *lang)
{
    at_eval ev;
    assert_int_equal(at_evaluate(m, c, AT_SPLIT_HELD_OUT, lang, -1, m->coref_layer,
                                 m->coref_head, &ev, NULL), AT_OK);
    printf("# held-out (%s): %zu sentences, prediction %.1f%%, attention %.1f%%\n", lang, ev.n,
           100.0 * ev.predicted / ev.n, 100.0 * ev.attended / ev.n);
    assert_true(ev.n >= 100);
    assert_true(ev.attended >= 0.90 * ev.n);
    assert_true(ev.predicted >= 0.95 * ev.n);
}

static void test_held_out_accuracy(void **state)
{
    at_model *m = load();
    at_corpus c;
    at_error err;
    if (at_corpus_load(CORPUS, &c, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(at_corpus_featurize(&c, m, NULL), AT_OK);
    held_out_case(m, &c, "en");
    held_out_case(m, &c, "zh");
    /* About a tenth of the combinations are held out. */
    size_t held = 0;
    for (size_t i = 0; i < c.n; i++)
        held += c.ex[i].split == AT_SPLIT_HELD_OUT;
    assert_true(held > 0 && held < c.n / 5);
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

static void test_corpus_errors(void **state)
{
    at_corpus c;
    at_error err;
    assert_int_equal(at_corpus_load("build/no-such-corpus.yaml", &c, &err), AT_EIO);
    at_corpus_free(&c);
    const char *path = "build/test-corpus-bad.yaml";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("seed: 1\nheld_out: 0.1\nlists:\n  - name: x\n    words: [cat]\n"
          "frames:\n  - id: broken\n    lang: en\n    text: \"The {a} saw the {b}; it was {adj}.\"\n"
          "    pronoun: it\n    a: x\n    b: nowhere\n    adj_a: [big]\n", f);
    fclose(f);
    assert_int_equal(at_corpus_load(path, &c, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "broken"));
    assert_non_null(strstr(err.msg, "nowhere"));
    at_corpus_free(&c);
    remove(path);
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
        cmocka_unit_test(test_held_out_accuracy),
        cmocka_unit_test(test_training_is_deterministic),
        cmocka_unit_test(test_corpus_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
