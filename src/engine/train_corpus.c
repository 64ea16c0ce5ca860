/* The training corpus: a YAML description (libcyaml, schema below, see
 * models/corpus.yaml) expanded into its sentences (train_generate.c, train_extra.c),
 * tokenised by the engine's tokenizer and split for evaluation. */
#include "engine/train_yaml.h"
#include "engine/file.h"

#include <cyaml/cyaml.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The corpus is a hand-written YAML file: far below this. */
#define CORPUS_MAX_BYTES (16 * 1024 * 1024)

static const cyaml_schema_value_t string_schema = {
    CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, CYAML_UNLIMITED),
};

#define STRINGS(key, type, member, min) \
    CYAML_FIELD_SEQUENCE(key, CYAML_FLAG_POINTER | ((min) ? 0 : CYAML_FLAG_OPTIONAL), type, \
                         member, &string_schema, min, CYAML_UNLIMITED)
#define STRING(key, flags, type, member, min, max) \
    CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER | (flags), type, member, min, max)

static const cyaml_schema_field_t list_fields[] = {
    STRING("name", 0, struct yaml_list, name, 1, CYAML_UNLIMITED),
    STRING("class", 0, struct yaml_list, cls, 1, CYAML_UNLIMITED),
    STRINGS("words", struct yaml_list, words, 1),
    STRINGS("held_out_words", struct yaml_list, held_out_words, 0),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t list_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct yaml_list, list_fields),
};

static const cyaml_schema_field_t pronoun_fields[] = {
    STRING("lang", 0, struct yaml_pronoun, lang, 2, 2),
    STRING("word", 0, struct yaml_pronoun, word, 1, CYAML_UNLIMITED),
    STRING("form", 0, struct yaml_pronoun, form, 1, CYAML_UNLIMITED),
    STRING("be", CYAML_FLAG_OPTIONAL, struct yaml_pronoun, be, 1, CYAML_UNLIMITED),
    STRINGS("refers", struct yaml_pronoun, refers, 1),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t pronoun_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct yaml_pronoun, pronoun_fields),
};

static const cyaml_schema_field_t frame_fields[] = {
    STRING("id", 0, struct yaml_frame, id, 1, CYAML_UNLIMITED),
    STRING("lang", 0, struct yaml_frame, lang, 2, 2),
    STRING("text", 0, struct yaml_frame, text, 1, CYAML_UNLIMITED),
    STRING("form", 0, struct yaml_frame, form, 1, CYAML_UNLIMITED),
    STRINGS("a", struct yaml_frame, a, 1),
    STRINGS("b", struct yaml_frame, b, 1),
    STRINGS("adj_a", struct yaml_frame, adj_a, 0),
    STRINGS("adj_b", struct yaml_frame, adj_b, 0),
    STRINGS("adj", struct yaml_frame, adj, 0),
    CYAML_FIELD_UINT("max_pairs", CYAML_FLAG_OPTIONAL, struct yaml_frame, max_pairs),
    CYAML_FIELD_BOOL("held_out_frame", CYAML_FLAG_OPTIONAL, struct yaml_frame, held_out_frame),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t frame_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct yaml_frame, frame_fields),
};

static const cyaml_schema_field_t noise_fields[] = {
    CYAML_FIELD_UINT("train", CYAML_FLAG_DEFAULT, struct yaml_noise, train),
    CYAML_FIELD_UINT("held_out", CYAML_FLAG_DEFAULT, struct yaml_noise, held_out),
    CYAML_FIELD_UINT("min_tokens", CYAML_FLAG_DEFAULT, struct yaml_noise, min_tokens),
    CYAML_FIELD_UINT("max_tokens", CYAML_FLAG_DEFAULT, struct yaml_noise, max_tokens),
    CYAML_FIELD_END
};

static const cyaml_schema_field_t probe_fields[] = {
    STRING("lang", 0, struct yaml_probe, lang, 2, 2),
    STRING("text", 0, struct yaml_probe, text, 1, CYAML_UNLIMITED),
    STRING("pronoun", CYAML_FLAG_OPTIONAL, struct yaml_probe, pronoun, 1, CYAML_UNLIMITED),
    STRING("antecedent", CYAML_FLAG_OPTIONAL, struct yaml_probe, antecedent, 1, CYAML_UNLIMITED),
    STRING("other", CYAML_FLAG_OPTIONAL, struct yaml_probe, other, 1, CYAML_UNLIMITED),
    CYAML_FIELD_END
};

static const cyaml_schema_value_t probe_schema = {
    CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct yaml_probe, probe_fields),
};

