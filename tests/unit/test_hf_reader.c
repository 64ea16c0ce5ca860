/* The model-folder reader: F16/BF16 conversion, safetensors mapped (an F32 tensor is used
 * where it lies in the mapping, not copied; a misaligned one is converted), header
 * entries checked at open, tensor names with prefixes and gamma/beta, config.json. */
#include "check.h"
#include "engine/hf/config.h"
#include "engine/hf/weights.h"
#include "engine/safetensors.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

static int setup(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/at-hf-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    DIR *d = opendir(dir);
    char path[600];
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    return rmdir(dir);
}

/* Write dir/name: 8-byte length, header (padded with spaces to pad_to bytes), data. */
static void write_st(const char *name, const char *header, size_t pad_to, const void *data,
                     size_t n)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    size_t hl = strlen(header) > pad_to ? strlen(header) : pad_to;
    assert_true(pad_to == 0 || strlen(header) <= pad_to);
    for (int i = 0; i < 8; i++)
        fputc((int)((hl >> (8 * i)) & 0xFF), f);
    fputs(header, f);
    for (size_t i = strlen(header); i < hl; i++)
        fputc(' ', f);
    if (n)
        fwrite(data, 1, n, f);
    fclose(f);
}

static void write_text(const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_half_floats(void **state)
{
    assert_true(at_f16_to_f32(0x3C00) == 1.0f);
    assert_true(at_f16_to_f32(0xC000) == -2.0f);
    assert_true(at_f16_to_f32(0x7BFF) == 65504.0f);
    assert_true(at_f16_to_f32(0x0001) == ldexpf(1.0f, -24));   /* smallest subnormal */
    assert_true(at_f16_to_f32(0x03FF) == 1023 * ldexpf(1.0f, -24));
    assert_true(at_f16_to_f32(0x0400) == ldexpf(1.0f, -14));   /* smallest normal */
    assert_true(at_f16_to_f32(0x8000) == 0.0f && signbit(at_f16_to_f32(0x8000)));
    assert_true(isinf(at_f16_to_f32(0x7C00)) && at_f16_to_f32(0x7C00) > 0);
    assert_true(isinf(at_f16_to_f32(0xFC00)) && at_f16_to_f32(0xFC00) < 0);
    assert_true(isnan(at_f16_to_f32(0x7E00)));
    assert_true(at_f16_to_f32(0x3555) == 0.333251953125f);
    assert_true(at_bf16_to_f32(0x3F80) == 1.0f);
    assert_true(at_bf16_to_f32(0xC0A0) == -5.0f);
    assert_true(at_bf16_to_f32(0x3EAB) == 0.333984375f);
}

/* F32 at an aligned offset is used in place; F32 at an offset that is not a multiple of
 * 4, F16 and BF16 are converted. */
static void test_mapped_not_copied(void **state)
{
    float a[6] = {1, 2, 3, 4, 5, 6};
    unsigned char buf[64] = {0};
    memcpy(buf, a, sizeof a);                                 /* [0, 24): F32 [2, 3] */
    unsigned short h[2] = {0x3C00, 0xC000}, b[2] = {0x3F80, 0xC0A0};
    memcpy(buf + 24, h, 4);                                   /* [24, 28): F16 [2] */
    memcpy(buf + 28, b, 4);                                   /* [28, 32): BF16 [2] */
    memcpy(buf + 33, a, 8);                                   /* [33, 41): F32 [2], misaligned */
    write_st("model.safetensors",
             "{\"__metadata__\":{\"format\":\"pt\"},"
             "\"transformer.h.0.attn.c_attn.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]},"
             "\"transformer.h.0.ln_1.gamma\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[24,28]},"
             "\"transformer.h.0.ln_1.beta\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[28,32]},"
             "\"odd\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[33,41]},"
             "\"ids\":{\"dtype\":\"I64\",\"shape\":[],\"data_offsets\":[41,49]}}",
             512, buf, 49);
    static const char *const prefixes[] = {"", "transformer.", NULL};
    at_hf_weights w;
    at_error err;
    int rc = at_hf_weights_open(dir, prefixes, &w, &err);
    if (rc)
        fail_msg("%s", err.msg);
    const at_safetensors *st = &w.shards[0];
    assert_int_equal(st->n_tensors, 5);
    const float *p;
    size_t s23[2] = {2, 3}, s2[1] = {2};
    assert_int_equal(at_hf_weights_get(&w, "h.0.attn.c_attn.weight", 2, s23, &p, &err), AT_OK);
    assert_true((const unsigned char *)p >= st->file &&
                (const unsigned char *)p < st->file + st->size);   /* in the mapping */
    check_tensor(p, a, 6, 0, "F32 in place");
    assert_int_equal(w.mapped_bytes, 24);
    assert_int_equal(w.converted_bytes, 0);
    assert_int_equal(at_hf_weights_get(&w, "h.0.ln_1.weight", 1, s2, &p, &err), AT_OK);
    float g[2] = {1, -2}, bb[2] = {1, -5};
    check_tensor(p, g, 2, 0, "F16 as gamma");
    assert_int_equal(at_hf_weights_get(&w, "h.0.ln_1.bias", 1, s2, &p, &err), AT_OK);
    check_tensor(p, bb, 2, 0, "BF16 as beta");
    assert_int_equal(at_hf_weights_get(&w, "odd", 1, s2, &p, &err), AT_OK);
    assert_false((const unsigned char *)p >= st->file &&
                 (const unsigned char *)p < st->file + st->size);  /* a converted copy */
    check_tensor(p, a, 2, 0, "misaligned F32");
    assert_int_equal(w.converted_bytes, 3 * 2 * sizeof(float));
    /* Shape, dtype and absence are named. */
    size_t s32[2] = {3, 2};
    assert_int_equal(at_hf_weights_get(&w, "h.0.attn.c_attn.weight", 2, s32, &p, &err),
                     AT_EINVAL);
    assert_non_null(strstr(err.msg, "tensor 'transformer.h.0.attn.c_attn.weight' has shape "
                                    "[2, 3], but config.json makes it [3, 2]"));
    size_t s0[1] = {0};
    assert_int_equal(at_hf_weights_get(&w, "ids", 0, s0, &p, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "tensor 'ids' is I64; attn-tutor reads F32, F16 and BF16"));
    assert_int_equal(at_hf_weights_get(&w, "wte.weight", 1, s2, &p, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "/model.safetensors: tensor 'wte.weight' is missing"));
    assert_int_equal(at_hf_weights_has(&w, "h.0.ln_1.weight"), 1);
    assert_int_equal(at_hf_weights_has(&w, "h.1.ln_1.weight"), 0);
    at_hf_weights_free(&w);
}

/* Each lie of a header is found at open, naming the tensor; nothing is read. */
static void test_header_lies(void **state)
{
    static const struct { const char *header; const char *msg; } cases[] = {
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,12]}}",
         "tensor 't': data_offsets [0, 12] hold 12 bytes, but shape [2] of F32 needs 8"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[6],\"data_offsets\":[0,24]}}",
         "tensor 't': data_offsets [0, 24] run past the end of the data (16 bytes"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}",
         "tensor 't': data_offsets is not [begin, end] with begin <= end"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}",
         "tensor 't': shape holds something that is not a size"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,8]}}",
         "tensor 't': shape holds something that is not a size"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}}",
         "tensor 't': shape is too large"},
        {"{\"t\":{\"dtype\":\"F31\",\"shape\":[2],\"data_offsets\":[0,8]}}",
         "tensor 't': unknown dtype 'F31'"},
        {"{\"t\":{\"dtype\":\"F32\",\"shape\":[2]}}",
         "tensor 't': not an object with dtype, shape and data_offsets"},
        {"{\"t\":[1,2]}", "tensor 't': not an object with dtype, shape and data_offsets"},
        {"[]", "the safetensors header is not a JSON object"},
        {"{\"t\":", "the safetensors header is not a JSON object"},
    };
    float data[4] = {1, 2, 3, 4};
    char path[600];
    snprintf(path, sizeof path, "%s/bad.safetensors", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_st("bad.safetensors", cases[i].header, 0, data, sizeof data);
        at_safetensors st;
        at_error err;
        assert_int_equal(at_st_read(path, &st, &err), AT_EINVAL);
        if (!strstr(err.msg, cases[i].msg) || strncmp(err.msg, path, strlen(path)))
            fail_msg("case %zu: %s", i, err.msg);
        assert_null(st.file);
    }
    /* A header length past the end of the file, and a file shorter than 8 bytes. */
    write_st("bad.safetensors", "{}", 0, NULL, 0);
    FILE *f = fopen(path, "r+b");
    fputc(0x40, f);
    fclose(f);
    at_safetensors st;
    at_error err;
    assert_int_equal(at_st_read(path, &st, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "not a safetensors file (header length 64, file 10 bytes)"));
    write_text("bad.safetensors", "abc");
    assert_int_equal(at_st_read(path, &st, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "not a safetensors file (3 bytes, shorter than the 8-byte "
                                    "header length)"));
}

