/* The mini-model: demo weights, attend, safetensors round trip, unknown words. */
#include "check.h"
#include "engine/model_impl.h"
#include "engine/tokenizer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *SENT = "The animal didn't cross the road because it was too tired.";

static void attend(const at_model *m, const char *s, const at_run_opts *o, at_model_run *r)
{
    at_tokens t;
    at_error err;
    assert_int_equal(at_tokenize(s, strlen(s), &t, &err), AT_OK);
    int rc = at_model_attend(m, &t, o, r, &err);
    if (rc)
        fail_msg("attend: %s", err.msg);
    at_tokens_free(&t);
}

static void test_demo_is_deterministic(void **state)
{
    at_model *a, *b, *c;
    assert_int_equal(at_model_demo(7, &a, NULL), AT_OK);
    assert_int_equal(at_model_demo(7, &b, NULL), AT_OK);
    assert_int_equal(at_model_demo(8, &c, NULL), AT_OK);
    assert_int_equal(a->n_flat, b->n_flat);
    assert_memory_equal(a->flat, b->flat, a->n_flat * sizeof(float));
    assert_true(memcmp(a->flat, c->flat, a->n_flat * sizeof(float)) != 0);
    at_model_info info;
    at_model_get_info(a, &info);
    assert_int_equal(info.n_layers, 2);
    assert_int_equal(info.n_heads[0], 4);
    assert_int_equal(info.n_heads[1], 1);
    assert_int_equal(info.trained, 0);
    assert_string_equal(at_model_kind(a), "untrained demo weights");
    at_model_free(a);
    at_model_free(b);
    at_model_free(c);
}

static void test_attend_rows_and_masks(void **state)
{
    at_model *m;
    assert_int_equal(at_model_demo(1, &m, NULL), AT_OK);
    at_model_run r;
    at_run_opts causal = {.causal = 1};
    attend(m, SENT, &causal, &r);
    assert_int_equal(r.n, 12);
    assert_int_equal(r.n_layers, 2);
    for (size_t l = 0; l < r.n_layers; l++)
        for (size_t h = 0; h < r.n_heads[l]; h++)
            for (size_t i = 0; i < r.n; i++) {
                const float *w = r.weights[l] + (h * r.n + i) * r.n;
                const float *s = r.scaled[l] + (h * r.n + i) * r.n;
                double sum = 0;
                for (size_t j = 0; j < r.n; j++) {
                    sum += w[j];
                    if (j > i) {
                        assert_true(w[j] == 0.0f);
                        assert_true(isinf(s[j]) && s[j] < 0);
                    }
                }
                assert_true(fabs(sum - 1.0) < 1e-5);
            }
    /* Demo weights saw no words: every token is marked unknown. */
    for (size_t i = 0; i < r.n; i++)
        assert_int_equal(r.unknown[i], 1);
    at_model_run_free(&r);
    at_model_free(m);
}

static void test_unscaled_scores(void **state)
{
    at_model *m;
    assert_int_equal(at_model_demo(1, &m, NULL), AT_OK);
    at_model_run a, b;
    at_run_opts unscaled = {.unscaled = 1};
    attend(m, SENT, NULL, &a);
    attend(m, SENT, &unscaled, &b);
    /* Layer 1 sees the same input both ways: scaled = raw / √d_k with d_k = d_model / heads
     * (48 / 4 = 12), and without scaling scaled = raw. */
    at_model_info info;
    at_model_get_info(m, &info);
    assert_int_equal(info.d_model / info.n_heads[0], 12);
    for (size_t i = 0; i < info.n_heads[0] * a.n * a.n; i++) {
        assert_true(fabsf(a.scaled[0][i] - a.scores[0][i] / sqrtf(12.0f)) < 1e-5f);
        assert_true(b.scaled[0][i] == b.scores[0][i]);
        assert_true(fabsf(a.scores[0][i] - b.scores[0][i]) < 1e-5f);
    }
    at_model_run_free(&a);
    at_model_run_free(&b);
    at_model_free(m);
}

