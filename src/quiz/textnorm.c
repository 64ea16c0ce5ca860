/* Normalisation of text answers and rubric phrases (the steps are in textnorm.h). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/textnorm.h"
#include "quiz/compiled.h"   /* the grader's words of "respectively" */

#include <stdint.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unicase.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

#include "quiz/imeslip.h"
#include "quiz/lang.h"
#include "quiz/textlibs.h"

#ifndef AT_OPENCC_DIR
#define AT_OPENCC_DIR "/usr/share/opencc"
#endif
/* OpenCC's OPENCC_DEFAULT_CONFIG_TRAD_TO_SIMP */
#define T2S_CONFIG "t2s.json"

/* ---- the converters */

/* OpenCC's t2s.json, looked up by name, then in OpenCC's data folder and
 * $OPENCC_DATA_DIR; NULL when OpenCC or the file is missing. */
static void *open_t2s(const qz_textlibs *lib)
{
    if (!lib->has_opencc)
        return NULL;
    const char *dirs[] = {NULL, AT_OPENCC_DIR, getenv("OPENCC_DATA_DIR")};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[4096];
        if (i && !dirs[i])
            continue;
        snprintf(path, sizeof path, "%s%s%s", dirs[i] ? dirs[i] : "", dirs[i] ? "/" : "",
                 T2S_CONFIG);
        void *o = lib->opencc_open(path);
        if (o != (void *)-1 && o)
            return o;
    }
    return NULL;
}

int qz_norm_open(qz_norm *nm, at_error *err)
{
    memset(nm, 0, sizeof *nm);
    const qz_textlibs *lib = qz_textlibs_get(err);
    if (!lib)
        return err ? err->code : AT_EINVAL;
    nm->lib = lib;
    nm->stemmer = lib->sb_stemmer_new("english", "UTF_8");
    if (!nm->stemmer)
        return at_error_set(err, AT_ENOMEM, "out of memory (English stemmer)");
    nm->t2s = open_t2s(lib);
    return AT_OK;
}

/* In Taiwan 列 is a row and 行 a column, the other way round from the mainland (and Hong
 * Kong): in a text written in Traditional characters, 每一列, 按列, 逐列, 各列, 沿列 are
 * read as rows (行), in place (both are three bytes). Only where it counts rows of a
 * matrix: 列表, 序列 are left. */
static void taiwan_rows(char *simp)
{
    static const char *const before[] = {"每", "一", "按", "逐", "各", "沿"};
    for (char *p = strstr(simp, "列"); p; p = strstr(p + 3, "列")) {
        int row = 0;
        for (size_t b = 0; b < sizeof before / sizeof *before && !row; b++)
            row = p - simp >= 3 && !strncmp(p - 3, before[b], 3);
        if (row)
            memcpy(p, "行", 3);
    }
}

char *qz_simplified_same_offsets(const char *s)
{
    size_t n = strlen(s);
    int han = 0;
    for (const char *p = s; *p && !han; p++)
        han = (unsigned char)*p >= 0xe0;
    if (!han || u8_check((const uint8_t *)s, n))
        return NULL;
    const qz_textlibs *lib = qz_textlibs_get(NULL);
    void *t2s = lib ? open_t2s(lib) : NULL;
    if (!t2s)
        return NULL;
    char *simp = lib->opencc_convert_utf8(t2s, s, n), *out = NULL;
    lib->opencc_close(t2s);
    if (!simp)
        return NULL;
    if (strlen(simp) == n && strcmp(simp, s)) {
        /* same length in bytes is not enough: each character must keep its place */
        int same = 1;
        for (size_t i = 0; i < n && same; i++)
            same = ((unsigned char)s[i] & 0xc0) == ((unsigned char)simp[i] & 0xc0) &&
                   ((unsigned char)s[i] < 0x80) == ((unsigned char)simp[i] < 0x80);
        out = same ? strdup(simp) : NULL;
        if (out)
            taiwan_rows(out);
    }
    lib->opencc_convert_utf8_free(simp);
    return out;
}

void qz_norm_close(qz_norm *nm)
{
    const qz_textlibs *lib = nm->lib;
    if (nm->stemmer)
        lib->sb_stemmer_delete(nm->stemmer);
    if (nm->t2s)
        lib->opencc_close(nm->t2s);
    memset(nm, 0, sizeof *nm);
}

int qz_norm_has_t2s(const qz_norm *nm)
{
    return nm->t2s != NULL;
}

/* ---- token list */

typedef struct toks {
    qz_tok *v;
    size_t n, cap;
    int failed;
} toks;

/* Room for `more` tokens after the n there are; 0, or -1 (t->failed set) when out of memory. */
static int grow(toks *t, size_t more)
{
    if (t->n + more <= t->cap)
        return 0;
    size_t cap = t->cap ? 2 * t->cap : 32;
    while (cap < t->n + more)
        cap *= 2;
    qz_tok *v = realloc(t->v, cap * sizeof *v);
    if (!v) {
        t->failed = 1;
        return -1;
    }
    t->v = v;
    t->cap = cap;
    return 0;
}

static void push(toks *t, const char *s, size_t len, const char *raw, size_t raw_len, qz_tok_kind k)
{
    if (t->failed || grow(t, 1))
        return;
    qz_tok *x = &t->v[t->n];
    x->s = strndup(s, len);
    x->raw = strndup(raw, raw_len);
    x->kind = k;
    x->owned = 0;
    if (!x->s || !x->raw) {
        free(x->s);
        free(x->raw);
        t->failed = 1;
        return;
    }
    t->n++;
}

static void drop(toks *t, size_t i, size_t n)
{
    for (size_t k = i; k < i + n; k++) {
        free(t->v[k].s);
        free(t->v[k].raw);
    }
    memmove(&t->v[i], &t->v[i + n], (t->n - i - n) * sizeof *t->v);
    t->n -= n;
}

/* Replace tokens [i, i + n) by one word w. */
static void replace(toks *t, size_t i, size_t n, const char *w)
{
    char *s = strdup(w), *r = strdup(w);
    if (!s || !r) {
        free(s);
        free(r);
        t->failed = 1;
        return;
    }
    free(t->v[i].s);
    free(t->v[i].raw);
    t->v[i] = (qz_tok){s, r, QZ_TK_WORD, 0};
    if (n > 1)
        drop(t, i + 1, n - 1);
}

void qz_text_free(qz_text *t)
{
    for (size_t i = 0; t && i < t->n; i++) {
        free(t->t[i].s);
        free(t->t[i].raw);
    }
    if (t) {
        free(t->t);
        t->t = NULL;
        t->n = 0;
    }
}

int qz_tok_is(const qz_text *t, size_t i, const char *w)
{
    return i < t->n && !strcmp(t->t[i].s, w);
}

int qz_tok_raw_is(const qz_text *t, size_t i, const char *w)
{
    return i < t->n && !strcmp(t->t[i].raw, w);
}

/* ---- characters */

size_t qz_correction_word_at(const char *s, size_t n)
{
    static const char *const w[] = {"sorry", "wait", "oops", "no,", "no wait", "no sorry", "no no",
                                    "actually", "i mean", "scratch", "correction", "corrected",
                                    "更正", "改成", "改为", "不对", "应该是", NULL};
    for (size_t k = 0; w[k]; k++)
        if (n >= strlen(w[k]) && !strncasecmp(s, w[k], strlen(w[k])))
            return strlen(w[k]);
    return 0;
}

/* Does the clause before byte i (back to the last . ; , : ! ?) deny something with "not",
 * "-n't" or "no"? Then " - " after it ends it, and may turn to what holds ("Q: not the
 * encoder - the decoder supplies it"). */
static int denial_before(const uint8_t *f, size_t i)
{
    size_t a = i;
    while (a > 0 && !strchr(".;,:!?", f[a - 1]))
        a--;
    for (size_t k = a; k + 3 <= i; k++) {
        int start = k == a || !isalpha(f[k - 1]);
        if (start && !strncmp((const char *)f + k, "not", 3) && (k + 3 == i || !isalpha(f[k + 3])))
            return 1;
        /* "No decoder needed - the output is one label": a clause denied by "no" ends */
        if (start && !strncmp((const char *)f + k, "no", 2) && k + 2 < i && f[k + 2] == ' ')
            return 1;
        if (!strncmp((const char *)f + k, "n't", 3) && k > a && isalpha(f[k - 1]))
            return 1;
    }
    return 0;
}

/* Is the clause before the " - " at byte i a label of the roles, one to three words that
 * name queries, keys or values ("Queries -", "keys & values -")? */
static int label_before(const uint8_t *f, size_t i)
{
    static const char *const heads[] = {"queries", "query", "keys", "key", "values", "value",
                                        NULL};
    size_t a = i;
    while (a > 0 && !strchr(".;,:!?/(", f[a - 1]))
        a--;
    int words = 0, head = 0;
    for (size_t k = a; k < i;) {
        while (k < i && (f[k] == ' ' || f[k] == '&'))
            k++;
        size_t b = k;
        while (b < i && isalpha(f[b]))
            b++;
        if (b == k)
            return k >= i && words > 0 && head;
        words++;
        for (size_t h = 0; heads[h]; h++)
            head |= b - k == strlen(heads[h]) && !strncmp((const char *)f + k, heads[h], b - k);
        if (!head && !(b - k == 3 && !strncmp((const char *)f + k, "and", 3)))
            return 0;
        k = b;
    }
    return words > 0 && words <= 3 && head;
}

/* Is the word before the " - " at byte i a bare yes or no opening its sentence ("…? No -
 * they vanish")? */
static int reply_before(const uint8_t *f, size_t i)
{
    static const char *const w[] = {"no", "nope", "nah", "yes", "yeah", "yep", NULL};
    size_t b = i;
    while (b > 0 && f[b - 1] == ' ')
        b--;
    size_t a = b;
    while (a > 0 && isalpha(f[a - 1]))
        a--;
    size_t m = a;
    while (m > 0 && f[m - 1] == ' ')
        m--;
    if (m > 0 && !strchr(".;:!?", f[m - 1]))
        return 0;
    for (size_t k = 0; w[k]; k++)
        if (b - a == strlen(w[k]) && !strncmp((const char *)f + a, w[k], b - a))
            return 1;
    return 0;
}