/* Shards: the index names them; a name leaving the folder is refused. */
static void test_shards(void **state)
{
    float a[2] = {1, 2}, b[3] = {3, 4, 5};
    write_st("m-1.safetensors", "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
             64, a, sizeof a);
    write_st("m-2.safetensors", "{\"b\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}",
             64, b, sizeof b);
    write_text("model.safetensors.index.json",
               "{\"metadata\":{},\"weight_map\":{\"a\":\"m-1.safetensors\",\"b\":\"m-2.safetensors\"}}");
    at_hf_weights w;
    at_error err;
    assert_int_equal(at_hf_weights_open(dir, NULL, &w, &err), AT_OK);
    assert_int_equal(w.n_shards, 2);
    const float *p;
    size_t s2[1] = {2}, s3[1] = {3};
    assert_int_equal(at_hf_weights_get(&w, "a", 1, s2, &p, &err), AT_OK);
    check_tensor(p, a, 2, 0, "a");
    assert_int_equal(at_hf_weights_get(&w, "b", 1, s3, &p, &err), AT_OK);
    check_tensor(p, b, 3, 0, "b");
    at_hf_weights_free(&w);
    write_text("model.safetensors.index.json", "{\"weight_map\":{\"a\":\"../m-1.safetensors\"}}");
    assert_int_equal(at_hf_weights_open(dir, NULL, &w, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "weight_map puts tensor 'a' in '../m-1.safetensors', which "
                                    "is not a file name inside the folder"));
    write_text("model.safetensors.index.json", "{\"weight_map\":{\"a\":\"m-1.safetensors\","
                                               "\"b\":\"m-1.safetensors\"}}");
    assert_int_equal(at_hf_weights_open(dir, NULL, &w, &err), AT_OK);
    assert_int_equal(at_hf_weights_get(&w, "b", 1, s3, &p, &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, "/m-1.safetensors: tensor 'b' is missing "
                                    "(model.safetensors.index.json puts it in this file)"));
    at_hf_weights_free(&w);
    char path[600];
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
    unlink(path);
}

