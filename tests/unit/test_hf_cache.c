/* The key/value cache (engine/hf/hf.h): typing a sentence letter by letter, an edit in
 * the middle, the same sentence again, a shorter one: through the cache every weight,
 * score and scaled score equals a run without it, and only the tokens after the first
 * changed one are computed. The model is a small random GPT-2 folder written here
 * (byte-level vocabulary of the 256 bytes, no merges: one token per byte). */
#include "check.h"
#include "engine/hf/hf.h"
#include "engine/safetensors.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { D = 16, H = 2, LAYERS = 2, F = 64, V = 256, P = 64 };
static char dir[256];
static at_hf_model *model;

static int byte_printable(unsigned b)
{
    return (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
}

static void write_vocab(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/vocab.json", dir);
    FILE *f = fopen(path, "w");
    fputc('{', f);
    for (unsigned b = 0, extra = 0; b < 256; b++) {
        unsigned c = byte_printable(b) ? b : 256 + extra++;
        char u[8];
        int k = c < 0x80 ? (u[0] = (char)c, 1)
                         : (u[0] = (char)(0xC0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3F)), 2);
        fprintf(f, "%s\"%s%.*s\":%u", b ? "," : "", c == '"' || c == '\\' ? "\\" : "", k, u, b);
    }
    fputs("}", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/merges.txt", dir);
    f = fopen(path, "w");
    fputs("#version: 0.2\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/config.json", dir);
    f = fopen(path, "w");
    fprintf(f, "{\"model_type\":\"gpt2\",\"n_embd\":%d,\"n_head\":%d,\"n_layer\":%d,"
               "\"n_positions\":%d,\"vocab_size\":%d}", D, H, LAYERS, P, V);
    fclose(f);
}

static float *random_floats(size_t n, float scale, unsigned *seed, float add)
{
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        x[i] = add + scale * ((float)((*seed >> 8) & 0xFFFF) / 65536.0f - 0.5f) * 2.0f;
    }
    return x;
}

static void add(at_st_entry *e, char (*names)[64], size_t *n, const char *name, size_t r,
                size_t c, float scale, float a, unsigned *seed)
{
    snprintf(names[*n], 64, "%s", name);
    e[*n] = (at_st_entry){names[*n], r, c, random_floats(r * (c ? c : 1), scale, seed, a)};
    (*n)++;
}