/* Does a correction word follow (spaces skipped)? (f: the folded text, n bytes) */
static int correction_after(const unsigned char *f, size_t n)
{
    size_t i = 0;
    while (i < n && f[i] == ' ')
        i++;
    return qz_correction_word_at((const char *)f + i, n - i) > 0;
}

static int word_char(ucs4_t c)
{
    if (c < 0x80)
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '\'';
    return c != 0x2019 && uc_is_property_alphabetic(c) && !qz_is_han(c);
}

/* What "~" may stand before as "about": a letter, a digit or a root ("~1", "~ n", "~ √dₖ"). */
static int about_what(const uint8_t *p, size_t n)
{
    return n > 0 && (isalnum(p[0]) || (n >= 3 && !memcmp(p, "\xe2\x88\x9a", 3)));
}

/* The tokens of folded text f[0, n): words, numbers, Han characters and marks. */

/* " / " between two clauses of words: the lines of an answer typed on one line ("RNN:
 * O(n), step by step / attention: O(1)"), not a division ("QKᵀ / √dₖ", "x / sqrt(d)"):
 * a word of three letters or more, or a Han character, on each side. */
static int line_slash(const toks *t, const uint8_t *f, size_t i, size_t n)
{
    if (!i || i + 2 >= n || f[i - 1] != ' ' || f[i + 1] != ' ' || !t->n)
        return 0;
    const qz_tok *prev = &t->v[t->n - 1];
    int before = prev->kind == QZ_TK_HAN ||
                 (prev->kind == QZ_TK_WORD && strlen(prev->s) >= 3 && strcmp(prev->s, "sqrt"));
    /* two words at least in the clause before it, and no "=" there: "softmax = score /
     * sum of scores" is a division */
    size_t words = 0;
    for (size_t k = t->n; before && k-- > 0 && strcmp(t->v[k].s, ".") && strcmp(t->v[k].s, "。") &&
                           strcmp(t->v[k].s, ";") && strcmp(t->v[k].s, "；") &&
                           strcmp(t->v[k].s, ",") && strcmp(t->v[k].s, "，");) {
        before = strcmp(t->v[k].s, "=") != 0;
        words += t->v[k].kind != QZ_TK_MARK;
    }
    before &= words >= 2;
    ucs4_t c;
    size_t j = i + 2, w = 0;
    if (u8_mbtouc(&c, f + j, n - j) <= 0)
        return 0;
    if (qz_is_han(c) || c == '[' || c == '(')
        return before;   /* "encoder enough / [CLS] …", "… / (2) pooling" */
    while (j + w < n && isalpha(f[j + w]))
        w++;
    return before && w >= 3 && strncmp((const char *)f + j, "sqrt", 4) &&
           strncmp((const char *)f + j, "sum", 3) && strncmp((const char *)f + j, "total", 5) &&
           strncmp((const char *)f + j, "math", 4) && strncmp((const char *)f + j, "torch", 5) &&
           strncmp((const char *)f + j, "np.", 3);
}

/* Does the line at f open an item of its own: after a blank line, or, after a short
 * line (under 60 bytes), with a label of a word or two ("attention: …", "selfattention =
 * o(1)", 自注意力：…)? A line that only goes on with the sentence before (text wrapped at
 * a width: "… one time step at a / time: two words …") does not. (The text is folded:
 * no capitals tell a label.) */
static int line_opens_item(const uint8_t *f, size_t n, size_t before)
{
    size_t i = 0;
    while (i < n && (f[i] == ' ' || f[i] == '\t' || f[i] == '\r'))
        i++;
    if (i < n && f[i] == '\n')
        return 1;
    if (i >= n || before >= 60)
        return 0;
    int latin = f[i] < 0x80;
    size_t words = 0, han = 0;
    for (size_t j = i; j < n && j < i + 40 && f[j] != '\n';) {
        if (f[j] == ':' || f[j] == '=' || !strncmp((const char *)f + j, "：", 3))
            return j > i && (latin ? words < 2 : han <= 6);
        if (f[j] == ' ')
            words++;
        else if (!latin && f[j] >= 0xe0)
            han++;
        else if (!latin && f[j] < 0x80)
            return 0;   /* a Chinese label is Chinese */
        j += f[j] >= 0xf0 ? 4 : f[j] >= 0xe0 ? 3 : f[j] >= 0xc0 ? 2 : 1;
    }
    return 0;
}

/* Does the text at p (n bytes) name a part or a side right after 的那: 部分, 一半, 一边, 一方,
 * 一侧, 边, 半? */
static int demonstrated_part(const char *p, size_t n)
{
    static const char *const parts[] = {"部分", "一半", "一边", "一方", "一侧", "边", "半", NULL};
    for (size_t k = 0; parts[k]; k++)
        if (n >= strlen(parts[k]) && !strncmp(p, parts[k], strlen(parts[k])))
            return 1;
    return 0;
}

static void tokenize(toks *t, const uint8_t *f, size_t n)
{
    for (size_t i = 0, line = 0; i < n && !t->failed;) {
        ucs4_t c;
        int l = u8_mbtouc(&c, f + i, n - i);
        if (l <= 0)
            break;
        if (i && f[i - 1] == '\n')
            line = i;   /* where the line holding i starts */
        if ((c == '\n' || c == 0x2028) && t->n && t->v[t->n - 1].kind != QZ_TK_MARK &&
            line_opens_item(f + i + l, n - i - (size_t)l, i - line)) {
            push(t, ".", 1, "\n", 1, QZ_TK_MARK);   /* the line before ends a sentence */
            i += (size_t)l;
        } else if (uc_is_space(c) || c == 0x3000 || c == 0xa0) {
            i += (size_t)l;
        } else if (c == '/' && line_slash(t, f, i, n)) {
            push(t, ".", 1, "/", 1, QZ_TK_MARK);
            i += 1;
        } else if ((c == 'x' || c == 'X' || c == 0xd7 || c == 0x2717 || c == 0x2718) && i > 0 &&
                   f[i - 1] == ' ' && i + (size_t)l < n && f[i + (size_t)l] == ' ' &&
                   correction_after(f + i + (size_t)l, n - i - (size_t)l)) {
            /* a strike mark before a correction ("Q 来自 encoder X 不对，…", "✗ wait"): it
             * ends the clause the correction takes back, as a dash does */
            push(t, "—", strlen("—"), (const char *)f + i, (size_t)l, QZ_TK_MARK);
            i += (size_t)l;
        } else if (word_char(c)) {
            size_t j = i, digits = 1;
            while (j < n) {
                ucs4_t d;
                int m = u8_mbtouc(&d, f + j, n - j);
                /* a decimal point between digits stays in a number: 0.5 */
                int point = d == '.' && j > i && f[j - 1] >= '0' && f[j - 1] <= '9' && j + 1 < n &&
                            f[j + 1] >= '0' && f[j + 1] <= '9';
                if (m <= 0 || (!word_char(d) && !point))
                    break;
                digits &= (d >= '0' && d <= '9') || d == '.';
                j += (size_t)m;
            }
            /* apostrophes at either end are quotes, not part of the word */
            size_t a = i, b = j;
            while (a < b && f[a] == '\'')
                a++;
            while (b > a && f[b - 1] == '\'')
                b--;
            /* dec_hidden, enc_out, h_CLS are words joined by '_' (not d_k, d_model, nor
             * the projections W_K, W_q: a weight named, not the keys or the queries) */
            const char *us = memchr(f + a, '_', b - a);
            if (us && !(us == (const char *)f + a + 1 && (f[a] == 'd' || f[a] == 'w'))) {
                for (size_t p = a; p < b;) {
                    size_t q = p;
                    while (q < b && f[q] != '_')
                        q++;
                    if (q > p)
                        push(t, (const char *)f + p, q - p, (const char *)f + p, q - p, QZ_TK_WORD);
                    p = q + 1;
                }
            } else if (b > a) {
                push(t, (const char *)f + a, b - a, (const char *)f + a, b - a,
                     digits ? QZ_TK_NUM : QZ_TK_WORD);
            }
            i = j;
        } else if (c == 0x90a3 && t->n && !strcmp(t->v[t->n - 1].s, "的") &&
                   demonstrated_part((const char *)f + i + l, n - i - (size_t)l)) {
            i += (size_t)l;   /* 负责读的那部分 is 负责读的部分: the 那 points, it adds nothing */
        } else if (qz_is_han(c)) {
            push(t, (const char *)f + i, (size_t)l, (const char *)f + i, (size_t)l, QZ_TK_HAN);
            i += (size_t)l;
        } else if ((c == '-' || c == '=') && i + 1 < n && f[i + 1] == '>') {
            push(t, "→", strlen("→"), (const char *)f + i, 2, QZ_TK_MARK);   /* -> and => */
            i += 2;
        } else if (c == 0x21d2 || c == 0x27f9 || c == 0x21a6 || c == 0x2234) {
            /* ⇒, ⟹, ↦ and ∴ (therefore) lead to what follows, as → does */
            push(t, "→", strlen("→"), (const char *)f + i, (size_t)l, QZ_TK_MARK);
            i += (size_t)l;
        } else if ((c == '-' && i + 1 < n && f[i + 1] == '-') || c == 0x2014) {
            push(t, "—", strlen("—"), "—", strlen("—"), QZ_TK_MARK);   /* -- and — end a clause */
            while (i < n && (f[i] == '-' || !strncmp((const char *)f + i, "—", strlen("—"))))
                i += f[i] == '-' ? 1 : strlen("—");
        } else if (c == '-' && i + 1 < n && f[i + 1] == ' ' && i > 0 && !isdigit(f[i - 1]) &&
                   (f[i - 1] == ' ' || isalpha(f[i - 1])) && correction_after(f + i + 1, n - i - 1)) {
            /* a dash before a correction ("from the encoder- sorry, …", "- wait no"): it
             * ends the clause the correction takes back ("attention - const" stays one) */
            push(t, "—", strlen("—"), "-", 1, QZ_TK_MARK);
            i += 1;
        } else if (c == '-' && i > 0 && i + 1 < n && f[i - 1] == ' ' && f[i + 1] == ' ' &&
                   denial_before(f, i)) {
            /* "not from the encoder - from the decoder": the denial's clause ends */
            push(t, "—", strlen("—"), "-", 1, QZ_TK_MARK);
            i += 1;
        } else if (c == '-' && i > 0 && i + 1 < n && f[i - 1] == ' ' && f[i + 1] == ' ' &&
                   label_before(f, i)) {
            /* "Queries - decoder hidden states; keys & values - encoder outputs": a label
             * and what it stands for, as after a colon */
            push(t, ":", 1, "-", 1, QZ_TK_MARK);
            i += 1;
        } else if (c == '-' && i > 0 && i + 1 < n && f[i - 1] == ' ' && f[i + 1] == ' ' &&
                   reply_before(f, i)) {
            /* "Or is it exploding gradients? No - small, vanishing": the bare reply ends */
            push(t, "—", strlen("—"), "-", 1, QZ_TK_MARK);
            i += 1;
        } else if (c == '~' && i + 1 < n && (about_what(f + i + 1, n - i - 1) ||
                                             (f[i + 1] == ' ' && about_what(f + i + 2, n - i - 2)))) {
            /* "~1", "~ n", "~ √dₖ": about, as "≈ 1" */
            push(t, "≈", strlen("≈"), "~", 1, QZ_TK_MARK);
            i += 1;
        } else if (c == '-' || c == 0x2010 || c == 0x2011 || c == '"' || c == 0x201c ||
                   c == 0x201d || c == '`' || c == '*' || c == '~' || c == '#' || c == 0x300c ||
                   c == 0x300d || c == 0x300a || c == 0x300b) {
            i += (size_t)l;   /* joins or quotes: nothing */
        } else {
            push(t, (const char *)f + i, (size_t)l, (const char *)f + i, (size_t)l, QZ_TK_MARK);
            i += (size_t)l;
        }
    }
}

