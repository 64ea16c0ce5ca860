/* Tokenizer (see tokenizer.h): grapheme clusters from u8_grapheme_breaks, word
 * boundaries from u8_wordbreaks; a token boundary is always a cluster boundary. */
#include "engine/tokenizer.h"
#include "engine/text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unictype.h>
#include <unigbrk.h>
#include <unistr.h>
#include <uniwbrk.h>

/* What one grapheme cluster is, for tokenizing. */
enum cluster_kind {
    K_SPACE,      /* starts with horizontal white space (space, tab, U+3000, NBSP) */
    K_BREAK,      /* starts with other white space, U+200B or a control (newline) */
    K_IGNORABLE,  /* other default-ignorable characters only (U+00AD, U+FEFF) */
    K_HAN,        /* starts with a Han character */
    K_OTHER,
};

static int is_hspace(ucs4_t c)
{
    return c == '\t' || uc_is_general_category(c, UC_CATEGORY_Zs);
}

/* A cluster is classified by its first code point (marks that follow a space
 * belong to the space), except that it is ignorable only if all of it is. */
static enum cluster_kind classify(const uint8_t *p, size_t n, const uc_script_t *han)
{
    ucs4_t first, c;
    size_t i = (size_t)u8_mbtouc(&first, p, n);
    if (is_hspace(first))
        return K_SPACE;
    if (first == 0x200B || uc_is_property_white_space(first) ||
        uc_is_general_category(first, UC_CATEGORY_Cc))
        return K_BREAK;
    int all_ign = uc_is_property_default_ignorable_code_point(first);
    while (all_ign && i < n) {
        i += (size_t)u8_mbtouc(&c, p + i, n - i);
        all_ign = uc_is_property_default_ignorable_code_point(c);
    }
    if (all_ign)
        return K_IGNORABLE;
    return han && uc_is_script(first, han) ? K_HAN : K_OTHER;
}

static int utf8_error(const uint8_t *s, size_t len, const uint8_t *bad, at_error *err)
{
    size_t off = (size_t)(bad - s), rest = len - off;
    ucs4_t c;
    size_t n = (size_t)u8_mbtouc(&c, bad, rest);
    size_t want = *bad >= 0xF0 ? 4 : *bad >= 0xE0 ? 3 : *bad >= 0xC0 ? 2 : 1;
    char hex[16] = "";
    for (size_t i = 0, o = 0; i < n && i < 4; i++)
        o += (size_t)snprintf(hex + o, sizeof hex - o, "%s%02X", i ? " " : "", bad[i]);
    if (off + n == len && n < want && *bad >= 0xC2 && *bad <= 0xF4)
        at_error_set(err, AT_EUTF8,
                     "truncated UTF-8 at byte offset %zu: %s starts a %zu-byte character "
                     "but the text ends after %zu byte%s", off, hex, want, n, n == 1 ? "" : "s");
    else
        at_error_set(err, AT_EUTF8, "invalid UTF-8 at byte offset %zu: %s is not a character",
                     off, hex);
    if (err)
        err->offset = (long)off;
    return AT_EUTF8;
}

/* A growing list of token spans. */
typedef struct span_list {
    at_token *items;
    size_t n, cap;
} span_list;

static int push_span(span_list *l, size_t start, size_t end)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        at_token *items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return AT_ENOMEM;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = (at_token){.start = start, .len = end - start, .width = 0, .text = NULL};
    return AT_OK;
}

/* 1 if a Han cluster is followed, after horizontal white space only, by another. */
static int han_words_spaced(const uint8_t *s, size_t len, const char *gb, const uc_script_t *han)
{
    enum cluster_kind last = K_BREAK;
    int space_since = 0;
    for (size_t b = 0, e; b < len; b = e) {
        for (e = b + 1; e < len && !gb[e]; e++)
            ;
        enum cluster_kind k = classify(s + b, e - b, han);
        if (k == K_SPACE) {
            space_since = 1;
            continue;
        }
        if (k == K_HAN && last == K_HAN && space_since)
            return 1;
        last = k;
        space_since = 0;
    }
    return 0;
}

/* Group the clusters of s into token spans by the rules in tokenizer.h. */
static int split(const uint8_t *s, size_t len, const char *gb, const char *wb,
                 const uc_script_t *han, span_list *out)
{
    int spaced = han_words_spaced(s, len, gb, han);
    int open = 0, rc = AT_OK;
    enum cluster_kind cur = K_OTHER;
    size_t cur_start = 0, cur_end = 0;
    for (size_t b = 0, e; b < len && rc == AT_OK; b = e) {
        for (e = b + 1; e < len && !gb[e]; e++)
            ;
        enum cluster_kind k = classify(s + b, e - b, han);
        if (k == K_IGNORABLE)   /* kept only inside a token, when more of it follows */
            continue;
        int extend = open && ((k == K_HAN && cur == K_HAN && spaced) ||
                              (k == K_OTHER && cur == K_OTHER && !wb[b]));
        if (extend) {
            cur_end = e;
            continue;
        }
        if (open)
            rc = push_span(out, cur_start, cur_end);
        open = k == K_HAN || k == K_OTHER;
        cur = k, cur_start = b, cur_end = e;
    }
    if (open && rc == AT_OK)
        rc = push_span(out, cur_start, cur_end);
    return rc;
}

static int fill_tokens(const char *s, span_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        at_token *t = &l->items[i];
        t->width = (int)at_text_width(s + t->start, t->len);
        t->text = malloc(t->len + 1);
        if (!t->text)
            return AT_ENOMEM;
        memcpy(t->text, s + t->start, t->len);
        t->text[t->len] = '\0';
    }
    return AT_OK;
}

int at_tokenize(const char *s, size_t len, at_tokens *out, at_error *err)
{
    if (!out || (!s && len > 0))
        return at_error_set(err, AT_EINVAL, "at_tokenize: %s is NULL", out ? "the text" : "out");
    out->items = NULL;
    out->n = 0;
    if (len > AT_TOKENIZE_MAX_BYTES)
        return at_error_set(err, AT_ERANGE,
                            "the text is %zu bytes long; the tokenizer takes at most %d bytes",
                            len, AT_TOKENIZE_MAX_BYTES);
    if (len == 0)
        return AT_OK;
    const uint8_t *u = (const uint8_t *)s;
    const uint8_t *bad = u8_check(u, len);
    if (bad)
        return utf8_error(u, len, bad, err);

    int rc = AT_ENOMEM;
    span_list l = {0};
    char *gb = malloc(len), *wb = malloc(len);
    if (!gb || !wb)
        goto out;
    u8_grapheme_breaks(u, len, gb);
    u8_wordbreaks(u, len, wb);
    rc = split(u, len, gb, wb, uc_script_byname("Han"), &l);
    if (rc == AT_OK)
        rc = fill_tokens(s, &l);
out:
    free(gb);
    free(wb);
    at_tokens t = {l.items, l.n};
    if (rc != AT_OK) {
        at_tokens_free(&t);
        return at_error_set(err, rc, "out of memory while tokenizing %zu bytes", len);
    }
    *out = t;
    return AT_OK;
}

void at_tokens_free(at_tokens *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->items[i].text);
    free(t->items);
    t->items = NULL;
    t->n = 0;
}