static int setup(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/at-cache-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    write_vocab();
    static at_st_entry e[4 + 12 * LAYERS];
    static char names[4 + 12 * LAYERS][64];
    size_t n = 0;
    unsigned seed = 7;
    add(e, names, &n, "wte.weight", V, D, 0.8f, 0, &seed);
    add(e, names, &n, "wpe.weight", P, D, 0.5f, 0, &seed);
    static const struct { const char *what; size_t r, c; float s, a; } per_layer[] = {
        {"ln_1.weight", D, 0, 0.1f, 1}, {"ln_1.bias", D, 0, 0.1f, 0},
        {"attn.c_attn.weight", D, 3 * D, 0.5f, 0}, {"attn.c_attn.bias", 3 * D, 0, 0.1f, 0},
        {"attn.c_proj.weight", D, D, 0.3f, 0}, {"attn.c_proj.bias", D, 0, 0.1f, 0},
        {"ln_2.weight", D, 0, 0.1f, 1}, {"ln_2.bias", D, 0, 0.1f, 0},
        {"mlp.c_fc.weight", D, F, 0.3f, 0}, {"mlp.c_fc.bias", F, 0, 0.1f, 0},
        {"mlp.c_proj.weight", F, D, 0.3f, 0}, {"mlp.c_proj.bias", D, 0, 0.1f, 0},
    };
    for (int l = 0; l < LAYERS; l++)
        for (size_t k = 0; k < sizeof per_layer / sizeof *per_layer; k++) {
            char nm[64];
            snprintf(nm, sizeof nm, "h.%d.%s", l, per_layer[k].what);
            add(e, names, &n, nm, per_layer[k].r, per_layer[k].c, per_layer[k].s,
                per_layer[k].a, &seed);
        }
    char path[600];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    int rc = at_st_write(path, e, n, NULL, 0, NULL);
    for (size_t i = 0; i < n; i++)
        free((void *)e[i].data);
    at_error err;
    if (rc || at_hf_open(dir, &model, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    at_hf_free(model);
    const char *files[] = {"vocab.json", "merges.txt", "config.json", "model.safetensors"};
    char path[600];
    for (size_t i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    return rmdir(dir);
}

/* The first `layers` layers of a and b agree: weights within 1e-6, scores and scaled
 * scores within 1e-5 (their size is a few units), the masked cells -inf in both. */
static void same_run(const at_model_run *a, const at_model_run *b, size_t layers)
{
    assert_int_equal(a->n, b->n);
    size_t len = H * a->n * a->n;
    for (size_t l = 0; l < layers; l++) {
        check_tensor(a->weights[l], b->weights[l], len, 1e-6f, "weights");
        for (size_t k = 0; k < len; k++) {   /* masked cells: -inf in both */
            assert_true(isinf(a->scores[l][k]) == isinf(b->scores[l][k]));
            assert_true(isinf(a->scaled[l][k]) == isinf(b->scaled[l][k]));
            if (!isinf(a->scores[l][k]))
                assert_true(fabsf(a->scores[l][k] - b->scores[l][k]) < 1e-5f &&
                            fabsf(a->scaled[l][k] - b->scaled[l][k]) < 1e-5f);
        }
    }
}

/* One edit: the sentence, the layers asked for (0: all), the layers then complete and
 * the tokens whose rows are reused (one token per byte). */
typedef struct step {
    const char *s;
    size_t layers, want_layers, want_reused;
} step;

/* Each step through the cache equals a run without it (on the complete layers), with
 * the rows reused that the edit left unchanged. */
static void run_steps(const step *steps, size_t n_steps)
{
    at_hf_cache *c;
    assert_int_equal(at_hf_cache_new(model, &c, NULL), AT_OK);
    at_model_run prev = {0};
    for (size_t s = 0; s < n_steps; s++) {
        at_hf_tokens t;
        at_error err;
        const char *text = steps[s].s;
        assert_int_equal(at_hf_tokenize(model, text, strlen(text), &t, &err), AT_OK);
        at_model_run cached, fresh;
        at_hf_cache_use use = {99, 99};
        int rc = at_hf_attend_cached(model, c, &t, s ? &prev : NULL, steps[s].layers, &cached,
                                     &use, &err);
        if (rc)
            fail_msg("%s", err.msg);
        assert_int_equal(at_hf_attend(model, &t, &fresh, &err), AT_OK);
        if (use.layers != steps[s].want_layers || use.reused != steps[s].want_reused)
            fail_msg("step %zu '%s': %zu layers complete, %zu tokens reused; expected %zu, %zu",
                     s, text, use.layers, use.reused, steps[s].want_layers,
                     steps[s].want_reused);
        same_run(&cached, &fresh, use.layers);
        at_model_run_free(&fresh);
        at_model_run_free(&prev);
        prev = cached;
        at_hf_tokens_free(&t);
    }
    at_model_run_free(&prev);
    at_hf_cache_free(c);
}

/* Typing at the end, the last token changed, the same sentence, an edit at the start,
 * deleting at the end (nothing computed), an edit and a deletion in the middle. */
static void test_cache_equals_fresh(void **state)
{
    static const step steps[] = {
        {"T", 0, LAYERS, 0}, {"Th", 0, LAYERS, 1}, {"The", 0, LAYERS, 2},
        {"The ", 0, LAYERS, 3}, {"The a", 0, LAYERS, 4}, {"The an", 0, LAYERS, 5},
        {"The ani", 0, LAYERS, 6}, {"The animal was tired.", 0, LAYERS, 7},
        {"The animal was tired!", 0, LAYERS, 20},   /* the last token changed */
        {"The animal was tired!", 0, LAYERS, 21},   /* the same sentence: nothing again */
        {"A animal was tired!", 0, LAYERS, 0},      /* an edit at the start */
        {"A animal was tired", 0, LAYERS, 18},      /* Backspace at the end */
        {"A animal", 0, LAYERS, 8},                 /* shorter */
        {"A animal is here", 0, LAYERS, 8},
        {"A animal is there", 0, LAYERS, 12},       /* an edit in the middle */
        {"A animal s there", 0, LAYERS, 9},         /* a character deleted in the middle */
        {"A animal s the", 0, LAYERS, 14},          /* characters deleted at the end */
    };
    run_steps(steps, sizeof steps / sizeof *steps);
}

/* Only the layers asked for are computed; the ones above catch up when asked for, from
 * the rows they had, and then equal a run without the cache too. */
static void test_cache_layers_on_demand(void **state)
{
    static const step steps[] = {
        {"The animal", 1, 1, 0},
        {"The animal was", 1, 1, 10},
        {"The animal was tired", 0, LAYERS, 0},     /* layer 2 never ran: all its rows */
        {"The animal was tired.", 1, 1, 20},
        {"The animal was tired.", 0, LAYERS, 20},   /* layer 2 catches up: 1 row */
        {"The cat was tired.", 1, 1, 4},
        {"The cat", 0, LAYERS, 4},                  /* layer 2 kept its first 4 rows */
        {"The cat", 9, LAYERS, 7},                  /* more layers than the model has */
    };
    run_steps(steps, sizeof steps / sizeof *steps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_cache_equals_fresh),
                                       cmocka_unit_test(test_cache_layers_on_demand)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