/* ---- the field's notations */

static int word_in(const char *w, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(w, *list))
            return 1;
    return 0;
}

/* Is token i a spelling of d_k, or a name code gives it (d_head, head_dim)? */
static int is_dk(const toks *t, size_t i)
{
    static const char *const dk[] = {"dk", "d_k", "d_{k}", "dₖ", "d_key", "d_head", "head_dim",
                                     "d_h", "key_dim", "dim_k", "head_size", "attention_head_size",
                                     "attn_head_size", "size_per_head", "dim_per_head",
                                     "key_value_proj_dim", "d_kv", NULL};
    return i < t->n && t->v[i].kind == QZ_TK_WORD && word_in(t->v[i].s, dk);
}

/* "head dim", "key dim", "head size": d_k named in English words; 2 or 0. */
static size_t dk_words(const toks *t, size_t i)
{
    if (i + 1 >= t->n || (strcmp(t->v[i].s, "head") && strcmp(t->v[i].s, "key")))
        return 0;
    return !strcmp(t->v[i + 1].s, "dim") || !strcmp(t->v[i + 1].s, "size") ? 2 : 0;
}

/* How many tokens from i spell d_k: "dk", "d_k", "d_ { k }", "d k", "head dim"? 0 if
 * not. */
static size_t dk_len(const toks *t, size_t i)
{
    if (is_dk(t, i))
        return 1;
    if (dk_words(t, i))
        return 2;
    if (i + 3 < t->n && !strcmp(t->v[i].s, "d_") && !strcmp(t->v[i + 1].s, "{") &&
        !strcmp(t->v[i + 2].s, "k") && !strcmp(t->v[i + 3].s, "}"))
        return 4;
    if (i + 1 < t->n && !strcmp(t->v[i].s, "d") && !strcmp(t->v[i + 1].s, "k"))
        return 2;
    return 0;
}

/* Tokens from i that say "the square root of": √, sqrt, 根号, "square root of",
 * "root of"; how many, 0 if none. */
static size_t root_len(const toks *t, size_t i)
{
    const char *s = t->v[i].s;
    if (!strcmp(s, "√") || !strcmp(s, "sqrt") || !strcmp(s, "√("))
        return 1;
    if (i + 1 < t->n && !strcmp(s, "根") && !strcmp(t->v[i + 1].s, "号"))
        return 2;
    if (i + 2 < t->n && !strcmp(s, "square") && !strcmp(t->v[i + 1].s, "root") &&
        !strcmp(t->v[i + 2].s, "of"))
        return 3;
    if (i + 1 < t->n && !strcmp(s, "square") && !strcmp(t->v[i + 1].s, "root"))
        return 2;
    if (i + 1 < t->n && !strcmp(s, "root") && !strcmp(t->v[i + 1].s, "of"))
        return 2;
    return 0;
}

/* ---- speech recognition */

/* Does word w end with one of ends (NULL-ended; a whole word when it is Latin)? */
static int ends_with(const char *w, const char *const *ends)
{
    size_t n = strlen(w);
    for (size_t i = 0; ends[i]; i++) {
        size_t l = strlen(ends[i]);
        if (n >= l && !strcmp(w + n - l, ends[i]) && ((unsigned char)ends[i][0] >= 0x80 || n == l))
            return 1;
    }
    return 0;
}

/* An answer dictated to a phone comes back with the field's words as they sound: the
 * letters of an acronym one by one ("R N N", "R and N", "C L S"), encoder and decoder
 * cut in two ("in coder", "de coder"), "soft max", and Q as the word that sounds like
 * it before a key ("cue and key"). Each is read as the word meant. */
static void spoken(toks *t)
{
    static const char *const acronyms[] = {"rnn", "cls", "cnn", "lstm", "gru", "gpt", "mlp", "ffn", NULL};
    for (size_t i = 0; i < t->n && !t->failed; i++) {
        if (t->v[i].kind != QZ_TK_WORD)
            continue;
        const char *w = t->v[i].s;
        /* letters said one by one; "r and n" is how "R N N" is heard */
        char acr[8];
        size_t k = 0, j = i;
        while (j < t->n && k + 1 < sizeof acr && t->v[j].kind == QZ_TK_WORD &&
               strlen(t->v[j].s) == 1 && isalpha((unsigned char)t->v[j].s[0])) {
            acr[k++] = t->v[j].s[0];
            j++;
            if (k == 1 && j + 1 < t->n && !strcmp(t->v[j].s, "and") && !strcmp(t->v[i].s, "r") &&
                !strcmp(t->v[j + 1].s, "n")) {
                acr[k++] = 'n';   /* the "and" is the first N heard */
                j++;
            }
        }
        acr[k] = '\0';
        if (k >= 3 && word_in(acr, acronyms)) {
            replace(t, i, j - i, acr);
            continue;
        }
        if (i + 1 < t->n && (!strcmp(t->v[i + 1].s, "coder") || !strcmp(t->v[i + 1].s, "coders")) &&
            (!strcmp(w, "in") || !strcmp(w, "en") || !strcmp(w, "de"))) {
            char word[16];
            snprintf(word, sizeof word, "%s%s", w[0] == 'd' ? "de" : "en", t->v[i + 1].s);
            replace(t, i, 2, word);
            continue;
        }
        if (i + 1 < t->n && !strcmp(w, "soft") && !strcmp(t->v[i + 1].s, "max")) {
            replace(t, i, 2, "softmax");
            continue;
        }
        /* O(n) and O(1) said aloud: "order n", "order of one", "big O of n" */
        size_t o = !strcmp(w, "order") && (i == 0 || (strcmp(t->v[i - 1].s, "word") &&
                                                      strcmp(t->v[i - 1].s, "in") &&
                                                      strcmp(t->v[i - 1].s, "the"))) ? 1
                 : i + 2 < t->n && !strcmp(w, "big") && !strcmp(t->v[i + 1].s, "o") &&
                   !strcmp(t->v[i + 2].s, "of") ? 2
                 /* as dictation types it: "oh of one", "o of n" */
                 : i + 2 < t->n && (!strcmp(w, "oh") || !strcmp(w, "o")) &&
                   !strcmp(t->v[i + 1].s, "of") ? 1 : 0;
        if (o) {
            size_t a = i + o + (o == 1 && i + 1 < t->n && !strcmp(t->v[i + 1].s, "of"));
            const char *x = a < t->n ? t->v[a].s : "";
            if (!strcmp(x, "n") || !strcmp(x, "one") || !strcmp(x, "1")) {
                replace(t, i, a + 1 - i, x[0] == 'n' ? "o(n)" : "o(1)");
                continue;
            }
        }
        /* O(n) and O(1) dictated without brackets after a copula: "path length 是 O n",
         * "是 O 一", "is O one" */
        static const char *const copulas[] = {"是", "为", "is", "=", NULL};
        if (!strcmp(w, "o") && i > 0 && i + 1 < t->n && ends_with(t->v[i - 1].s, copulas) &&
            (!strcmp(t->v[i + 1].s, "n") || !strcmp(t->v[i + 1].s, "1") || !strcmp(t->v[i + 1].s, "一") ||
             !strcmp(t->v[i + 1].s, "one"))) {
            replace(t, i, 2, !strcmp(t->v[i + 1].s, "n") ? "o(n)" : "o(1)");
            continue;
        }
        /* RNN spelt out letter by letter, as dictation types it: "R N N", "are N N", "our NN" */
        if ((!strcmp(w, "r") || !strcmp(w, "are") || !strcmp(w, "our")) && i + 1 < t->n) {
            size_t m = !strcmp(t->v[i + 1].s, "nn") ? 2
                     : i + 2 < t->n && !strcmp(t->v[i + 1].s, "n") && !strcmp(t->v[i + 2].s, "n") ? 3 : 0;
            if (m) {
                replace(t, i, m, "rnn");
                continue;
            }
        }
        /* "self a tension": self-attention as dictation hears it */
        if (i > 0 && i + 1 < t->n && !strcmp(w, "a") && !strcmp(t->v[i + 1].s, "tension") &&
            !strcmp(t->v[i - 1].s, "self")) {
            replace(t, i, 2, "attention");
            continue;
        }
        if (!strcmp(w, "cue") || !strcmp(w, "cues") || !strcmp(w, "queue")) {
            int key = 0;
            for (size_t n = i + 1; n < t->n && n <= i + 4 && !key; n++)
                key = !strcmp(t->v[n].s, "key") || !strcmp(t->v[n].s, "keys") || !strcmp(t->v[n].s, "k");
            if (key)
                replace(t, i, 1, "q");
        }
    }
}

