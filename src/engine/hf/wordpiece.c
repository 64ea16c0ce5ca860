/* BERT's basic tokenizer and WordPiece (see wordpiece.h). */
#include "engine/hf/wordpiece.h"
#include "engine/hf/symtab.h"
#include "engine/file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

#define VOCAB_FILE_MAX ((size_t)64 << 20)
#define MAX_WORD_CHARS 100   /* BERT's max_input_chars_per_word */

struct at_wordpiece {
    at_symtab syms;
    int32_t *sym_id;        /* [syms.n] the id (line) of each piece: the last line wins */
    int32_t *id_sym;        /* [n_ids] the piece of each line */
    size_t n_ids;
    int lower;
    int32_t cls, sep, unk;
};

void at_wordpiece_free(at_wordpiece *w)
{
    if (!w)
        return;
    at_symtab_free(&w->syms);
    free(w->sym_id);
    free(w->id_sym);
    free(w);
}

static int load_lines(at_wordpiece *w, const char *path, char *text, size_t len, at_error *err)
{
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    lines += len && text[len - 1] != '\n';
    w->id_sym = malloc((lines ? lines : 1) * sizeof *w->id_sym);
    w->sym_id = malloc((lines ? lines : 1) * sizeof *w->sym_id);
    if (!w->id_sym || !w->sym_id)
        return at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
    for (char *p = text, *next; p < text + len; p = next) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        next = nl ? nl + 1 : text + len;
        size_t n = (size_t)((nl ? nl : text + len) - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (u8_check((const uint8_t *)p, n) || memchr(p, '\0', n))
            return at_error_set(err, AT_EINVAL, "%s:%zu: not a line of UTF-8 text", path,
                                w->n_ids + 1);
        int32_t s = at_symtab_intern(&w->syms, p, n);
        if (s < 0)
            return at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
        w->sym_id[s] = (int32_t)w->n_ids;
        w->id_sym[w->n_ids++] = s;
    }
    return AT_OK;
}

int at_wordpiece_load(const char *vocab_path, int lower_case, at_wordpiece **out,
                      at_error *err)
{
    *out = NULL;
    char *text;
    size_t len;
    at_error why;
    int rc = at_file_read(vocab_path, "a vocabulary file (vocab.txt)", VOCAB_FILE_MAX, &text,
                          &len, &why);
    if (rc)
        return at_error_set(err, rc, "%s: %s", vocab_path, why.msg);
    at_wordpiece *w = calloc(1, sizeof *w);
    if (!w) {
        free(text);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    w->lower = lower_case;
    rc = load_lines(w, vocab_path, text, len, err);
    free(text);
    static const char *const special[] = {"[CLS]", "[SEP]", "[UNK]"};
    int32_t *ids[] = {&w->cls, &w->sep, &w->unk};
    for (size_t i = 0; !rc && i < 3; i++)
        if ((*ids[i] = at_wordpiece_id(w, special[i])) < 0)
            rc = at_error_set(err, AT_EINVAL, "%s: no %s piece: not a BERT vocabulary",
                              vocab_path, special[i]);
    if (rc) {
        at_wordpiece_free(w);
        return rc;
    }
    *out = w;
    return AT_OK;
}

size_t at_wordpiece_size(const at_wordpiece *w)
{
    return w->n_ids;
}

const char *at_wordpiece_piece(const at_wordpiece *w, int32_t id)
{
    return id >= 0 && (size_t)id < w->n_ids ? w->syms.strs[w->id_sym[id]] : NULL;
}

int32_t at_wordpiece_id(const at_wordpiece *w, const char *piece)
{
    int32_t s = at_symtab_find(&w->syms, piece, strlen(piece));
    return s < 0 ? -1 : w->sym_id[s];
}

/* ---- the basic tokenizer: normalised characters, each with its source span ---- */

typedef struct nchar {
    ucs4_t c;
    size_t a, b;        /* bytes of the sentence it came from */
    int word_start;     /* 1: a new word starts here */
} nchar;

typedef struct nbuf {
    nchar *v;
    size_t n, cap;
    int brk;            /* the next character starts a word */
} nbuf;

static int push(nbuf *o, ucs4_t c, size_t a, size_t b)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        nchar *v = realloc(o->v, cap * sizeof *v);
        if (!v)
            return -1;
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = (nchar){c, a, b, o->brk || o->n == 0};
    o->brk = 0;
    return 0;
}

