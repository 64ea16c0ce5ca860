/* GPT-2's byte-level BPE (see bpe.h). */
#include "engine/hf/bpe.h"
#include "engine/hf/symtab.h"
#include "engine/file.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unictype.h>
#include <unistr.h>

#define TOKENIZER_FILE_MAX ((size_t)64 << 20)

struct at_bpe {
    at_symtab syms;         /* every vocabulary string */
    int32_t *sym_id;        /* [syms.n] its id */
    uint32_t *sym_bytes;    /* [syms.n] bytes of the sentence it stands for (its code points) */
    int32_t *id_sym;        /* [id_limit] the symbol of an id, -1 for none */
    size_t id_limit;
    int32_t byte_sym[256];  /* the symbol of each byte (bytes_to_unicode) */
    at_pairmap merges;      /* (left, right) → (rank, merged symbol) */
};

/* GPT-2's bytes_to_unicode(): printable Latin-1 bytes stand for themselves, the other
 * 68 take the code points from 256 up, in byte order. */
static uint32_t byte_char(unsigned b)
{
    if ((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255))
        return b;
    uint32_t n = 0;
    for (unsigned x = 0; x < b; x++)
        n += !((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255));
    return 256 + n;
}

void at_bpe_free(at_bpe *b)
{
    if (!b)
        return;
    at_symtab_free(&b->syms);
    at_pairmap_free(&b->merges);
    free(b->sym_id);
    free(b->sym_bytes);
    free(b->id_sym);
    free(b);
}

static int read_text(const char *path, const char *what, char **text, size_t *len,
                     at_error *err)
{
    at_error why;
    int rc = at_file_read(path, what, TOKENIZER_FILE_MAX, text, len, &why);
    return rc ? at_error_set(err, rc, "%s: %s", path, why.msg) : AT_OK;
}

static int load_vocab(at_bpe *b, const char *path, at_error *err)
{
    char *text;
    size_t len;
    int rc = read_text(path, "a vocabulary file (vocab.json)", &text, &len, err);
    if (rc)
        return rc;
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0), *e;
    if (!cJSON_IsObject(j)) {
        rc = !j && end ? at_error_set(err, AT_EINVAL, "%s: not valid JSON (near byte %ld)", path,
                                      (long)(end - text))
                       : at_error_set(err, AT_EINVAL, "%s: not a JSON object of pieces and ids",
                                      path);
        goto out;
    }
    size_t n = (size_t)cJSON_GetArraySize(j);
    b->sym_id = malloc((n ? n : 1) * sizeof *b->sym_id);
    if (!b->sym_id) {
        rc = at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    cJSON_ArrayForEach(e, j) {
        double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (!(v >= 0 && v < 10000000 && v == (double)(int32_t)v)) {
            rc = at_error_set(err, AT_EINVAL, "%s: the id of piece '%s' is not a whole number "
                              "from 0 to 9999999", path, e->string);
            goto out;
        }
        int32_t s = at_symtab_intern(&b->syms, e->string, strlen(e->string));
        if (s < 0) {
            rc = at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
            goto out;
        }
        if ((size_t)s + 1 == b->syms.n)   /* a piece named twice keeps its first id */
            b->sym_id[s] = (int32_t)v;
        if ((size_t)v + 1 > b->id_limit)
            b->id_limit = (size_t)v + 1;
    }
    b->id_sym = malloc((b->id_limit ? b->id_limit : 1) * sizeof *b->id_sym);
    b->sym_bytes = malloc((b->syms.n ? b->syms.n : 1) * sizeof *b->sym_bytes);
    if (!b->id_sym || !b->sym_bytes) {
        rc = at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
        goto out;
    }
    for (size_t i = 0; i < b->id_limit; i++)
        b->id_sym[i] = -1;
    for (size_t s = 0; s < b->syms.n; s++) {
        if (b->id_sym[b->sym_id[s]] < 0)
            b->id_sym[b->sym_id[s]] = (int32_t)s;
        b->sym_bytes[s] = (uint32_t)u8_mbsnlen((const uint8_t *)b->syms.strs[s], b->syms.lens[s]);
    }
    for (unsigned x = 0; x < 256; x++) {
        uint8_t u[4];
        int k = u8_uctomb(u, byte_char(x), sizeof u);
        b->byte_sym[x] = k > 0 ? at_symtab_find(&b->syms, (const char *)u, (size_t)k) : -1;
        if (b->byte_sym[x] < 0 || b->sym_bytes[b->byte_sym[x]] != 1) {
            rc = at_error_set(err, AT_EINVAL, "%s: no piece for byte 0x%02X ('%.*s'): not a "
                              "byte-level BPE vocabulary", path, x, k > 0 ? k : 0, (char *)u);
            goto out;
        }
    }
out:
    cJSON_Delete(j);
    free(text);
    return rc;
}