/* Copies of tokens [from, to) inserted at `at` (from < to <= at). */
static void insert_copies(toks *t, size_t at, size_t from, size_t to)
{
    size_t n = to - from;
    if (!n || t->failed || grow(t, n))
        return;
    memmove(&t->v[at + n], &t->v[at], (t->n - at) * sizeof *t->v);
    for (size_t k = 0; k < n; k++) {
        const qz_tok *src = &t->v[from + k];
        qz_tok *x = &t->v[at + k];
        x->s = strdup(src->s);
        x->raw = strdup(src->raw);
        x->kind = src->kind;
        if (!x->s || !x->raw)
            t->failed = 1;
    }
    t->n += n;
}

static int clause_mark(const qz_tok *k)
{
    return k->kind == QZ_TK_MARK && (!strcmp(k->s, ",") || !strcmp(k->s, ";") ||
                                     !strcmp(k->s, ".") || !strcmp(k->s, "—") ||
                                     !strcmp(k->s, "→") || !strcmp(k->s, ":"));
}

/* "Attention does not have to go through the tokens in between, the RNN does": what the
 * clause before denied of its subject, this one's subject does: the words after the
 * denial are said again after "does" (a subject of three words at most before it). */
static void said_again(toks *t)
{
    for (size_t i = 1; i < t->n && !t->failed; i++) {
        if (strcmp(t->v[i].raw, "does") && strcmp(t->v[i].raw, "do"))
            continue;
        if (i + 1 < t->n && !clause_mark(&t->v[i + 1]) && strcmp(t->v[i + 1].raw, "too") &&
            strcmp(t->v[i + 1].raw, "though"))
            continue;
        size_t c0 = i;
        while (c0 > 0 && !clause_mark(&t->v[c0 - 1]))
            c0--;
        if (c0 == 0 || i - c0 > 3 || i == c0)
            continue;
        size_t p1 = c0 - 1, p0 = p1;
        while (p0 > 0 && !clause_mark(&t->v[p0 - 1]))
            p0--;
        size_t neg = SIZE_MAX;
        for (size_t k = p0; k < p1; k++) {
            size_t l = strlen(t->v[k].raw);
            if (!strcmp(t->v[k].raw, "not") || (l > 3 && !strcmp(t->v[k].raw + l - 3, "n't")))
                neg = k;
        }
        if (neg == SIZE_MAX || p1 - neg < 2 || p1 - neg > 13)
            continue;
        insert_copies(t, i + 1, neg + 1, p1);
        i += p1 - neg - 1;
    }
}

/* "we just need one yes/no", "输出是/否": a yes-or-no is a kind of answer, one word; its
 * "no" and 否 deny nothing. */
static void yes_or_no(toks *t)
{
    for (size_t i = 0; i + 2 < t->n && !t->failed; i++)
        if (((!strcmp(t->v[i].raw, "yes") && !strcmp(t->v[i + 2].raw, "no")) ||
             (!strcmp(t->v[i].s, "是") && !strcmp(t->v[i + 2].s, "否"))) &&
            !strcmp(t->v[i + 1].s, "/"))
            replace(t, i, 3, "yesno");
}

/* "rnn = the distance is however many steps apart", "self attn = distance is 1",
 * "自注意力 = 一步就能连上": an equals sign after a clause's first words (six tokens at
 * most, no number) and before a clause with a verb of its own labels that clause, as a
 * colon does; "path length = distance" and "distance = 1" stay equations. */
static void labelling_equals(toks *t)
{
    static const char *const verbs[] = {"is", "are", "was", "were", "has", "have", "can",
                                        "must", "need", "needs", "takes", "take", "goes", "go",
                                        "是", "有", "要", "能", "得", "会", "就", NULL};
    for (size_t i = 1; i + 2 < t->n && !t->failed; i++) {
        if (t->v[i].kind != QZ_TK_MARK || strcmp(t->v[i].s, "="))
            continue;
        size_t c0 = i;
        while (c0 > 0 && !clause_mark(&t->v[c0 - 1]))
            c0--;
        int words = i - c0 <= 6;
        for (size_t k = c0; k < i && words; k++)
            words = t->v[k].kind == QZ_TK_WORD || t->v[k].kind == QZ_TK_HAN;
        if (!words || (t->v[i + 1].kind != QZ_TK_WORD && t->v[i + 1].kind != QZ_TK_HAN))
            continue;
        int verb = 0;
        for (size_t k = i + 2; k < t->n && k <= i + 5 && !clause_mark(&t->v[k]) && !verb; k++)
            for (size_t w = 0; verbs[w] && !verb; w++)
                verb = !strcmp(t->v[k].raw, verbs[w]);
        if (verb) {
            replace(t, i, 1, ":");
            t->v[i].kind = QZ_TK_MARK;
        }
    }
}

/* √dₖ and its spellings → "sqrtdk"; d_k → "dk"; O(…) → "o(1)", "o(n)", "o(n2)". */
static void notations(toks *t)
{
    for (size_t i = 0; i < t->n && !t->failed; i++) {
        size_t r = root_len(t, i);
        if (r) {
            size_t j = i + r;
            int paren = j < t->n && (!strcmp(t->v[j].s, "(") || !strcmp(t->v[j].s, "{"));
            j += paren;
            size_t d = j < t->n ? dk_len(t, j) : 0;
            if (!d && j < t->n && !strcmp(t->v[j].s, "d"))
                d = 1;   /* √d */
            if (d) {
                j += d;
                if (paren && j < t->n && (!strcmp(t->v[j].s, ")") || !strcmp(t->v[j].s, "}")))
                    j++;
                replace(t, i, j - i, "sqrtdk");
                continue;
            }
        }
        size_t d = dk_len(t, i);
        if (d) {
            replace(t, i, d, "dk");
            continue;
        }
        /* "Q — decoder; K, V — encoder": a dash between a matrix and a side says where
         * it comes from, as a colon does */
        if (i > 0 && i + 1 < t->n && (!strcmp(t->v[i].s, "—") || !strcmp(t->v[i].s, "–") ||
                                      !strcmp(t->v[i].s, "-")) &&
            (!strcmp(t->v[i - 1].s, "q") || !strcmp(t->v[i - 1].s, "k") ||
             !strcmp(t->v[i - 1].s, "v") || !strcmp(t->v[i - 1].s, "kv")) &&
            (!strcmp(t->v[i + 1].s, "decoder") || !strcmp(t->v[i + 1].s, "encoder") ||
             !strcmp(t->v[i + 1].s, "dec") || !strcmp(t->v[i + 1].s, "enc") ||
             !strcmp(t->v[i + 1].s, "解") || !strcmp(t->v[i + 1].s, "编"))) {
            replace(t, i, 1, ":");
            t->v[i].kind = QZ_TK_MARK;
            continue;
        }
        /* shorthand with a slash: "w/ dim" is with, "b/c" because ("w/o" is read as it is) */
        if (i + 2 < t->n && !strcmp(t->v[i + 1].s, "/") &&
            ((!strcmp(t->v[i].s, "w") && strcmp(t->v[i + 2].s, "o")) ||
             (!strcmp(t->v[i].s, "b") && !strcmp(t->v[i + 2].s, "c")))) {
            replace(t, i, t->v[i].s[0] == 'w' ? 2 : 3, t->v[i].s[0] == 'w' ? "with" : "because");
            continue;
        }
        /* "it is not the case that X": X denied, as "not X" ("it is not true that X" is
         * read as it is: a false claim reported as untrue) */
        if (t->v[i].kind == QZ_TK_WORD &&
            (!strcmp(t->v[i].s, "not") ||
             (strlen(t->v[i].s) > 3 && !strcmp(t->v[i].s + strlen(t->v[i].s) - 3, "n't")))) {
            size_t k = i + 1;
            if (k + 2 < t->n && !strcmp(t->v[k].s, "the") && !strcmp(t->v[k + 1].s, "case") &&
                !strcmp(t->v[k + 2].s, "that")) {
                drop(t, k, 3);
                continue;
            }
        }
        /* [:, 0], [:, 0, :]: code's index of the first position of every sequence, the
         * [CLS] token's vector ("last_hidden_state[:, 0]") */
        if (!strcmp(t->v[i].s, "[") && i + 4 < t->n && !strcmp(t->v[i + 1].s, ":") &&
            !strcmp(t->v[i + 2].s, ",") && !strcmp(t->v[i + 3].s, "0")) {
            size_t j = i + 4;
            if (j + 2 < t->n && !strcmp(t->v[j].s, ",") && !strcmp(t->v[j + 1].s, ":"))
                j += 2;
            if (j < t->n && !strcmp(t->v[j].s, "]")) {
                replace(t, i, j + 1 - i, "cls");
                t->v[i].kind = QZ_TK_WORD;
                continue;
            }
        }
        /* |i-j|, |i − j|: the gap between two positions; its bars are no marks that part
         * the clause (read as i-j) */
        if (!strcmp(t->v[i].s, "|")) {
            size_t j = i + 1;
            while (j < t->n && j < i + 6 && strcmp(t->v[j].s, "|") &&
                   (t->v[j].kind == QZ_TK_WORD || !strcmp(t->v[j].s, "-") ||
                    !strcmp(t->v[j].s, "−") || !strcmp(t->v[j].s, "+")))
                j++;
            if (j > i + 2 && j < t->n && !strcmp(t->v[j].s, "|")) {
                drop(t, j, 1);
                drop(t, i, 1);
                continue;
            }
        }
        /* n^2 alone is n² (NFKC's n2), not a length n: "the n^2 is the compute cost" */
        if ((!strcmp(t->v[i].s, "n") || !strcmp(t->v[i].s, "l")) && i + 2 < t->n &&
            !strcmp(t->v[i + 1].s, "^") && !strcmp(t->v[i + 2].s, "2") &&
            (i + 3 >= t->n || t->v[i + 3].kind != QZ_TK_NUM)) {
            replace(t, i, 3, !strcmp(t->v[i].s, "n") ? "n2" : "l2");
            continue;
        }
        /* O(1), O(n), O(n^2), O(n2), O(n*n), O(N²); Θ(n), the tight bound, the same here */
        if ((!strcmp(t->v[i].s, "o") || !strcmp(t->v[i].s, "θ")) && i + 3 < t->n && !strcmp(t->v[i + 1].s, "(")) {
            size_t j = i + 2;
            const char *what = NULL;
            if (!strcmp(t->v[j].s, "1")) {
                what = "o(1)";
                j++;
            } else if (!strcmp(t->v[j].s, "n2") || !strcmp(t->v[j].s, "l2")) {
                what = "o(n2)";
                j++;
            } else if (!strcmp(t->v[j].s, "n") || !strcmp(t->v[j].s, "l")) {
                what = "o(n)";
                j++;
                if (j + 1 < t->n && !strcmp(t->v[j].s, "^") && !strcmp(t->v[j + 1].s, "2")) {
                    what = "o(n2)";
                    j += 2;
                } else if (j + 1 < t->n && (!strcmp(t->v[j].s, "·") || !strcmp(t->v[j].s, "×")) &&
                           !strcmp(t->v[j + 1].s, "n")) {
                    what = "o(n2)";
                    j += 2;
                }
            }
            if (what && j < t->n && !strcmp(t->v[j].s, ")")) {
                replace(t, i, j + 1 - i, what);
                continue;
            }
        }
    }
}

