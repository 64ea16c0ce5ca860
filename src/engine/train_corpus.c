/* The training corpus: a YAML description (libcyaml) expanded into every sentence
 * of every frame, tokenised by the engine's tokenizer and split for evaluation. */
#include "engine/train.h"
#include "engine/file.h"

#include <cyaml/cyaml.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The corpus is a hand-written YAML file: far below this. */
#define CORPUS_MAX_BYTES (16 * 1024 * 1024)

/* The YAML file, one to one. */
struct yaml_list {
    char *name;                 /* name */
    char **words;               /* words */
    unsigned words_count;
};

struct yaml_frame {
    char *id;                   /* id */
    char *lang;                 /* lang */
    char *text;                 /* text: with {a}, {b}, {adj} */
    char *pronoun;              /* pronoun */
    char *a, *b;                /* a, b: list names */
    char **adj_a;               /* adj_a */
    unsigned adj_a_count;
    char **adj_b;               /* adj_b */
    unsigned adj_b_count;
    bool held_out_frame;        /* held_out_frame */
};

struct yaml_corpus {
    unsigned long seed;         /* seed */
    double held_out;            /* held_out */
    struct yaml_list *lists;    /* lists */
    unsigned lists_count;
    struct yaml_frame *frames;  /* frames */
    unsigned frames_count;
};

static const cyaml_schema_value_t string_schema = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, CYAML_UNLIMITED),
};

static const cyaml_schema_field_t list_fields[] = {
    CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_POINTER, struct yaml_list, name, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("words", CYAML_FLAG_POINTER, struct yaml_list, words, &string_schema,
                         1, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t list_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct yaml_list, list_fields),
};