static int load_merges(at_bpe *b, const char *path, at_error *err)
{
    char *text;
    size_t len;
    int rc = read_text(path, "a merges file (merges.txt)", &text, &len, err);
    if (rc)
        return rc;
    int32_t rank = 0;
    size_t line = 0;
    for (char *p = text, *next; p < text + len; p = next) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        next = nl ? nl + 1 : text + len;
        size_t n = (size_t)((nl ? nl : text + len) - p);
        line++;
        if (n && p[n - 1] == '\r')
            n--;
        if (!n || (line == 1 && n >= 8 && !memcmp(p, "#version", 8)))
            continue;
        char *sp = memchr(p, ' ', n);
        if (!sp || sp == p || sp == p + n - 1 || memchr(sp + 1, ' ', (size_t)(p + n - sp - 1))) {
            rc = at_error_set(err, AT_EINVAL, "%s:%zu: not two pieces separated by one space",
                              path, line);
            goto out;
        }
        size_t la = (size_t)(sp - p), lb = n - la - 1;
        int32_t a = at_symtab_find(&b->syms, p, la), c = at_symtab_find(&b->syms, sp + 1, lb);
        if (a < 0 || c < 0) {
            rc = at_error_set(err, AT_EINVAL, "%s:%zu: piece '%.*s' is not in the vocabulary",
                              path, line, (int)(a < 0 ? la : lb), a < 0 ? p : sp + 1);
            goto out;
        }
        char joined[1024];
        if (la + lb >= sizeof joined) {
            rc = at_error_set(err, AT_EINVAL, "%s:%zu: a merge of more than %zu bytes", path,
                              line, sizeof joined - 1);
            goto out;
        }
        memcpy(joined, p, la);
        memcpy(joined + la, sp + 1, lb);
        int32_t m = at_symtab_find(&b->syms, joined, la + lb);
        if (m < 0) {
            rc = at_error_set(err, AT_EINVAL, "%s:%zu: the merge makes '%.*s', which the "
                              "vocabulary lacks", path, line, (int)(la + lb), joined);
            goto out;
        }
        if (at_pairmap_add(&b->merges, a, c, rank++, m)) {
            rc = at_error_set(err, AT_ENOMEM, "%s: out of memory", path);
            goto out;
        }
    }
out:
    free(text);
    return rc;
}

int at_bpe_load(const char *vocab_path, const char *merges_path, at_bpe **out, at_error *err)
{
    *out = NULL;
    at_bpe *b = calloc(1, sizeof *b);
    if (!b)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    int rc = load_vocab(b, vocab_path, err);
    if (!rc)
        rc = load_merges(b, merges_path, err);
    if (rc) {
        at_bpe_free(b);
        return rc;
    }
    *out = b;
    return AT_OK;
}

size_t at_bpe_id_limit(const at_bpe *b)
{
    return b->id_limit;
}

const char *at_bpe_piece(const at_bpe *b, int32_t id)
{
    if (id < 0 || (size_t)id >= b->id_limit || b->id_sym[id] < 0)
        return NULL;
    return b->syms.strs[b->id_sym[id]];
}

int32_t at_bpe_id(const at_bpe *b, const char *piece)
{
    int32_t s = at_symtab_find(&b->syms, piece, strlen(piece));
    return s < 0 ? -1 : b->sym_id[s];
}

/* ---- pre-tokens ---- */

enum { CL_SPACE, CL_LETTER, CL_NUMBER, CL_OTHER };

static int class_of(ucs4_t c)
{
    if (uc_is_property_white_space(c))
        return CL_SPACE;
    if (uc_is_general_category(c, UC_CATEGORY_L))
        return CL_LETTER;
    if (uc_is_general_category(c, UC_CATEGORY_N))
        return CL_NUMBER;
    return CL_OTHER;
}

/* The code point at s[p] (the input is valid UTF-8) and its length. */
static int at(const char *s, size_t len, size_t p, ucs4_t *c)
{
    return u8_mbtouc_unsafe(c, (const uint8_t *)s + p, len - p);
}

/* The end of the run of class cl starting at p. */
static size_t run_end(const char *s, size_t len, size_t p, int cl)
{
    ucs4_t c;
    while (p < len) {
        int k = at(s, len, p, &c);
        if (class_of(c) != cl)
            break;
        p += (size_t)k;
    }
    return p;
}

/* The end of the pre-token that starts at p (< len), by GPT-2's pattern. */
static size_t pretoken_end(const char *s, size_t len, size_t p)
{
    static const char *const contractions[] = {"s", "t", "re", "ve", "m", "ll", "d"};
    ucs4_t c, c1 = 0;
    int k = at(s, len, p, &c), cl = class_of(c);
    if (c == '\'')
        for (size_t i = 0; i < sizeof contractions / sizeof *contractions; i++) {
            size_t n = strlen(contractions[i]);
            if (p + 1 + n <= len && !memcmp(s + p + 1, contractions[i], n))
                return p + 1 + n;
        }
    int cl1 = -1;
    if (p + (size_t)k < len) {
        at(s, len, p + (size_t)k, &c1);
        cl1 = class_of(c1);
    }
    if (c == ' ' && cl1 > CL_SPACE)          /* " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+" */
        return run_end(s, len, p + 1, cl1);
    if (cl != CL_SPACE)
        return run_end(s, len, p, cl);
    size_t r = run_end(s, len, p, CL_SPACE);  /* "\s+(?!\S)", then "\s+" */
    if (r == len)
        return r;
    size_t last = r;                          /* the start of the run's last character */
    while (last > p && ((unsigned char)s[last - 1] & 0xC0) == 0x80)
        last--;
    last--;
    return last > p ? last : r;
}