static const cyaml_schema_field_t corpus_fields[] = {
    CYAML_FIELD_UINT("seed", CYAML_FLAG_DEFAULT, struct yaml_corpus, seed),
    CYAML_FIELD_FLOAT("held_out", CYAML_FLAG_DEFAULT, struct yaml_corpus, held_out),
    CYAML_FIELD_SEQUENCE("lists", CYAML_FLAG_POINTER, struct yaml_corpus, lists, &list_schema,
                         1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("pronouns", CYAML_FLAG_POINTER, struct yaml_corpus, pronouns,
                         &pronoun_schema, 1, CYAML_UNLIMITED),
    CYAML_FIELD_SEQUENCE("frames", CYAML_FLAG_POINTER, struct yaml_corpus, frames, &frame_schema,
                         1, CYAML_UNLIMITED),
    CYAML_FIELD_MAPPING_PTR("noise", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct yaml_corpus,
                            noise, noise_fields),
    CYAML_FIELD_SEQUENCE("probes", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct yaml_corpus,
                         probes, &probe_schema, 0, CYAML_UNLIMITED),
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

int at_corpus_push(at_corpus *c, char *text, at_example **out, at_error *err)
{
    *out = NULL;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        at_example *ex = realloc(c->ex, cap * sizeof *ex);
        if (!ex) {
            free(text);
            return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
        }
        c->ex = ex;
        c->cap = cap;
    }
    at_example *e = &c->ex[c->n];
    memset(e, 0, sizeof *e);
    int rc = at_tokenize(text, strlen(text), &e->toks, err);
    if (rc) {
        free(text);
        return rc;
    }
    e->text = text;
    e->pronoun = e->frame = e->twin = AT_NO_INDEX;
    if (e->toks.n > c->max_tokens)
        c->max_tokens = e->toks.n;
    c->n++;
    *out = e;
    return AT_OK;
}

static const struct yaml_list *find_list(const struct yaml_corpus *y, const char *name)
{
    for (unsigned i = 0; i < y->lists_count; i++)
        if (!strcmp(y->lists[i].name, name))
            return &y->lists[i];
    return NULL;
}

static int check_frames(const struct yaml_corpus *y, at_error *err)
{
    for (unsigned fi = 0; fi < y->frames_count; fi++) {
        const struct yaml_frame *f = &y->frames[fi];
        for (unsigned k = 0; k < f->a_count + f->b_count; k++) {
            const char *name = k < f->a_count ? f->a[k] : f->b[k - f->a_count];
            if (!find_list(y, name))
                return at_error_set(err, AT_EINVAL, "corpus: frame '%s': no list named '%s'",
                                    f->id, name);
        }
        if (strcmp(f->lang, "en") && strcmp(f->lang, "zh"))
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': lang is en or zh", f->id);
        if (!strstr(f->text, "{a}") || !strstr(f->text, "{b}") || !strstr(f->text, "{p}"))
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': the text needs {a}, {b} "
                                "and {p}", f->id);
        int has_adj = strstr(f->text, "{adj}") != NULL;
        if (has_adj != (f->adj_a_count + f->adj_b_count + f->adj_count > 0))
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': %s", f->id, has_adj
                                ? "{adj} in the text needs adj_a, adj_b or adj"
                                : "adjectives are given but the text has no {adj}");
        unsigned fit = 0;
        for (unsigned p = 0; p < y->pronouns_count; p++)
            fit += !strcmp(y->pronouns[p].lang, f->lang) && !strcmp(y->pronouns[p].form, f->form);
        if (!fit)
            return at_error_set(err, AT_EINVAL, "corpus: frame '%s': no %s pronoun of form "
                                "'%s'", f->id, f->lang, f->form);
    }
    for (unsigned p = 0; p < y->pronouns_count; p++)
        if (strcmp(y->pronouns[p].lang, "en") && strcmp(y->pronouns[p].lang, "zh"))
            return at_error_set(err, AT_EINVAL, "corpus: pronoun '%s': lang is en or zh",
                                y->pronouns[p].word);
    return AT_OK;
}

/* "{a}" → "{boy-names/girl-names}", "{p}" → "{he/she}", "{be}" → "was" or
 * "{was/were}": the frame's text with its slots named. */
static char *pattern_of(const struct yaml_frame *f, const char *pronouns, const char *be)
{
    const char *slot[5] = {"{a}", "{b}", "{adj}", "{p}", "{be}"};
    char *names[2] = {NULL, NULL}, *p = NULL, *out = NULL;
    for (int s = 0; s < 2; s++) {
        char **lists = s ? f->b : f->a;
        unsigned n = s ? f->b_count : f->a_count;
        size_t len = 3;
        for (unsigned i = 0; i < n; i++)
            len += strlen(lists[i]) + 1;
        if (!(names[s] = malloc(len)))
            goto out;
        strcpy(names[s], "{");
        for (unsigned i = 0; i < n; i++)
            strcat(strcat(names[s], i ? "/" : ""), lists[i]);
        strcat(names[s], "}");
    }
    if (!(p = malloc(strlen(pronouns) + 3)))
        goto out;
    sprintf(p, "{%s}", pronouns);
    const char *fill[5] = {names[0], names[1], "{adj}", p, be};
    size_t len = strlen(f->text) + 1;
    for (int s = 0; s < 5; s++)
        len += 2 * strlen(fill[s]);
    if (!(out = malloc(len)))
        goto out;
    char *o = out;
    for (const char *t = f->text; *t;) {
        int k = -1;
        for (int s = 0; s < 5 && k < 0; s++)
            if (!strncmp(t, slot[s], strlen(slot[s])))
                k = s;
        if (k < 0) {
            *o++ = *t++;
            continue;
        }
        o = stpcpy(o, fill[k]);
        t += strlen(slot[k]);
    }
    *o = '\0';
out:
    free(names[0]);
    free(names[1]);
    free(p);
    return out;
}