static void test_config(void **state)
{
    char path[600];
    snprintf(path, sizeof path, "%s/config.json", dir);
    at_hf_config c;
    at_error err;
    write_text("config.json", "{\"model_type\":\"gpt2\",\"n_embd\":64,\"n_head\":4,\"n_layer\":2}");
    assert_int_equal(at_hf_config_read(path, &c, &err), AT_OK);
    assert_int_equal(c.family, AT_HF_GPT2);
    assert_int_equal(c.d_model, 64);
    assert_int_equal(c.d_ff, 256);                 /* n_inner absent: 4 · n_embd */
    assert_int_equal(c.n_positions, 1024);         /* GPT2Config's defaults */
    assert_int_equal(c.vocab_size, 50257);
    assert_true(c.ln_eps == 1e-5 && c.act == AT_HF_GELU_TANH && c.scale_attn == 1);
    write_text("config.json", "{\"architectures\":[\"BertForMaskedLM\"],\"hidden_size\":32,"
                              "\"num_attention_heads\":2,\"hidden_act\":\"gelu\"}");
    assert_int_equal(at_hf_config_read(path, &c, &err), AT_OK);
    assert_int_equal(c.family, AT_HF_BERT);
    assert_int_equal(c.d_ff, 3072);
    assert_int_equal(c.type_vocab_size, 2);
    assert_true(c.ln_eps == 1e-12 && c.act == AT_HF_GELU_ERF);
    static const struct { const char *text, *msg; } bad[] = {
        {"{\"model_type\":\"t5\"}", "model_type 't5' is not one attn-tutor can open (gpt2, bert)"},
        {"{\"model_type\":\"gpt2\",\"n_head\":0}", "\"n_head\" should be a whole number from 1"},
        {"{\"model_type\":\"gpt2\",\"n_embd\":100,\"n_head\":3}", "3 heads do not divide the width 100"},
        {"{\"model_type\":\"gpt2\",\"activation_function\":\"swish\"}",
         "\"activation_function\" 'swish' is not an activation attn-tutor computes"},
        {"{\"model_type\":\"gpt2\",\"layer_norm_epsilon\":-1}", "\"layer_norm_epsilon\" should be"},
        {"{\"model_type\":\"bert\",\"position_embedding_type\":\"relative_key\"}",
         "position_embedding_type 'relative_key' is not one attn-tutor computes"},
        {"{}", "no \"model_type\""},
        {"[1]", "not a JSON object"},
        {"{\"model_type\": \"gpt2\",", "not valid JSON (near byte"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_text("config.json", bad[i].text);
        assert_int_equal(at_hf_config_read(path, &c, &err), AT_EINVAL);
        if (!strstr(err.msg, bad[i].msg) || strncmp(err.msg, path, strlen(path)))
            fail_msg("case %zu: %s", i, err.msg);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_floats),
        cmocka_unit_test(test_mapped_not_copied),
        cmocka_unit_test(test_header_lies),
        cmocka_unit_test(test_shards),
        cmocka_unit_test(test_config),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