/* White space: BERT's _is_whitespace (space, tab, newline, carriage return, Zs), and the
 * line and paragraph separators that its whitespace split (str.split) also cuts at. */
static int is_space(ucs4_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029 ||
           uc_is_general_category(c, UC_CATEGORY_Zs);
}

static int is_control(ucs4_t c)
{
    return c != '\t' && c != '\n' && c != '\r' && uc_is_general_category(c, UC_CATEGORY_C);
}

static int is_punct(ucs4_t c)
{
    return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
           (c >= 123 && c <= 126) || uc_is_general_category(c, UC_CATEGORY_P);
}

/* BERT's _is_chinese_char: the CJK Unified Ideographs blocks (not kana or Hangul). */
static int is_cjk(ucs4_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

/* Σ lower-cases to ς when it ends a word (Unicode's Final_Sigma: a cased letter before
 * it, none after it, case-ignorable characters skipped), within the word s[ws .. we). */
static int final_sigma(const char *s, size_t ws, size_t we, size_t p, size_t k)
{
    ucs4_t c;
    int before = 0, after = 0;
    for (size_t q = p; q > ws;) {
        size_t r = q - 1;
        while (r > ws && ((unsigned char)s[r] & 0xC0) == 0x80)
            r--;
        u8_mbtouc_unsafe(&c, (const uint8_t *)s + r, q - r);
        q = r;
        if (uc_is_property_case_ignorable(c))
            continue;
        before = uc_is_property_cased(c);
        break;
    }
    for (size_t q = p + k; q < we;) {
        q += (size_t)u8_mbtouc_unsafe(&c, (const uint8_t *)s + q, we - q);
        if (uc_is_property_case_ignorable(c))
            continue;
        after = uc_is_property_cased(c);
        break;
    }
    return before && !after;
}

/* Append the normal form of c (s[p .. p + k)) to o: lower-cased and without accents
 * when lower; each punctuation character a word of its own. */
static int add_char(nbuf *o, ucs4_t c, const char *s, size_t p, size_t k, size_t ws, size_t we,
                    int lower)
{
    ucs4_t buf[32], *v = &c;
    size_t n = 1;
    if (lower) {
        ucs4_t low[8], *l = low;
        size_t nl = sizeof low / sizeof *low;
        if (c == 0x03A3) {
            low[0] = final_sigma(s, ws, we, p, k) ? 0x03C2 : 0x03C3;
            nl = 1;
        } else if (!(l = u32_tolower(&c, 1, NULL, NULL, low, &nl)) || nl > 8) {
            if (l && l != low)
                free(l);
            low[0] = c;
            nl = 1;
        } else if (l != low) {
            memcpy(low, l, nl * sizeof *low);
            free(l);
        }
        n = sizeof buf / sizeof *buf;
        ucs4_t *d = u32_normalize(UNINORM_NFD, low, nl, buf, &n);
        if (!d || n > sizeof buf / sizeof *buf) {
            if (d && d != buf)
                free(d);
            memcpy(buf, low, nl * sizeof *low);
            n = nl;
        } else if (d != buf) {
            memcpy(buf, d, n * sizeof *d);
            free(d);
        }
        v = buf;
    }
    for (size_t i = 0; i < n; i++) {
        if (lower && uc_is_general_category(v[i], UC_CATEGORY_Mn))
            continue;
        int punct = is_punct(v[i]);
        if (punct)
            o->brk = 1;
        if (push(o, v[i], p, p + k))
            return -1;
        if (punct)
            o->brk = 1;
    }
    return 0;
}

/* The end of the white-space-delimited word that starts at p (for Final_Sigma). */
static size_t word_end(const char *s, size_t len, size_t p)
{
    ucs4_t c;
    while (p < len) {
        int k = u8_mbtouc_unsafe(&c, (const uint8_t *)s + p, len - p);
        if (is_space(c) || is_cjk(c))
            break;
        p += (size_t)k;
    }
    return p;
}

static int basic(const at_wordpiece *w, const char *s, size_t len, nbuf *o)
{
    size_t ws = 0, we = 0;
    for (size_t p = 0; p < len;) {
        ucs4_t c;
        int k = u8_mbtouc_unsafe(&c, (const uint8_t *)s + p, len - p);
        if (p >= we) {
            ws = p;
            we = word_end(s, len, p);
        }
        if (c == 0 || c == 0xFFFD || is_control(c)) {
            /* dropped */
        } else if (is_space(c)) {
            o->brk = 1;
        } else if (is_cjk(c)) {
            o->brk = 1;
            if (add_char(o, c, s, p, (size_t)k, p, p + (size_t)k, w->lower))
                return -1;
            o->brk = 1;
        } else if (add_char(o, c, s, p, (size_t)k, ws, we, w->lower)) {
            return -1;
        }
        p += (size_t)k;
    }
    return 0;
}

/* ---- WordPiece ---- */

typedef struct out_list {
    int32_t *ids;
    size_t *start, *len;
    size_t n, cap;
} out_list;

static int emit(out_list *o, int32_t id, size_t a, size_t b)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 64;
        int32_t *ids = realloc(o->ids, cap * sizeof *ids);
        if (!ids)
            return -1;
        o->ids = ids;
        size_t *st = realloc(o->start, cap * sizeof *st);
        if (!st)
            return -1;
        o->start = st;
        size_t *ln = realloc(o->len, cap * sizeof *ln);
        if (!ln)
            return -1;
        o->len = ln;
        o->cap = cap;
    }
    o->ids[o->n] = id;
    o->start[o->n] = a;
    o->len[o->n] = b - a;
    o->n++;
    return 0;
}