/* The pronouns that fill {p} in a frame's sentences, "/"-joined ("he/she/it/they");
 * used [pronouns]: 0 unused, else AT_GEN_USED bits. */
static char *frame_pronouns(const struct yaml_corpus *y, const unsigned char *used)
{
    size_t len = 1;
    for (unsigned p = 0; p < y->pronouns_count; p++)
        len += strlen(y->pronouns[p].word) + 1;
    char *out = calloc(len, 1);
    for (unsigned p = 0; out && p < y->pronouns_count; p++) {
        const char *w = y->pronouns[p].word;
        int dup = 0;   /* her (object) and her (possessive) */
        for (unsigned q = 0; q < p; q++)
            dup |= used[q] && !strcmp(y->pronouns[q].word, w);
        if (used[p] && !dup)
            strcat(strcat(out, out[0] ? "/" : ""), w);
    }
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
        fi->held_out_frame = y->frames[i].held_out_frame;
        fi->example = AT_NO_INDEX;
        if (!fi->id || !fi->lang)
            return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    }
    return AT_OK;
}

/* Each frame's pattern, pronouns, count of training sentences and example (for
 * Chinese, one typed without spaces: the way students usually write it); the
 * corpus's pronouns (those of training sentences, in the order of the YAML). */
static int describe_frames(const struct yaml_corpus *y, at_corpus *c,
                           const unsigned char *used, at_error *err)
{
    const size_t np = y->pronouns_count;
    for (size_t i = 0; i < c->n; i++) {
        const at_example *e = &c->ex[i];
        if (e->kind != AT_EX_PRONOUN || e->split != AT_SPLIT_TRAIN)
            continue;
        at_frame_info *f = &c->frames[e->frame];
        f->n_train++;
        if (f->example == AT_NO_INDEX && (strcmp(f->lang, "zh") || !strchr(e->text, ' ')))
            f->example = i;
    }
    for (size_t fi = 0; fi < c->n_frames; fi++) {
        at_frame_info *f = &c->frames[fi];
        const char *be = NULL;   /* "was", "were", or both */
        for (size_t p = 0; p < np; p++) {
            const char *b = y->pronouns[p].be ? y->pronouns[p].be : "was";
            if (used[fi * np + p])
                be = !be || !strcmp(be, b) ? b : "{was/were}";
        }
        f->pronoun = frame_pronouns(y, used + fi * np);
        f->pattern = f->pronoun ? pattern_of(&y->frames[fi], f->pronoun, be ? be : "")
                                : NULL;
        if (!f->pattern)
            return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    }
    c->pronouns = calloc(np + 1, sizeof *c->pronouns);
    if (!c->pronouns)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    for (size_t p = 0; p < np; p++) {
        const char *w = y->pronouns[p].word;
        int trained = 0, dup = 0;
        for (size_t k = 0; k < c->n_pronouns; k++)
            dup |= !strcmp(c->pronouns[k], w);
        for (size_t fi = 0; fi < c->n_frames; fi++)
            trained |= (used[fi * np + p] & AT_GEN_TRAINED) != 0;
        if (trained && !dup && !(c->pronouns[c->n_pronouns++] = strdup(w)))
            return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    }
    return AT_OK;
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
    c->seed = y->seed;
    unsigned char *used = NULL;
    if ((rc = check_frames(y, err)) || (rc = copy_frames(y, c, err)))
        goto out;
    if (!(used = calloc((size_t)y->frames_count * y->pronouns_count, 1))) {
        rc = at_error_set(err, AT_ENOMEM, "corpus: out of memory");
        goto out;
    }
    if ((rc = at_gen_frames(y, c, used, err)) || (rc = describe_frames(y, c, used, err)) ||
        (rc = at_gen_noise(y, c, err)) || (rc = at_gen_probes(y, c, err)))
        goto out;
out:
    free(used);
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
    for (size_t i = 0; c->pronouns && i < c->n_pronouns; i++)
        free(c->pronouns[i]);
    free(c->pronouns);
    memset(c, 0, sizeof *c);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The vocabulary is made of the training split's pronoun sentences. */
static int in_vocab(const at_example *e)
{
    return e->kind == AT_EX_PRONOUN && e->split == AT_SPLIT_TRAIN;
}

int at_corpus_vocab(const at_corpus *c, char ***words, size_t *n, at_error *err)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < c->n; i++)
        total += in_vocab(&c->ex[i]) ? c->ex[i].toks.n : 0;
    char **w = calloc(total + 1, sizeof *w);
    if (!w)
        return at_error_set(err, AT_ENOMEM, "corpus: out of memory");
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = 0; in_vocab(&c->ex[i]) && j < c->ex[i].toks.n; j++) {
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