static const cyaml_schema_field_t frame_fields[] = {
    CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, struct yaml_frame, id, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("lang", CYAML_FLAG_POINTER, struct yaml_frame, lang, 2, 2),
    CYAML_FIELD_STRING_PTR("text", CYAML_FLAG_POINTER, struct yaml_frame, text, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("pronoun", CYAML_FLAG_POINTER, struct yaml_frame, pronoun, 1,
                           CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("a", CYAML_FLAG_POINTER, struct yaml_frame, a, 1, CYAML_UNLIMITED),
    CYAML_FIELD_STRING_PTR("b", CYAML_FLAG_POINTER, struct yaml_frame, b, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("adj_a", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct yaml_frame,
                         adj_a, &string_schema, 0, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("adj_b", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct yaml_frame,
                         adj_b, &string_schema, 0, CYAML_UNLIMITED),
    CYAML_FIELD_BOOL("held_out_frame", CYAML_FLAG_OPTIONAL, struct yaml_frame, held_out_frame),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t frame_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct yaml_frame, frame_fields),
};

static const cyaml_schema_field_t corpus_fields[] = {
    CYAML_FIELD_UINT("seed", CYAML_FLAG_DEFAULT, struct yaml_corpus, seed),
    CYAML_FIELD_FLOAT("held_out", CYAML_FLAG_DEFAULT, struct yaml_corpus, held_out),
    CYAML_FIELD_SEQUENCE("lists", CYAML_FLAG_POINTER, struct yaml_corpus, lists, &list_schema,
                         1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("frames", CYAML_FLAG_POINTER, struct yaml_corpus, frames, &frame_schema,
                         1, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t corpus_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct yaml_corpus, corpus_fields),
};

/* libcyaml's messages are kept (the last error) rather than printed. */
typedef struct yaml_log {
    char msg[256];
} yaml_log;

static void keep_log(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
    yaml_log *l = ctx;
    if (level < CYAML_LOG_ERROR || l->msg[0])
        return;
    vsnprintf(l->msg, sizeof l->msg, fmt, args);
    l->msg[strcspn(l->msg, "\n")] = '\0';
}

static const struct yaml_list *find_list(const struct yaml_corpus *y, const char *name)
{
    for (unsigned i = 0; i < y->lists_count; i++)
        if (!strcmp(y->lists[i].name, name))
            return &y->lists[i];
    return NULL;
}

/* Fill the template; byte spans of {a}, {b}, {adj} into bspan. */
static char *fill(const char *tpl, const char *const slot[3], size_t bspan[3][2])
{
    static const char *const names[3] = {"{a}", "{b}", "{adj}"};
    size_t cap = strlen(tpl) + strlen(slot[0]) + strlen(slot[1]) + strlen(slot[2]) + 1;
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    memset(bspan, 0, 3 * sizeof bspan[0]);
    for (const char *p = tpl; *p;) {
        int k = -1;
        for (int s = 0; s < 3; s++)
            if (!strncmp(p, names[s], strlen(names[s])))
                k = s;
        if (k < 0) {
            *o++ = *p++;
            continue;
        }
        bspan[k][0] = (size_t)(o - out);
        o = stpcpy(o, slot[k]);
        bspan[k][1] = (size_t)(o - out);
        p += strlen(names[k]);
    }
    *o = '\0';
    return out;
}

static int add_example(at_corpus *c, size_t frame, const struct yaml_frame *f,
                       const char *tpl, const char *const slot[3], int answer, int split,
                       at_error *err)
{
    size_t bspan[3][2];
    char *text = fill(tpl, slot, bspan);
    if (!text)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    at_example *e = &c->ex[c->n];
    memset(e, 0, sizeof *e);
    int rc = at_tokenize(text, strlen(text), &e->toks, err);
    if (rc)
        goto out;
    e->pronoun = (size_t)-1;
    for (size_t k = 0; k < 3; k++)
        e->span[k][0] = e->span[k][1] = 0;
    int seen[3] = {0};
    for (size_t i = 0; i < e->toks.n; i++) {
        const at_token *t = &e->toks.items[i];
        if (e->pronoun == (size_t)-1 && !strcmp(t->text, f->pronoun))
            e->pronoun = i;
        for (int k = 0; k < 3; k++)
            if (t->start >= bspan[k][0] && t->start + t->len <= bspan[k][1]) {
                if (!seen[k]++)
                    e->span[k][0] = i;
                e->span[k][1] = i + 1;
            }
    }
    if (e->pronoun == (size_t)-1 || !seen[0] || !seen[1] || !seen[2] ||
        e->span[0][1] - e->span[0][0] > AT_MAX_SPAN || e->span[1][1] - e->span[1][0] > AT_MAX_SPAN) {
        rc = at_error_set(err, AT_EINVAL, "corpus: frame '%s': in \"%s\" the pronoun '%s' or a "
                          "noun is not a whole token", f->id, text, f->pronoun);
        at_tokens_free(&e->toks);
        goto out;
    }
    e->answer = answer;
    e->frame = frame;
    e->split = split;
    e->text = text;
    text = NULL;
    if (e->toks.n > c->max_tokens)
        c->max_tokens = e->toks.n;
    c->n++;
out:
    free(text);
    return rc;
}

static size_t frame_count(const struct yaml_frame *f, const struct yaml_list *a,
                          const struct yaml_list *b)
{
    size_t variants = strcmp(f->lang, "zh") ? 1 : 2;
    return variants * a->words_count * b->words_count * (f->adj_a_count + f->adj_b_count);
}

/* A copy of s without ASCII spaces (Chinese written without word breaks). */
static char *joined(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; out && *s; s++)
        if (*s != ' ')
            *o++ = *s;
    if (out)
        *o = '\0';
    return out;
}

/* The template, for Chinese with a final 。 or without (half of the sentences each,
 * drawn from punct: students type both). */
static char *with_stop(const struct yaml_frame *f, uint64_t *punct)
{
    int stop = !strcmp(f->lang, "zh") && at_rng_uniform(punct) < 0.5f;
    size_t len = strlen(f->text);
    char *t = malloc(len + sizeof " 。");
    if (t) {
        memcpy(t, f->text, len + 1);
        if (stop)
            strcat(t, " 。");
    }
    return t;
}

/* One sentence as written; for Chinese also the same sentence without the spaces
 * between words (then every character is a token), so that both ways a student may
 * type it are trained on. */
static int add_variants(at_corpus *c, size_t fi, const struct yaml_frame *f,
                        const char *const slot[3], int answer, int split, uint64_t *punct,
                        at_error *err)
{
    char *tpl = with_stop(f, punct);
    int rc = tpl ? add_example(c, fi, f, tpl, slot, answer, split, err)
                 : at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    free(tpl);
    if (rc || strcmp(f->lang, "zh"))
        return rc;
    char *t2 = with_stop(f, punct), *jt = t2 ? joined(t2) : NULL;
    char *js[3] = {joined(slot[0]), joined(slot[1]), joined(slot[2])};
    if (!jt || !js[0] || !js[1] || !js[2])
        rc = at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    else
        rc = add_example(c, fi, f, jt, (const char *const *)js, answer, split, err);
    free(t2);
    free(jt);
    for (int k = 0; k < 3; k++)
        free(js[k]);
    return rc;
}

static int generate(const struct yaml_corpus *y, at_corpus *c, at_error *err)
{
    uint64_t rng = y->seed, punct = y->seed ^ 0x2E2E2E2Eull;
    for (unsigned fi = 0; fi < y->frames_count; fi++) {
        const struct yaml_frame *f = &y->frames[fi];
        const struct yaml_list *A = find_list(y, f->a), *B = find_list(y, f->b);
        for (unsigned i = 0; i < A->words_count; i++)
            for (unsigned j = 0; j < B->words_count; j++)
                for (unsigned k = 0; k < f->adj_a_count + f->adj_b_count; k++) {
                    int answer = k >= f->adj_a_count;
                    const char *adj = answer ? f->adj_b[k - f->adj_a_count] : f->adj_a[k];
                    const char *slot[3] = {A->words[i], B->words[j], adj};
                    int split = f->held_out_frame ? AT_SPLIT_HELD_OUT_FRAME
                                : at_rng_uniform(&rng) < y->held_out ? AT_SPLIT_HELD_OUT
                                                                     : AT_SPLIT_TRAIN;
                    int rc = add_variants(c, fi, f, slot, answer, split, &punct, err);
                    if (rc)
                        return rc;
                }
    }
    return AT_OK;
}

static int check_frames(const struct yaml_corpus *y, size_t *total, at_error *err)
{
    *total = 0;
    for (unsigned fi = 0; fi < y->frames_count; fi++) {
        const struct yaml_frame *f = &y->frames[fi];
        const struct yaml_list *A = find_list(y, f->a), *B = find_list(y, f->b);
        if (!A || !B)
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': no list named '%s'", f->id,
                                A ? f->b : f->a);
        if (strcmp(f->lang, "en") && strcmp(f->lang, "zh"))
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': lang is en or zh", f->id);
        if (!strstr(f->text, "{a}") || !strstr(f->text, "{b}") || !strstr(f->text, "{adj}"))
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': the text needs {a}, {b} "
                                "and {adj}", f->id);
        *total += frame_count(f, A, B);
    }
    return AT_OK;
}

/* "{a}" → "{animal}": the frame's text with the slots named after their lists. */
static char *pattern_of(const struct yaml_frame *f)
{
    size_t la = strlen(f->a) + 3, lb = strlen(f->b) + 3;
    char *a = malloc(la), *b = malloc(lb), *out = NULL;
    size_t bspan[3][2];
    if (a && b) {
        snprintf(a, la, "{%s}", f->a);
        snprintf(b, lb, "{%s}", f->b);
        out = fill(f->text, (const char *const[3]){a, b, "{adj}"}, bspan);
    }
    free(a);
    free(b);
    return out;
}

static int copy_frames(const struct yaml_corpus *y, at_corpus *c, at_error *err)
{
    c->frames = calloc(y->frames_count, sizeof *c->frames);
    if (!c->frames)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    c->n_frames = y->frames_count;
    for (unsigned i = 0; i < y->frames_count; i++) {
        at_frame_info *fi = &c->frames[i];
        fi->id = strdup(y->frames[i].id);
        fi->lang = strdup(y->frames[i].lang);
        fi->pattern = pattern_of(&y->frames[i]);
        fi->pronoun = strdup(y->frames[i].pronoun);
        fi->held_out_frame = y->frames[i].held_out_frame;
        fi->example = (size_t)-1;
        if (!fi->id || !fi->lang || !fi->pattern || !fi->pronoun)
            return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    }
    return AT_OK;
}

/* Each frame's count of training sentences and its example (for Chinese, one typed
 * without spaces: the way students usually write it). */
static void count_frames(at_corpus *c)
{
    for (size_t i = 0; i < c->n; i++) {
        const at_example *e = &c->ex[i];
        at_frame_info *f = &c->frames[e->frame];
        if (e->split != AT_SPLIT_TRAIN)
            continue;
        f->n_train++;
        if (f->example == (size_t)-1 && (strcmp(f->lang, "zh") || !strchr(e->text, ' ')))
            f->example = i;
    }
}

int at_corpus_load(const char *path, at_corpus *c, at_error *err)
{
    memset(c, 0, sizeof *c);
    yaml_log log = {{0}};
    const cyaml_config_t cfg = {.log_fn = keep_log, .log_ctx = &log, .mem_fn = cyaml_mem,
                                .log_level = CYAML_LOG_ERROR, .flags = CYAML_CFG_NO_ALIAS};
    struct yaml_corpus *y = NULL;
    char *data;
    size_t len;
    at_error why;
    int rc = at_file_read(path, "a training corpus (YAML)", CORPUS_MAX_BYTES, &data, &len, &why);
    if (rc)
        return at_error_set(err, rc, "%s: %s", path, why.msg);
    cyaml_err_t yr = cyaml_load_data((const uint8_t *)data, len, &cfg, &corpus_schema,
                                     (cyaml_data_t **)&y, NULL);
    free(data);
    if (yr != CYAML_OK)
        return at_error_set(err, AT_EINVAL, "%s: %s%s%s", path, cyaml_strerror(yr),
                            log.msg[0] ? ": " : "", log.msg);
    size_t total;
    rc = check_frames(y, &total, err);
    if (rc)
        goto out;
    c->seed = y->seed;
    c->ex = calloc(total ? total : 1, sizeof *c->ex);
    if (!c->ex) {
        rc = at_error_set(err, AT_ENOMEM, "corpus: out of memory");
        goto out;
    }
    if ((rc = copy_frames(y, c, err)) || (rc = generate(y, c, err)))
        goto out;
    count_frames(c);
out:
    cyaml_free(&cfg, &corpus_schema, y, 0);
    return rc;
}

void at_corpus_free(at_corpus *c)
{
    for (size_t i = 0; c->ex && i < c->n; i++) {
        at_tokens_free(&c->ex[i].toks);
        free(c->ex[i].feats);
        free(c->ex[i].text);
    }
    free(c->ex);
    for (size_t i = 0; c->frames && i < c->n_frames; i++) {
        free(c->frames[i].id);
        free(c->frames[i].lang);
        free(c->frames[i].pattern);
        free(c->frames[i].pronoun);
    }
    free(c->frames);
    memset(c, 0, sizeof *c);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int at_corpus_vocab(const at_corpus *c, char ***words, size_t *n, at_error *err)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < c->n; i++)
        total += c->ex[i].split == AT_SPLIT_TRAIN ? c->ex[i].toks.n : 0;
    char **w = calloc(total + 1, sizeof *w);
    if (!w)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; c->ex[i].split == AT_SPLIT_TRAIN && j < c->ex[i].toks.n; j++) {
            const at_token *t = &c->ex[i].toks.items[j];
            if (!(w[k++] = at_model_lower(t->text, strlen(t->text)))) {
                for (size_t x = 0; x < k; x++)
                    free(w[x]);
                free(w);
                return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
            }
        }
    qsort(w, k, sizeof *w, cmp_str);
    size_t u = 0;
    for (size_t i = 0; i < k; i++) {
        if (u > 0 && !strcmp(w[u - 1], w[i]))
            free(w[i]);
        else
            w[u++] = w[i];
    }
    *words = w;
    *n = u;
    return AT_OK;
}

int at_corpus_featurize(at_corpus *c, const at_model *m, at_error *err)
{
    for (size_t i = 0; i < c->n; i++) {
        at_example *e = &c->ex[i];
        free(e->feats);
        e->feats = calloc(e->toks.n, sizeof *e->feats);
        if (!e->feats)
            return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
        int rc = at_model_featurize(m, &e->toks, e->feats, err);
        if (rc)
            return rc;
    }
    return AT_OK;
}

size_t at_example_ids(const at_example *e, int which, long *ids)
{
    size_t n = 0;
    for (size_t i = e->span[which][0]; i < e->span[which][1]; i++) {
        long id = e->feats[i].id;
        int dup = id < 0;
        for (size_t k = 0; k < n && !dup; k++)
            dup = ids[k] == id;
        if (!dup && n < AT_MAX_SPAN)
            ids[n++] = id;
    }
    return n;
}