static void test_save_load_round_trip(void **state)
{
    at_model *m, *back;
    at_error err;
    assert_int_equal(at_model_demo(3, &m, NULL), AT_OK);
    char path[] = "build/test-model-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(at_model_save(m, path, &err), AT_OK);
    int rc = at_model_load(path, &back, &err);
    if (rc)
        fail_msg("load: %s", err.msg);
    assert_int_equal(back->n_flat, m->n_flat);
    assert_memory_equal(back->flat, m->flat, m->n_flat * sizeof(float));
    at_model_run a, b;
    attend(m, "小明今天没来学校，因为他生病了", NULL, &a);
    attend(back, "小明今天没来学校，因为他生病了", NULL, &b);
    assert_memory_equal(a.weights[1], b.weights[1], a.n * a.n * sizeof(float));
    at_model_run_free(&a);
    at_model_run_free(&b);
    at_model_free(back);
    /* A truncated file is an error that names the file, never a crash. */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), 1000), 0);
    fclose(f);
    assert_int_not_equal(at_model_load(path, &back, &err), AT_OK);
    assert_non_null(strstr(err.msg, "test-model-"));
    assert_null(back);
    unlink(path);
    at_model_free(back);
    at_model_free(m);
}

/* A safetensors file whose tensor has the wrong shape is refused, naming the tensor. */
static void test_load_names_bad_tensor(void **state)
{
    at_model *m, *back = NULL;
    at_error err;
    assert_int_equal(at_model_demo(3, &m, NULL), AT_OK);
    const char *path = "build/test-model-shape.safetensors";
    assert_int_equal(at_model_save(m, path, &err), AT_OK);
    /* Rewrite the header: ln_f.weight claims 49 entries instead of 48 (same length,
     * so the file stays well formed). */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    char buf[8192];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    char *hit = strstr(buf + 8, "\"ln_f.weight\":{\"dtype\":\"F32\",\"shape\":[48]");
    assert_non_null(hit);
    hit[strlen("\"ln_f.weight\":{\"dtype\":\"F32\",\"shape\":[4")] = '9';
    fseek(f, 0, SEEK_SET);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
    assert_int_equal(at_model_load(path, &back, &err), AT_EINVAL);
    assert_null(back);
    assert_non_null(strstr(err.msg, "ln_f.weight"));
    remove(path);
    at_model_free(m);
}

static void test_too_many_tokens(void **state)
{
    at_model *m;
    at_error err;
    assert_int_equal(at_model_demo(1, &m, NULL), AT_OK);
    at_model_info info;
    at_model_get_info(m, &info);
    size_t n = info.max_tokens + 1;
    char *s = malloc(2 * n + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + 2 * i, "a ", 2);
    s[2 * n] = '\0';
    at_tokens t;
    assert_int_equal(at_tokenize(s, strlen(s), &t, NULL), AT_OK);
    assert_int_equal(t.n, n);
    at_model_run r;
    assert_int_equal(at_model_attend(m, &t, NULL, &r, &err), AT_ERANGE);
    assert_null(r.weights);
    at_tokens_free(&t);
    free(s);
    at_model_free(m);
}

static void test_rejects_bad_input(void **state)
{
    at_model *m;
    at_error err;
    assert_int_equal(at_model_demo(1, &m, NULL), AT_OK);
    at_tokens empty = {0};
    at_model_run r;
    assert_int_equal(at_model_attend(m, &empty, NULL, &r, &err), AT_EINVAL);
    assert_null(r.weights);
    at_model_run_free(&r);
    at_model_free(m);
    assert_int_equal(at_model_load("build/no-such-model.safetensors", &m, &err), AT_EIO);
    assert_null(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_demo_is_deterministic),
        cmocka_unit_test(test_attend_rows_and_masks),
        cmocka_unit_test(test_unscaled_scores),
        cmocka_unit_test(test_save_load_round_trip),
        cmocka_unit_test(test_load_names_bad_tensor),
        cmocka_unit_test(test_too_many_tokens),
        cmocka_unit_test(test_rejects_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