/* ---- merges ---- */

typedef struct word {
    int32_t *sym;       /* symbols */
    uint32_t *bytes;    /* bytes each stands for */
    int32_t *rank;      /* rank[i]: the merge rank of (sym[i], sym[i+1]), INT32_MAX = none */
    size_t n;
} word;

static int32_t rank_of(const at_bpe *b, int32_t x, int32_t y, int32_t *merged)
{
    const int32_t *v = at_pairmap_get(&b->merges, x, y);
    if (!v)
        return INT32_MAX;
    if (merged)
        *merged = v[1];
    return v[0];
}

/* Merge until no pair has a rank: each round the lowest-ranked pair, all of its
 * occurrences from left to right (OpenAI's encoder.py bpe()). Ranks of pairs are kept
 * and looked up again only next to a merge. */
static void merge_word(const at_bpe *b, word *w)
{
    for (size_t i = 0; i + 1 < w->n; i++)
        w->rank[i] = rank_of(b, w->sym[i], w->sym[i + 1], NULL);
    if (w->n)
        w->rank[w->n - 1] = INT32_MAX;
    while (w->n > 1) {
        int32_t best = INT32_MAX;
        size_t at_best = 0;
        for (size_t i = 0; i + 1 < w->n; i++)
            if (w->rank[i] < best) {
                best = w->rank[i];
                at_best = i;
            }
        if (best == INT32_MAX)
            break;
        int32_t x = w->sym[at_best], y = w->sym[at_best + 1], m = -1;
        rank_of(b, x, y, &m);
        size_t o = 0;
        /* Compact in place (o <= i); rank[o] = -1 marks a pair next to a new symbol. */
        for (size_t i = 0; i < w->n; o++) {
            if (i + 1 < w->n && w->sym[i] == x && w->sym[i + 1] == y) {
                w->sym[o] = m;
                w->bytes[o] = w->bytes[i] + w->bytes[i + 1];
                w->rank[o] = -1;
                if (o > 0)
                    w->rank[o - 1] = -1;
                i += 2;
            } else {
                w->sym[o] = w->sym[i];
                w->bytes[o] = w->bytes[i];
                w->rank[o] = w->rank[i];   /* (i, i+1); a merge at i+1 marks it */
                i += 1;
            }
        }
        w->n = o;
        for (size_t i = 0; i + 1 < w->n; i++)
            if (w->rank[i] == -1)
                w->rank[i] = rank_of(b, w->sym[i], w->sym[i + 1], NULL);
        w->rank[w->n - 1] = INT32_MAX;
    }
}

int at_bpe_encode(const at_bpe *b, const char *s, size_t len, int32_t **ids, size_t **start,
                  size_t **len_out, size_t *n_out, at_error *err)
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
    /* At most one piece per byte. */
    size_t cap = len ? len : 1;
    word w = {malloc(cap * sizeof *w.sym), malloc(cap * sizeof *w.bytes),
              malloc(cap * sizeof *w.rank), 0};
    int32_t *id = malloc(cap * sizeof *id);
    size_t *st = malloc(cap * sizeof *st), *ln = malloc(cap * sizeof *ln), n = 0;
    if (!w.sym || !w.bytes || !w.rank || !id || !st || !ln) {
        free(id);
        free(st);
        free(ln);
        id = NULL;
        st = ln = NULL;
        goto out;
    }
    for (size_t p = 0; p < len;) {
        size_t q = pretoken_end(s, len, p);
        w.n = q - p;
        for (size_t i = 0; i < w.n; i++) {
            w.sym[i] = b->byte_sym[(unsigned char)s[p + i]];
            w.bytes[i] = 1;
        }
        merge_word(b, &w);
        size_t o = p;
        for (size_t i = 0; i < w.n; i++) {
            id[n] = b->sym_id[w.sym[i]];
            st[n] = o;
            ln[n] = w.bytes[i];
            o += w.bytes[i];
            n++;
        }
        p = q;
    }
out:
    free(w.sym);
    free(w.bytes);
    free(w.rank);
    if (!id)
        return at_error_set(err, AT_ENOMEM, "out of memory for %zu bytes", len);
    if (!n) {
        free(id);
        free(st);
        free(ln);
        return AT_OK;
    }
    *ids = id;
    *start = st;
    *len_out = ln;
    *n_out = n;
    return AT_OK;
}