/* A position named by its index ("between t=1 and t=100", "i = 3") is one word: its
 * "= 1" says no distance. A layer's index letter is "i" ("decoder layer l attends to
 * encoder layer l", 第 l 层): the rubric names layers by i. */
static void indices(toks *t)
{
    static const char *const names[] = {"t", "i", "j", "pos", NULL};
    static const char *const letters[] = {"l", "j", "k", "n", "m", NULL};
    for (size_t i = 1; i < t->n && !t->failed; i++)
        if (t->v[i].kind == QZ_TK_WORD && word_in(t->v[i].s, letters) &&
            (!strcmp(t->v[i - 1].s, "layer") ||
             (!strcmp(t->v[i - 1].s, "第") && i + 1 < t->n && !strcmp(t->v[i + 1].s, "层"))))
            replace(t, i, 1, "i");
    for (size_t i = 0; i + 2 < t->n && !t->failed; i++) {
        if (t->v[i].kind != QZ_TK_WORD || !word_in(t->v[i].s, names) || strcmp(t->v[i + 1].s, "=") ||
            t->v[i + 2].kind != QZ_TK_NUM)
            continue;
        char w[64];
        snprintf(w, sizeof w, "%s=%s", t->v[i].s, t->v[i + 2].s);
        replace(t, i, 3, w);
    }
}

/* "QKV 分别来自 decoder、encoder、encoder", "qkv come from … respectively": the three
 * written as one word before a word of "respectively" are three sides, read as
 * "q、k、v" (elsewhere qkv stays one word: "qkv = x @ W_qkv", "caches qkv"). */
static void fused_sides(toks *t)
{
    for (size_t i = 0; i < t->n && !t->failed; i++) {
        if (t->v[i].kind != QZ_TK_WORD || strcmp(t->v[i].s, "qkv"))
            continue;
        int resp = 0;
        for (size_t j = i + 1; j < t->n && !resp; j++) {
            if (t->v[j].kind == QZ_TK_MARK && strchr(".;!?", t->v[j].s[0]))
                break;
            if (!strcmp(t->v[j].s, "。") || !strcmp(t->v[j].s, "；"))
                break;
            for (size_t w = 0; qz_lex_respectively[w] && !resp; w++) {
                const char *r = qz_lex_respectively[w];
                size_t k = j, at = 0, len = strlen(r);
                /* a Han word is one token a character; an English one is a token */
                while (at < len && k < t->n && !strncmp(r + at, t->v[k].s, strlen(t->v[k].s)) &&
                       *t->v[k].s) {
                    at += strlen(t->v[k].s);
                    k++;
                    if (at < len && r[at] == ' ')
                        at++;
                }
                resp = at == len;
            }
        }
        if (!resp)
            continue;
        static const char *const parts[] = {"q", "、", "k", "、", "v"};
        size_t m = sizeof parts / sizeof parts[0];
        if (grow(t, m - 1))
            return;
        memmove(&t->v[i + m], &t->v[i + 1], (t->n - i - 1) * sizeof *t->v);
        t->n += m - 1;
        for (size_t p = 0; p < m; p++) {
            char *a = strdup(parts[p]), *b = strdup(parts[p]);
            if (p == 0) {
                free(t->v[i].s);
                free(t->v[i].raw);
            }
            t->failed |= !a || !b;   /* the list is freed whole: free(NULL) is nothing */
            t->v[i + p] = (qz_tok){a, b, p % 2 ? QZ_TK_MARK : QZ_TK_WORD, 0};
        }
        i += m - 1;
    }
}

/* ---- phrasal verbs */

/* A verb's particle written after its object ("scales the dot products down", "brings
 * them back down") moved next to the verb ("scales down the dot products"), where the
 * words of direction are read: up to three words may stand between them. */
static void particles(toks *t)
{
    static const char *const verbs[] = {"scale", "scales", "scaled", "scaling", "bring",
                                        "brings", "brought", "bringing", "push", "pushes",
                                        "pushed", "pull", "pulls", "pulled", "tone", "tones",
                                        "toned", "turn", "turns", "turned", "knock", "knocks",
                                        "knocked", NULL};
    /* words that end the object: a particle after them belongs to another verb ("scales
     * them so they blow up", "without scaling the scores blow up") */
    static const char *const stops[] = {"from", "to", "so", "and", "or", "that", "which",
                                        "when", "if", "until", "as", "then", "it", "blow",
                                        "blows", "blew", "blown", "go", "goes", "went",
                                        "shoot", "shoots", "shot", "add", "adds", "pile",
                                        "piles", "end", "ends", "ramp", "ramps", "speed",
                                        "speeds", "heat", "heats", "build", "builds", NULL};
    for (size_t i = 0; i + 2 < t->n; i++) {
        if (t->v[i].kind != QZ_TK_WORD || !word_in(t->v[i].s, verbs))
            continue;
        for (size_t j = i + 2; j < t->n && j <= i + 4 && t->v[j - 1].kind == QZ_TK_WORD; j++) {
            const char *w = t->v[j].s;
            if (!strcmp(t->v[j - 1].s, "down") || !strcmp(t->v[j - 1].s, "up") ||
                (j - 1 > i + 1 && word_in(t->v[j - 1].s, stops)))
                break;   /* the particle stands at the verb already, or the object ended */
            if (t->v[j].kind == QZ_TK_WORD && (!strcmp(w, "down") || !strcmp(w, "up"))) {
                size_t from = !strcmp(t->v[j - 1].s, "back") && j - 1 > i + 1 ? j - 1 : j;
                qz_tok moved[2];
                size_t m = j + 1 - from;
                memcpy(moved, &t->v[from], m * sizeof *moved);
                memmove(&t->v[i + 1 + m], &t->v[i + 1], (from - i - 1) * sizeof *t->v);
                memcpy(&t->v[i + 1], moved, m * sizeof *moved);
                break;
            }
        }
    }
}

/* ---- stemming and typos */

/* Words the English stemmer folds together that mean different things in this field are
 * kept apart. A -tive or -sive adjective is not the noun or verb it shares a stem with
 * ("positive" is no "position", "negative" no "negation", "relative" no "relation",
 * "active" no "activation"): it gets a stem of its own (the stem and "~ive"), which its
 * -ly, -ness and -ity forms share. A few other words are not the longer ones: "direction"
 * is no "direct", "multiple" no "multiply", "normal" no "normalize", "initial" no
 * "initialize", "informal" no "information", "meaning" no "mean" (pooling's), "k
 * transformations" no Transformer. Returns the stem to use: st, a static string or buf. */
static const char *distinct_stem(const char *w, size_t n, const char *st, char *buf, size_t cap)
{
    static const char *const own[][2] = {
        {"direction", "direction"}, {"directions", "direction"}, {"directional", "direction"},
        {"multiple", "multiple"}, {"multiples", "multiple"}, {"normal", "normal~"},
        {"normally", "normal~"}, {"initial", "initial~"}, {"initially", "initial~"},
        {"informal", "informal"}, {"informally", "informal"}, {"meaning", "meaning~"},
        {"meanings", "meaning~"}, {"meaningful", "meaning~"}, {"meaningless", "meaning~"},
        {"transformation", "transformation"}, {"transformations", "transformation"},
    };
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (strlen(own[i][0]) == n && !strncmp(w, own[i][0], n))
            return own[i][1];
    static const char *const ends[] = {"ive", "ives", "ively", "iveness", "ivity"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t e = strlen(ends[i]);
        if (n >= e + 4 && !strncmp(w + n - e, ends[i], e) &&
            (w[n - e - 1] == 't' || w[n - e - 1] == 's')) {
            snprintf(buf, cap, "%s~ive", st);
            return buf;
        }
    }
    return st;
}

/* The token's word as the table spells it out (table[i][0] typed for table[i][1]): 1 when
 * it was one of them. */