/* The pieces of one word v[0 .. n): greedy longest match from the left. */
static int wordpiece(const at_wordpiece *w, const nchar *v, size_t n, out_list *o)
{
    if (n > MAX_WORD_CHARS)
        return emit(o, w->unk, v[0].a, v[n - 1].b);
    uint8_t utf[MAX_WORD_CHARS * 4 + 2], cand[MAX_WORD_CHARS * 4 + 4];
    size_t off[MAX_WORD_CHARS + 1], first = o->n;
    off[0] = 0;
    for (size_t i = 0; i < n; i++) {
        int k = u8_uctomb(utf + off[i], v[i].c, 4);
        off[i + 1] = off[i] + (size_t)(k > 0 ? k : 0);
    }
    for (size_t start = 0; start < n;) {
        size_t end = n;
        int32_t id = -1;
        for (; end > start; end--) {
            size_t m = 0;
            if (start > 0) {
                cand[0] = '#';
                cand[1] = '#';
                m = 2;
            }
            memcpy(cand + m, utf + off[start], off[end] - off[start]);
            m += off[end] - off[start];
            int32_t s = at_symtab_find(&w->syms, (const char *)cand, m);
            if (s >= 0) {
                id = w->sym_id[s];
                break;
            }
        }
        if (id < 0) {               /* the word cannot be cut: one [UNK] */
            o->n = first;
            return emit(o, w->unk, v[0].a, v[n - 1].b);
        }
        if (emit(o, id, v[start].a, v[end - 1].b))
            return -1;
        start = end;
    }
    return 0;
}

int at_wordpiece_encode(const at_wordpiece *w, const char *s, size_t len, int32_t **ids,
                        size_t **start, size_t **len_out, size_t *n_out, at_error *err)
{
    *ids = NULL;
    *start = NULL;
    *len_out = NULL;
    *n_out = 0;
    const uint8_t *bad = u8_check((const uint8_t *)s, len);
    if (bad) {
        if (err)
            err->offset = (long)(bad - (const uint8_t *)s);
        return at_error_set(err, AT_EUTF8, "invalid UTF-8 at byte %ld",
                            (long)(bad - (const uint8_t *)s));
    }
    nbuf chars = {0};
    out_list o = {0};
    int bad_alloc = basic(w, s, len, &chars) || emit(&o, w->cls, 0, 0);
    for (size_t i = 0; !bad_alloc && i < chars.n;) {
        size_t j = i + 1;
        while (j < chars.n && !chars.v[j].word_start)
            j++;
        bad_alloc = wordpiece(w, chars.v + i, j - i, &o);
        i = j;
    }
    bad_alloc = bad_alloc || emit(&o, w->sep, len, len);
    free(chars.v);
    if (bad_alloc) {
        free(o.ids);
        free(o.start);
        free(o.len);
        return at_error_set(err, AT_ENOMEM, "out of memory for %zu bytes", len);
    }
    *ids = o.ids;
    *start = o.start;
    *len_out = o.len;
    *n_out = o.n;
    return AT_OK;
}
