/* Opening a model folder, its tokens and its attention (see hf.h). */
#include "engine/hf/hf_impl.h"
#include "engine/file.h"
#include "engine/visible.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The run keeps scores, scaled scores and weights of every head: 3 · L · H · n² floats,
 * at most this many bytes. */
#define TRACE_BUDGET ((double)(512u << 20))

int at_hf_is_folder(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int hf_tensor(at_hf_model *m, const char *name, size_t rows, size_t cols, const float **out,
              at_error *err)
{
    size_t shape[2] = {rows, cols};
    return at_hf_weights_get(&m->w, name, cols ? 2 : 1, shape, out, err);
}

int hf_layer_tensor(at_hf_model *m, const char *layer_prefix, size_t l, const char *what,
                    size_t rows, size_t cols, const float **out, at_error *err)
{
    char name[192];
    snprintf(name, sizeof name, "%s%zu.%s", layer_prefix, l, what);
    return hf_tensor(m, name, rows, cols, out, err);
}

static int has_file(const char *dir, const char *name)
{
    char *p = at_path_join(dir, name);
    struct stat st;
    int ok = p && stat(p, &st) == 0;
    free(p);
    return ok;
}

/* do_lower_case for a WordPiece vocabulary: tokenizer_config.json's, else config.json's,
 * else 1 (BertTokenizer's default). */
static int lower_case(const at_hf_model *m, int *lower, at_error *err)
{
    *lower = m->cfg.do_lower_case >= 0 ? m->cfg.do_lower_case : 1;
    if (!has_file(m->dir, "tokenizer_config.json"))
        return AT_OK;
    char *path = at_path_join(m->dir, "tokenizer_config.json"), *text = NULL;
    size_t len;
    at_error why;
    int rc = path ? at_file_read(path, "a tokenizer file (.json)", 1 << 20, &text, &len, &why)
                  : at_error_set(&why, AT_ENOMEM, "out of memory");
    cJSON *j = rc ? NULL : cJSON_ParseWithLength(text, len);
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(j, "do_lower_case");
    if (rc)
        rc = at_error_set(err, rc, "%s: %s", path ? path : m->dir, why.msg);
    else if (!cJSON_IsObject(j))
        rc = at_error_set(err, AT_EINVAL, "%s: not a JSON object", path);
    else if (x && !cJSON_IsBool(x))
        rc = at_error_set(err, AT_EINVAL, "%s: \"do_lower_case\" should be true or false", path);
    else if (x)
        *lower = cJSON_IsTrue(x);
    cJSON_Delete(j);
    free(text);
    free(path);
    return rc;
}

/* GPT-2's vocab.json + merges.txt when the folder has them, else a WordPiece vocab.txt
 * (BERT's; also GPT-2-layout models trained with a BERT vocabulary). */
static int open_tokenizer(at_hf_model *m, at_error *err)
{
    int bpe = has_file(m->dir, "vocab.json") && has_file(m->dir, "merges.txt");
    if (!bpe && !has_file(m->dir, "vocab.txt"))
        return at_error_set(err, AT_EIO, "%s: no %s (the tokenizer's files)", m->dir,
                            m->cfg.family == AT_HF_GPT2 ? "vocab.json and merges.txt, nor vocab.txt"
                                                        : "vocab.txt");
    char *v = at_path_join(m->dir, bpe ? "vocab.json" : "vocab.txt");
    char *mg = at_path_join(m->dir, "merges.txt");
    int rc, lower;
    size_t limit = 0;
    if (!v || !mg) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
    } else if (bpe) {
        if (!(rc = at_bpe_load(v, mg, &m->bpe, err)))
            limit = at_bpe_id_limit(m->bpe);
    } else if (!(rc = lower_case(m, &lower, err)) &&
               !(rc = at_wordpiece_load(v, lower, &m->wordpiece, err))) {
        limit = at_wordpiece_size(m->wordpiece);
    }
    if (!rc && limit > m->cfg.vocab_size)
        rc = at_error_set(err, AT_EINVAL, "%s: ids reach %zu, beyond the model's vocab_size %zu "
                          "(config.json): the tokenizer is not this model's", v, limit - 1,
                          m->cfg.vocab_size);
    free(v);
    free(mg);
    return rc;
}

int at_hf_open(const char *dir, at_hf_model **out, at_error *err)
{
    static const char *const gpt2_prefixes[] = {"", "transformer.", NULL};
    static const char *const bert_prefixes[] = {"", "bert.", NULL};
    *out = NULL;
    at_hf_model *m = calloc(1, sizeof *m);
    if (!m || !(m->dir = strdup(dir))) {
        free(m);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    int rc;
    char *cfg_path = at_path_join(dir, "config.json");
    if (!cfg_path) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    if (!has_file(dir, "config.json")) {
        rc = at_error_set(err, AT_EIO, "%s: no config.json: not a Hugging Face model folder",
                          dir);
        goto out;
    }
    if ((rc = at_hf_config_read(cfg_path, &m->cfg, err)))
        goto out;
    int gpt2 = m->cfg.family == AT_HF_GPT2;
    if ((rc = at_hf_weights_open(dir, gpt2 ? gpt2_prefixes : bert_prefixes, &m->w, err)))
        goto out;
    if (!(m->layers = calloc(m->cfg.n_layers, sizeof *m->layers))) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = gpt2 ? hf_gpt2_bind(m, err) : hf_bert_bind(m, err)) ||
        (rc = open_tokenizer(m, err)))
        goto out;
    double per_token2 = 3.0 * (double)m->cfg.n_layers * (double)m->cfg.n_heads * sizeof(float);
    size_t fit = (size_t)sqrt(TRACE_BUDGET / per_token2);
    m->max_tokens = fit < m->cfg.n_positions ? fit : m->cfg.n_positions;