/* The first len bytes of k's text as one of table's words: replaced by the word it stands
 * for (what follows them, a possessive 's, goes). 1 if replaced. */
static int spelled_out(qz_tok *k, size_t len, const char *const table[][2], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(table[i][0]) == len && !strncmp(k->s, table[i][0], len)) {
            char *s = strdup(table[i][1]);
            if (s) {
                free(k->s);
                k->s = s;
            }
            return 1;
        }
    return 0;
}

static void stem(const qz_norm *nm, qz_tok *k)
{
    /* a chat or exam abbreviation is the word it stands for ("forgets bc of vanishing
     * gradients") */
    static const char *const chat[][2] = {
        {"bc", "because"}, {"bcuz", "because"}, {"bcoz", "because"}, {"bcz", "because"},
        {"cuz", "because"}, {"coz", "because"}, {"abt", "about"},
        /* and an exam's shorthand ("dot prod grows w/ dim", "Q dec side, KV enc side") */
        {"prod", "product"}, {"prods", "products"}, {"dim", "dimension"}, {"dims", "dimensions"},
        {"enc", "encoder"}, {"dec", "decoder"}, {"grad", "gradient"}, {"grads", "gradients"},
        {"src", "source"}, {"tgt", "target"}, {"seq", "sequence"}, {"seqs", "sequences"},
        {"repr", "representation"}, {"reprs", "representations"}, {"var", "variance"},
    };
    size_t n = strlen(k->s);
    if (k->kind == QZ_TK_WORD)   /* also with a possessive: "enc's" is the encoder's */
        spelled_out(k, n > 2 && !strcmp(k->s + n - 2, "'s") ? n - 2 : n, chat,
                    sizeof chat / sizeof *chat);
    n = strlen(k->s);
    if (k->kind != QZ_TK_WORD || n < 3 || strchr(k->s, '_') || strchr(k->s, '(') ||
        !strcmp(k->s, "sqrtdk"))
        return;
    for (const char *p = k->s; *p; p++)
        if (*p >= '0' && *p <= '9')
            return;
    /* a negation typed without its apostrophe ("doesnt", "dont") is the negation */
    static const char *const bare[][2] = {
        {"doesnt", "doesn't"}, {"dont", "don't"}, {"didnt", "didn't"}, {"isnt", "isn't"},
        {"arent", "aren't"}, {"cant", "can't"}, {"wont", "won't"}, {"wasnt", "wasn't"},
        {"werent", "weren't"}, {"couldnt", "couldn't"}, {"wouldnt", "wouldn't"},
        {"shouldnt", "shouldn't"}, {"hasnt", "hasn't"}, {"havent", "haven't"}, {"neednt", "needn't"},
    };
    if (spelled_out(k, n, bare, sizeof bare / sizeof *bare))
        return;
    /* "decoder's" is "decoder"; "doesn't" stays as written (a negation) */
    if (n > 2 && !strcmp(k->s + n - 2, "'s"))
        n -= 2;
    else if (strchr(k->s, '\''))
        return;
    const qz_textlibs *lib = nm->lib;
    const unsigned char *st = lib->sb_stemmer_stem(nm->stemmer, (const unsigned char *)k->s, (int)n);
    if (!st)
        return;
    char *s = strndup((const char *)st, (size_t)lib->sb_stemmer_length(nm->stemmer));
    char buf[160];
    const char *own = s ? distinct_stem(k->s, n, s, buf, sizeof buf) : NULL;
    if (own && own != s) {
        free(s);
        s = strdup(own);
    }
    if (s) {
        free(k->s);
        k->s = s;
    }
}

/* Damerau–Levenshtein distance of a and b is at most 1. */
static int one_edit(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > lb + 1 || lb > la + 1)
        return 0;
    size_t i = 0;
    while (i < la && i < lb && a[i] == b[i])
        i++;
    if (i == la && i == lb)
        return 1;
    if (la == lb) {
        if (!strcmp(a + i + 1, b + i + 1))
            return 1;   /* substitution */
        return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] && !strcmp(a + i + 2, b + i + 2);
    }
    return la > lb ? !strcmp(a + i + 1, b + i) : !strcmp(a + i, b + i + 1);
}

static int letters_only(const char *s)
{
    for (; *s; s++)
        if (!(*s >= 'a' && *s <= 'z'))
            return 0;
    return 1;
}

/* Is w a line of the word list (an English word, spelt right)? The list is read only
 * for a word one edit from the rubric's, which is rare. */
static int in_word_list(const char *w)
{
    static const char *const lists[] = {"/usr/share/dict/words", "/usr/share/dict/american-english",
                                        "/usr/share/dict/british-english"};
    char line[128];
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        FILE *f = fopen(lists[i], "r");
        if (!f)
            continue;
        int found = 0;
        while (!found && fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            found = !strcasecmp(line, w);
        }
        fclose(f);
        return found;
    }
    return 0;
}

/* FNV-1a of s: the slot a vocabulary word starts its search at. */
static size_t vocab_hash(const char *s)
{
    size_t h = (size_t)14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
    return h;
}

/* The index of word w in words (through the index slot), or v->n when it is not there. */
static size_t vocab_find(const qz_vocab *v, const size_t *slot, char *const *words, const char *w)
{
    if (!v->n_slot)
        return v->n;
    for (size_t h = vocab_hash(w) & (v->n_slot - 1);; h = (h + 1) & (v->n_slot - 1)) {
        if (!slot[h])
            return v->n;
        if (!strcmp(words[slot[h] - 1], w))
            return slot[h] - 1;
    }
}

static void vocab_slot(size_t *slot, size_t n_slot, const char *w, size_t index)
{
    size_t h = vocab_hash(w) & (n_slot - 1);
    while (slot[h])
        h = (h + 1) & (n_slot - 1);
    slot[h] = index + 1;
}

/* Make room for one more word in the indexes (rebuilt at twice the size). 0 or -1. */
static int vocab_reindex(qz_vocab *v)
{
    if (2 * (v->n + 1) <= v->n_slot)
        return 0;
    size_t n_slot = v->n_slot ? 2 * v->n_slot : 256;
    size_t *r = calloc(n_slot, sizeof *r), *s = calloc(n_slot, sizeof *s);
    if (!r || !s) {
        free(r);
        free(s);
        return -1;
    }
    for (size_t i = 0; i < v->n; i++) {
        vocab_slot(r, n_slot, v->raw[i], i);
        vocab_slot(s, n_slot, v->stem[i], i);
    }
    free(v->by_raw);
    free(v->by_stem);
    v->by_raw = r;
    v->by_stem = s;
    v->n_slot = n_slot;
    return 0;
}

static void fix_typo(const qz_vocab *v, qz_tok *k)
{
    if (!v || k->kind != QZ_TK_WORD || strlen(k->raw) < 5 || !letters_only(k->raw))
        return;
    if (vocab_find(v, v->by_stem, v->stem, k->s) < v->n || vocab_find(v, v->by_raw, v->raw, k->raw) < v->n)
        return;
    for (size_t i = 0; i < v->n; i++) {
        if (strlen(v->raw[i]) < 5 || !one_edit(k->raw, v->raw[i]))
            continue;
        if (in_word_list(k->raw))
            return;   /* "being" is a word, not a typo of "bring" */
        char *s = strdup(v->stem[i]);
        if (s) {
            free(k->s);
            k->s = s;
        }
        return;
    }
}

int qz_vocab_add(qz_vocab *v, const qz_text *t)
{
    for (size_t i = 0; i < t->n; i++) {
        const qz_tok *k = &t->t[i];
        if (k->kind != QZ_TK_WORD || !letters_only(k->raw))
            continue;
        if (vocab_find(v, v->by_raw, v->raw, k->raw) < v->n)
            continue;
        if (vocab_reindex(v))
            return -1;
        if (v->n == v->cap) {
            size_t cap = v->cap ? 2 * v->cap : 64;
            char **r = realloc(v->raw, cap * sizeof *r);
            if (!r)
                return -1;
            v->raw = r;
            char **s = realloc(v->stem, cap * sizeof *s);
            if (!s)
                return -1;
            v->stem = s;
            v->cap = cap;
        }
        v->raw[v->n] = strdup(k->raw);
        v->stem[v->n] = strdup(k->s);
        if (!v->raw[v->n] || !v->stem[v->n]) {
            free(v->raw[v->n]);
            free(v->stem[v->n]);
            return -1;
        }
        vocab_slot(v->by_raw, v->n_slot, v->raw[v->n], v->n);
        vocab_slot(v->by_stem, v->n_slot, v->stem[v->n], v->n);
        v->n++;
    }
    return 0;
}

void qz_vocab_free(qz_vocab *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->raw[i]);
        free(v->stem[i]);
    }
    free(v->raw);
    free(v->stem);
    free(v->by_raw);
    free(v->by_stem);
    memset(v, 0, sizeof *v);
}

/* ---- the whole pass */

/* The number of a circled or parenthesised numeral (①, ⑴, ⒈, ❶, ➀; 1 to 20), or 0. */
static int circled(ucs4_t c)
{
    if (c >= 0x2460 && c <= 0x2473)
        return (int)(c - 0x2460) + 1;
    if (c >= 0x2474 && c <= 0x2487)
        return (int)(c - 0x2474) + 1;
    if (c >= 0x2488 && c <= 0x249b)
        return (int)(c - 0x2488) + 1;
    if (c >= 0x2776 && c <= 0x277f)
        return (int)(c - 0x2776) + 1;
    if (c >= 0x2780 && c <= 0x2789)
        return (int)(c - 0x2780) + 1;
    return 0;
}

/* Curly apostrophes as straight ones (NFKC keeps them); a circled numeral as "(2) ", a
 * part's number apart from what follows ("②CLS": NFKC would glue "2cls"). malloc'd. */
static char *plain_marks(const char *s)
{
    size_t n = strlen(s), o = 0;
    char *out = malloc(2 * n + 1);
    for (size_t i = 0; out && i < n;) {
        ucs4_t c = 0;
        int l = (unsigned char)s[i] >= 0x80 ? u8_mbtouc(&c, (const uint8_t *)s + i, n - i) : 1;
        int num = l == 3 ? circled(c) : 0;
        if (num) {
            o += (size_t)sprintf(out + o, "(%d) ", num);   /* at most 5 bytes for 3 */
            i += 3;
        } else if (!strncmp(s + i, "\xe2\x80\x99", 3) || !strncmp(s + i, "\xe2\x80\x98", 3)) {
            out[o++] = '\'';
            i += 3;
        } else {
            out[o++] = s[i++];
        }
    }
    if (out)
        out[o] = '\0';
    return out;
}

/* Every term[t][0] in s replaced by term[t][1], in the order of terms: a new string, or
 * NULL when there is none to replace or no memory. */
static char *replace_terms(const char *s, const char *const (*terms)[2], size_t n_terms)
{
    char *out = NULL;
    for (size_t t = 0; t < n_terms; t++) {
        const char *cur = out ? out : s;
        if (!strstr(cur, terms[t][0]))
            continue;
        size_t from = strlen(terms[t][0]), to = strlen(terms[t][1]), n = 0;
        for (const char *p = strstr(cur, terms[t][0]); p; p = strstr(p + from, terms[t][0]))
            n++;
        char *next = malloc(strlen(cur) + n * (to > from ? to - from : 0) + 1);
        if (!next) {
            free(out);
            return NULL;
        }
        char *w = next;
        for (const char *p = cur, *hit; (hit = strstr(p, terms[t][0])) || *p; ) {
            if (!hit) {
                strcpy(w, p);
                w += strlen(p);
                break;
            }
            memcpy(w, p, (size_t)(hit - p));
            w += hit - p;
            memcpy(w, terms[t][1], to);
            w += to;
            p = hit + from;
        }
        *w = '\0';
        free(out);
        out = next;
    }
    return out;
}

/* Terms of the field that Taiwan and Hong Kong write otherwise, after OpenCC's t2s has
 * made the characters simplified (t2s keeps the words: 資訊 becomes 资讯, not 信息; its
 * tw2sp would also make 向量 矢量): the mainland word, as the rubric spells it; and
 * 来源： as a heading of where something comes from (来自). A new
 * string, or NULL when there is none to replace or no memory. */
static char *field_terms(const char *s)
{
    static const char *const terms[][2] = {
        {"资讯", "信息"}, {"讯息", "信息"}, {"网路", "网络"}, {"递回", "递归"},
        {"变异数", "方差"}, {"正规化", "归一化"}, {"标准常态", "标准正态"},
        {"平行运算", "并行运算"}, {"平行计算", "并行计算"}, {"平行处理", "并行处理"},
        {"平行化", "并行化"},
        /* a heading of origin: "Q来源：解码器", "K、V 的来源：编码器" say 来自 */
        {"的来源：", "来自"}, {"的来源:", "来自"}, {"来源：", "来自"}, {"来源:", "来自"},
    };
    return replace_terms(s, terms, sizeof terms / sizeof terms[0]);
}

/* Words of other Englishes and their neighbours, as the rubric spells them: "upto" (India,
 * Nigeria) is up to; ViT's class token is the [CLS] token; Malay cukup (in Malaysian
 * Chinese and English) is enough; notations the rubric spells one way (Σ, W^Q,
 * "timesteps"); the words dictation mishears ("in coder"). A new string, or NULL when there is none or no memory. */
static char *english_forms(const char *s)
{
    static const char *const terms[][2] = {
        {" upto ", " up to "}, {"Upto ", "Up to "}, {" upto\t", " up to\t"},
        {"class token", "[CLS] token"}, {"Class token", "[CLS] token"},
        {" cukup", " enough"}, {"cukup ", "enough "},
        /* a capital sigma is a sum, not the σ of a standard deviation it folds to:
         * "Var(q·k) = Σ_i Var(q_i k_i) = d_k" */
        {"Σ", " sum "}, {"∑", " sum "},
        /* a projection's superscript is its name, as its subscript is: "Q = H_dec W^Q, K =
         * …" names no Q beside K */
        {"W^Q", "W_Q"}, {"W^K", "W_K"}, {"W^V", "W_V"}, {"W^{Q}", "W_Q"}, {"W^{K}", "W_K"},
        {"W^{V}", "W_V"}, {"w^q", "w_q"}, {"w^k", "w_k"}, {"w^v", "w_v"},
        /* the encoder and the decoder as dictation hears them: "from the in coder" */
        {" in coder", " encoder"}, {" en coder", " encoder"}, {" de coder", " decoder"},
        {" the the coder", " the decoder"}, {" quarries", " queries"},
        /* one word in code and papers: "timesteps" */
        {" timesteps", " time steps"}, {" timestep", " time step"},
        /* an adverb that only softens: "the distance is effectively 1" says it is 1 */
        {" effectively ", " "},
        /* "self-attention is non-local": not local */
        {"non-local", "not local"}, {"Non-local", "Not local"}, {"nonlocal", "not local"},
    };
    return replace_terms(s, terms, sizeof terms / sizeof terms[0]);
}

/* Is the character at s + i a sound of hesitation said alone (嗯, 呃, 啊, 额)? */
static int filler_sound(const char *s, size_t i)
{
    static const char *const w[] = {"嗯", "呃", "啊", "额", "唔", NULL};
    for (size_t k = 0; w[k]; k++)
        if (!strncmp(s + i, w[k], strlen(w[k])))
            return 1;
    return 0;
}

/* Does the character before byte i of s take what follows as its object ("不需要 RNN",
 * "用 attention", "和 RNN 比"): then no pause stands between them. */
static int takes_object(const char *s, size_t i)
{
    static const char *const w[] = {"要", "用", "是", "和", "与", "跟", "的", "看", "比", "在", "从",
                                    "把", "对", "让", "给", "像", "叫", NULL};
    for (size_t k = 0; w[k]; k++)
        if (i >= strlen(w[k]) && !strncmp(s + i - strlen(w[k]), w[k], strlen(w[k])))
            return 1;
    return 0;
}

/* Does s open with a Chinese subject of the self-test's answers (自注意力, 循环神经网络), which
 * after a space starts a clause even beside punctuation ("…步数越多 自注意力里…")? */
static int han_subject(const char *s)
{
    static const char *const w[] = {"自注意力", "注意力机制", "循环神经网络", "循环网络", "编码器",
                                    "解码器", NULL};
    for (size_t i = 0; w[i]; i++)
        if (!strncmp(s, w[i], strlen(w[i])))
            return 1;
    return 0;
}

/* Does s open with an English subject of the self-test's answers (RNN, self-attention,
 * the encoder), a whole word? */
static int pause_subject(const char *s)
{
    static const char *const subjects[] = {"rnn", "self attention", "self-attention", "attention",
                                           "transformer", "lstm", NULL};
    for (size_t i = 0; subjects[i]; i++) {
        size_t l = strlen(subjects[i]);
        if (!strncasecmp(s, subjects[i], l) && !isalnum((unsigned char)s[l]))
            return 1;
    }
    return 0;
}

/* A one said in Chinese where a value is given, before a pause or the end: "距离是一，…",
 * "距离为一" is 1 ("是一步", "是一个" keep their words). A new string, or NULL when there
 * is none or no memory. */
static char *chinese_one(const char *s)
{
    size_t len = strlen(s), o = 0, found = 0;
    char *out = malloc(2 * len + 1);   /* "一" (3 bytes) becomes " 1" (2) */
    if (!out)
        return NULL;
    for (size_t i = 0; i < len;) {
        int cop = !strncmp(s + i, "是一", strlen("是一")) || !strncmp(s + i, "为一", strlen("为一"));
        size_t m = strlen("是一");
        ucs4_t next = 0;
        if (cop && i + m < len)
            u8_mbtouc(&next, (const uint8_t *)s + i + m, len - i - m);
        if (cop && !qz_is_han(next) && !isalnum((unsigned char)s[i + m])) {
            memcpy(out + o, s + i, 3);   /* 是 or 为 */
            memcpy(out + o + 3, " 1", 2);
            o += 5;
            i += m;
            found++;
            continue;
        }
        out[o++] = s[i++];
    }
    out[o] = '\0';
    if (!found) {
        free(out);
        return NULL;
    }
    return out;
}

/* An answer said aloud or typed on a phone with spaces for its only punctuation ("RNN 就像
 * 传话游戏 前面的词要一个一个传到后面 越远越传不清楚 自注意力是…"): each pause between two
 * Chinese characters is the comma it stands for, so that one clause does not run into
 * the next (a pause between words of two characters at least, not a stray space inside
 * one: "编 码 器"); so is a pause before a subject in English ("…随序列长度增长 self
 * attention 始终是常数"), unless a verb or a particle takes it as its object ("不需要 RNN").
 * This only where the answer has no Chinese punctuation and two pauses between characters
 * at least ("今天 下雨" alone stays); beside punctuation, only a pause before a Chinese
 * subject ("…步数越多 自注意力里…"). A new string, or NULL when there is none or no
 * memory. */