out:
    free(cfg_path);
    if (rc)
        at_hf_free(m);
    else
        *out = m;
    return rc;
}

void at_hf_free(at_hf_model *m)
{
    if (!m)
        return;
    at_bpe_free(m->bpe);
    at_wordpiece_free(m->wordpiece);
    at_hf_weights_free(&m->w);
    free(m->layers);
    free(m->dir);
    free(m);
}

void at_hf_get_info(const at_hf_model *m, at_hf_info *info)
{
    memset(info, 0, sizeof *info);
    info->cfg = &m->cfg;
    info->dir = m->dir;
    info->tokenizer = m->bpe ? "byte-level BPE" : "WordPiece";
    info->dtype = m->w.dtype[0] ? m->w.dtype : "F32";
    info->max_tokens = m->max_tokens;
    info->causal = m->cfg.family == AT_HF_GPT2;
    info->mapped_bytes = m->w.mapped_bytes;
    info->converted_bytes = m->w.converted_bytes;
    info->n_files = m->w.n_shards;
}

void at_hf_tokens_free(at_hf_tokens *t)
{
    if (!t)
        return;
    for (size_t i = 0; t->pieces && i < t->n; i++)
        free(t->pieces[i]);
    free(t->pieces);
    free(t->ids);
    at_tokens_free(&t->shown);
    memset(t, 0, sizeof *t);
}

/* The label of s[start .. start + len) (hf.h: at_hf_tokens). */
static char *label_of(const char *s, size_t slen, size_t start, size_t len)
{
    size_t a = start, b = start + len;
    int cut_start = 0, cut_end = 0;
    while (a > 0 && ((unsigned char)s[a] & 0xC0) == 0x80)
        a--, cut_start = 1;
    while (b < slen && ((unsigned char)s[b] & 0xC0) == 0x80)
        b++, cut_end = 1;
    char *out = malloc(3 * (b - a) + 3), *o = out;
    if (!out)
        return NULL;
    if (cut_start)
        *o++ = '~';
    for (size_t i = a; i < b; i++) {
        const char *mark = s[i] == ' ' ? "\xE2\x90\xA3" : s[i] == '\n' ? "\xE2\x86\xB5"
                         : s[i] == '\t' ? "\xE2\x87\xA5" : NULL;   /* ␣ ↵ ⇥ */
        if (mark) {
            memcpy(o, mark, 3);
            o += 3;
        } else {
            *o++ = s[i];
        }
    }
    if (cut_end)
        *o++ = '~';
    *o = '\0';
    return out;
}

int at_hf_tokenize(const at_hf_model *m, const char *s, size_t len, at_hf_tokens *out,
                   at_error *err)
{
    memset(out, 0, sizeof *out);
    if (len > AT_TOKENIZE_MAX_BYTES)
        return at_error_set(err, AT_ERANGE, "the sentence is %zu bytes; at most %d are taken",
                            len, AT_TOKENIZE_MAX_BYTES);
    size_t *start = NULL, *lens = NULL, n = 0;
    int rc = m->bpe ? at_bpe_encode(m->bpe, s, len, &out->ids, &start, &lens, &n, err)
                    : at_wordpiece_encode(m->wordpiece, s, len, &out->ids, &start, &lens, &n, err);
    if (rc || !n)
        goto out;
    out->n = n;
    out->pieces = calloc(n, sizeof *out->pieces);
    out->shown.items = calloc(n, sizeof *out->shown.items);
    if (!out->pieces || !out->shown.items) {
        rc = at_error_set(err, AT_ENOMEM, "out of memory");
        goto out;
    }
    out->shown.n = n;
    for (size_t i = 0; i < n; i++) {
        const char *piece = m->bpe ? at_bpe_piece(m->bpe, out->ids[i])
                                   : at_wordpiece_piece(m->wordpiece, out->ids[i]);
        at_token *t = &out->shown.items[i];
        t->start = start[i];
        t->len = lens[i];
        out->pieces[i] = strdup(piece ? piece : "");
        /* byte-level pieces: the sentence's own bytes; WordPiece: the piece itself
         * (lower-cased, "##" inside a word, [CLS]) */
        t->text = m->bpe ? label_of(s, len, start[i], lens[i]) : strdup(piece ? piece : "");
        if (!out->pieces[i] || !t->text) {
            rc = at_error_set(err, AT_ENOMEM, "out of memory");
            goto out;
        }
        t->width = (int)at_visible_width(t->text, strlen(t->text));
    }
out:
    free(start);
    free(lens);
    if (rc)
        at_hf_tokens_free(out);
    return rc;
}

int at_hf_attend(const at_hf_model *m, const at_hf_tokens *t, at_model_run *run, at_error *err)
{
    memset(run, 0, sizeof *run);
    if (!t || t->n == 0)
        return at_error_set(err, AT_EINVAL, "the sentence has no tokens");
    if (t->n > m->max_tokens)
        return at_error_set(err, AT_ERANGE, "the sentence has %zu tokens; this model takes at "
                            "most %zu", t->n, m->max_tokens);
    int rc = hf_run_alloc(m, t->n, run, err);
    if (rc)
        return rc;
    rc = m->cfg.family == AT_HF_GPT2 ? hf_gpt2_forward(m, t->ids, t->n, run, err)
                                     : hf_bert_forward(m, t->ids, t->n, run, err);
    if (rc)
        at_model_run_free(run);
    return rc;
}