static char *spoken_pauses(const char *s)
{
    static const char *const marks[] = {"，", "。", "；", "、", "！", "？", "：", NULL};
    int punctuated = 0;   /* then only a pause before a Chinese subject counts */
    for (size_t i = 0; marks[i]; i++)
        punctuated |= strstr(s, marks[i]) != NULL;
    size_t len = strlen(s), pauses = 0, before_subject = 0;
    char *out = malloc(3 * len + 1);
    if (!out)
        return NULL;
    size_t o = 0, run = 0;   /* run: the Chinese characters just before */
    for (size_t i = 0; i < len;) {
        ucs4_t c;
        int n = u8_mbtouc(&c, (const uint8_t *)s + i, len - i);
        if (n <= 0)
            n = 1;
        if (c == ' ' && (run >= 2 || (run == 1 && i >= 3 && filler_sound(s, i - 3)))) {
            size_t j = i, ahead = 0;
            while (j < len && s[j] == ' ')
                j++;
            ucs4_t next = 0;
            for (size_t k = j; k < len && ahead < 2;) {   /* the characters just after */
                int m = u8_mbtouc(&next, (const uint8_t *)s + k, len - k);
                if (m <= 0 || !qz_is_han(next))
                    break;
                ahead++;
                k += (size_t)m;
            }
            if (j < len)
                u8_mbtouc(&next, (const uint8_t *)s + j, len - j);
            /* between words, not inside one typed with stray spaces ("编 码 器") */
            int subject = run >= 2 && han_subject(s + j) && !takes_object(s, i);
            if ((!punctuated && (ahead >= 2 || (ahead == 1 && filler_sound(s, j)) ||
                                 (pause_subject(s + j) && !takes_object(s, i)))) ||
                subject) {
                memcpy(out + o, "，", strlen("，"));
                o += strlen("，");
                pauses += qz_is_han(next);
                before_subject += subject;
                i = j;
                run = 0;
                continue;
            }
        }
        memcpy(out + o, s + i, (size_t)n);
        o += (size_t)n;
        i += (size_t)n;
        run = qz_is_han(c) ? run + 1 : 0;
    }
    out[o] = '\0';
    if (punctuated ? !before_subject : pauses < 2) {
        free(out);
        return NULL;
    }
    return out;
}

/* The steps of an explanation numbered in words ("第一步，RNN 像排队报数…；第二步，自注意力…",
 * "Step 1: the RNN …; step 2: attention …") as the plain order words they are: an
 * enumerator is no step of information. A new string, or NULL when there is none or no
 * memory. */
static char *enumerators(const char *s)
{
    static const char *const terms[][2] = {
        {"第一步，", "首先，"}, {"第一步：", "首先，"}, {"第一步:", "首先，"},
        {"第二步，", "其次，"}, {"第二步：", "其次，"}, {"第二步:", "其次，"},
        {"第三步，", "再者，"}, {"第三步：", "再者，"}, {"第三步:", "再者，"},
        {"Step 1:", "First,"}, {"step 1:", "first,"}, {"Step 2:", "Second,"},
        {"step 2:", "second,"}, {"Step 3:", "Third,"}, {"step 3:", "third,"},
    };
    return replace_terms(s, terms, sizeof terms / sizeof terms[0]);
}

/* Written Cantonese, before OpenCC's t2s (which would make 係 系): its words of grammar as
 * the Mandarin ones the rubric knows ("Q 嚟自 decoder，K 同 V 嚟自 encoder 嘅输出",
 * "淨係用 encoder 已經夠，唔使 decoder"). 係 is 是 but in 關係/关係/聯係 (relation). A new
 * string, or NULL when there is none or no memory. */
static char *cantonese(const char *s)
{
    static const char *const terms[][2] = {
        {"關係", "关系"}, {"关係", "关系"}, {"聯係", "联系"}, {"联係", "联系"},
        {"唔使", "不用"}, {"唔駛", "不用"}, {"唔洗", "不用"}, {"冇論", "无论"}, {"冇论", "无论"},
        {"冇", "没有"}, {"唔", "不"}, {"嘅", "的"}, {"淨係", "只是"}, {"净係", "只是"},
        {"係咪", "是不是"}, {"係", "是"}, {"嚟", "来"},
        {"睇", "看"}, {"嗰", "那"}, {"啲", "些"}, {"咗", "了"}, {"喺", "在"}, {"攞", "拿"},
        {"佢哋", "它们"}, {"佢", "它"}, {"噉", "这样"}, {"點解", "为什么"}, {"点解", "为什么"},
        {"同埋", "和"}, {"乜嘢", "什么"}, {"搵", "找"}, {"為咗", "为了"}, {"为咗", "为了"},
        {"加埋", "加起来"}, {"畀", "给"}, {"好似", "好像"}, {"令到", "让"},
        {"邊個", "谁"}, {"边个", "谁"}, {"咁", "这么"}, {"嘢", "东西"},
    };
    return replace_terms(s, terms, sizeof terms / sizeof terms[0]);
}

/* Pinyin for the field's words in a Chinese answer, as students of Chinese heritage type
 * what they cannot write ("Q 来自 jie ma qi", "梯度 jiu shi 没了", "yi bu yi bu 传过去"):
 * the characters the rubric knows. Only in text that holds other Chinese, spaced or run
 * together. A new string, or NULL when there is none or no memory. */
static char *pinyin_terms(const char *s)
{
    static const char *const terms[][2] = {
        {"zi zhu yi li", "自注意力"}, {"zizhuyili", "自注意力"}, {"zhu yi li", "注意力"},
        {"zhuyili", "注意力"}, {"jie ma qi", "解码器"}, {"jiemaqi", "解码器"},
        {"bian ma qi", "编码器"}, {"bianmaqi", "编码器"}, {"quan zhong", "权重"},
        {"quanzhong", "权重"}, {"ti du", "梯度"}, {"tidu", "梯度"}, {"xiao shi", "消失"},
        {"bao he", "饱和"}, {"baohe", "饱和"}, {"yi bu yi bu", "一步一步"},
        {"yibuyibu", "一步一步"}, {"kan dao", "看到"}, {"kandao", "看到"}, {"jiu shi", "就是"},
        {"fen lei", "分类"}, {"xiang liang", "向量"}, {"ju li", "距离"}, {"fang cha", "方差"},
        {"gen hao", "根号"}, {"wei du", "维度"}, {"zhi jie", "直接"}, {"xun huan", "循环"},
    };
    return replace_terms(s, terms, sizeof terms / sizeof terms[0]);
}

int qz_norm_text(const qz_norm *nm, const char *s, int fix_typos, qz_text *out, at_error *err)
{
    memset(out, 0, sizeof *out);
    char *simp = NULL;
    int wide = 0;
    for (const char *p = s; *p && !wide; p++)
        wide = (unsigned char)*p >= 0x80;
    /* OpenCC reads a truncated multibyte character past the end of its buffer, and the
     * case folding below refuses invalid UTF-8: a rubric phrase or an answer that is not
     * UTF-8 is named as such here, before either sees it. */
    const uint8_t *bad = wide ? u8_check((const uint8_t *)s, strlen(s)) : NULL;
    if (bad) {
        int rc = at_error_set(err, AT_EUTF8, "not valid UTF-8 at byte %zu",
                              (size_t)(bad - (const uint8_t *)s) + 1);
        if (err)
            err->offset = (long)(bad - (const uint8_t *)s);
        return rc;
    }
    char *canto = wide ? cantonese(s) : NULL;
    if (canto)
        s = canto;
    char *pinyin = wide ? pinyin_terms(s) : NULL;
    if (pinyin)
        s = pinyin;
    /* OpenCC converts Han characters only (lead bytes E3–E9 for U+3000–U+9FFF, EF for the
     * compatibility ideographs, F0 for the supplementary planes): text without them is
     * not given to it (a tenth of a rubric's compile time) */
    int han = 0;
    for (const char *p = s; wide && *p && !han; p++)
        han = ((unsigned char)*p >= 0xe3 && (unsigned char)*p <= 0xe9) || (unsigned char)*p == 0xef ||
              (unsigned char)*p == 0xf0;
    if (han && nm->t2s)
        simp = nm->lib->opencc_convert_utf8(nm->t2s, s, strlen(s));
    if (simp && strcmp(simp, s))   /* written in Traditional characters */
        taiwan_rows(simp);
    char *termed = wide ? field_terms(simp ? simp : s) : NULL;
    char *q = plain_marks(termed ? termed : simp ? simp : s);
    free(termed);
    char *eng = q ? english_forms(q) : NULL;
    if (eng) {
        free(q);
        q = eng;
    }
    char *numbered = q ? enumerators(q) : NULL;
    if (numbered) {
        free(q);
        q = numbered;
    }
    char *paused = q && wide && fix_typos ? spoken_pauses(q) : NULL;   /* an answer's */
    if (paused) {
        free(q);
        q = paused;
    }
    char *one = q && wide && fix_typos ? chinese_one(q) : NULL;
    if (one) {
        free(q);
        q = one;
    }
    if (simp)
        nm->lib->opencc_convert_utf8_free(simp);
    free(canto);
    free(pinyin);
    if (q && wide && fix_typos) {   /* an answer's 跟号 is 根号 (quiz/imeslip.h) */
        char *fixed = qz_ime_fix(q);
        free(q);
        q = fixed;
    }
    size_t n = 0;
    uint8_t *f = q ? u8_casefold((const uint8_t *)q, strlen(q), NULL, UNINORM_NFKC, NULL, &n) : NULL;
    free(q);
    if (!f)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    toks t = {0};
    tokenize(&t, f, n);
    free(f);
    spoken(&t);
    notations(&t);
    if (fix_typos) {   /* an answer's, not a rubric phrase's */
        said_again(&t);
        labelling_equals(&t);
        yes_or_no(&t);
    }
    indices(&t);
    fused_sides(&t);
    particles(&t);
    for (size_t i = 0; i < t.n && !t.failed;) {
        qz_tok *k = &t.v[i];
        int article = k->kind == QZ_TK_WORD && (!strcmp(k->s, "the") || !strcmp(k->s, "a") ||
                                                !strcmp(k->s, "an"));
        /* 的 says nothing, but in 的话 (if) and 别的 (other: no negation) */
        int de = !strcmp(k->s, "的") && !(i + 1 < t.n && !strcmp(t.v[i + 1].s, "话")) &&
                 !(i > 0 && !strcmp(t.v[i - 1].s, "别"));
        if (article || de) {
            drop(&t, i, 1);
            if (de && i < t.n)
                t.v[i].owned = 1;
            continue;
        }
        stem(nm, k);
        if (fix_typos)
            fix_typo(nm->vocab, k);
        i++;
    }
    if (t.failed) {
        qz_text tmp = {t.v, t.n};
        qz_text_free(&tmp);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    out->t = t.v;
    out->n = t.n;
    return AT_OK;
}
