/* Display width and grapheme clusters of UTF-8 text (see text.h).
 *
 * Cluster boundaries come from u8_grapheme_breaks, which applies the full UAX #29
 * rules (emoji ZWJ sequences, regional-indicator pairs). libunistring 1.0's
 * u8_grapheme_next/u8_grapheme_prev only compare neighbouring code points and
 * split 👩🏿‍🔧 before 🔧 and a flag into two halves, so they are not used.
 *
 * To walk a long string without allocating, breaks are computed over a window of
 * at most GB_WINDOW bytes that starts at a known boundary: a break inside the
 * window depends only on what precedes it back to that boundary, so it is exact.
 * The window ends on a code-point start so no character is cut in two. */
#include "engine/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unictype.h>
#include <unigbrk.h>
#include <unilbrk.h>
#include <unistr.h>
#include <uniwidth.h>

#define GB_WINDOW 256
/* The window of a single step (at_text_next_grapheme): one cluster is almost always
 * shorter, and a step that computed 256 bytes of breaks for each cluster made walking
 * a line cluster by cluster cost 256 bytes of work per character. */
#define GB_STEP_WINDOW 32

typedef struct gb_iter {
    const uint8_t *s;
    size_t len;
    size_t cap;               /* window size, at most GB_WINDOW */
    size_t wstart, wlen;      /* brk[i] is the break flag before s[wstart + i] */
    char brk[GB_WINDOW];
} gb_iter;

static void gb_init_cap(gb_iter *it, const char *s, size_t len, size_t cap)
{
    it->s = (const uint8_t *)s;
    it->len = len;
    it->cap = cap;
    it->wstart = 0;
    it->wlen = 0;
}

static void gb_init(gb_iter *it, const char *s, size_t len)
{
    gb_init_cap(it, s, len, GB_WINDOW);
}

static void gb_fill(gb_iter *it, size_t pos)
{
    size_t n = it->len - pos;
    if (n > it->cap) {
        n = it->cap;   /* s[pos + n] exists: back off to a code-point start */
        while (n > 1 && (it->s[pos + n] & 0xC0) == 0x80)
            n--;
    }
    it->wstart = pos;
    it->wlen = n;
    u8_grapheme_breaks(it->s + pos, n, it->brk);
}

/* First break after pos inside the window, or 0. */
static size_t gb_search(const gb_iter *it, size_t pos)
{
    for (size_t i = pos - it->wstart + 1; i < it->wlen; i++)
        if (it->brk[i])
            return it->wstart + i;
    return 0;
}

/* A cluster longer than the window (e.g. hundreds of stacked combining marks). */
static size_t gb_end_long(const gb_iter *it, size_t pos)
{
    size_t n = it->len - pos, end = it->len;
    char *b = malloc(n);
    if (!b)
        return end;   /* out of memory: the rest counts as one cluster */
    u8_grapheme_breaks(it->s + pos, n, b);
    for (size_t i = 1; i < n; i++)
        if (b[i]) {
            end = pos + i;
            break;
        }
    free(b);
    return end;
}

/* A character that UAX #29 gives no property that joins it to a neighbour (Grapheme
 * Cluster Break "Other", not Extended_Pictographic) and that is 1 or 3 bytes long: ASCII
 * but CR, and the CJK ideographs U+4000..U+9FFF (lead bytes E4..E9). */
static int gb_plain(const uint8_t *p, size_t n)
{
    if (p[0] < 0x80)
        return p[0] != '\r';
    return p[0] >= 0xE4 && p[0] <= 0xE9 && n >= 3 && (p[1] & 0xC0) == 0x80 &&
           (p[2] & 0xC0) == 0x80;
}

/* End of the cluster that starts at the boundary pos. */
static size_t gb_end(gb_iter *it, size_t pos)
{
    if (pos >= it->len)
        return it->len;
    /* Two plain characters always have a break between them (no rule of UAX #29 joins
     * them: the rules that do need Extend, ZWJ, SpacingMark, Prepend, CR/LF, Hangul,
     * regional indicators or pictographs): English and Chinese text need no tables. */
    const uint8_t *p = it->s + pos;
    size_t n = it->len - pos, w = p[0] < 0x80 ? 1 : 3;
    if (gb_plain(p, n) && (n == w || (n > w && gb_plain(p + w, n - w))))
        return pos + w;
    if (it->wlen == 0 || pos < it->wstart || pos >= it->wstart + it->wlen)
        gb_fill(it, pos);
    size_t e = gb_search(it, pos);
    if (!e && it->wstart != pos && it->wstart + it->wlen < it->len) {
        gb_fill(it, pos);   /* the cluster may run past the window: restart it at pos */
        e = gb_search(it, pos);
    }
    if (e)
        return e;
    if (it->wstart + it->wlen == it->len)
        return it->len;
    if (it->cap < GB_WINDOW) {   /* a long cluster: the full window before the slow way */
        it->cap = GB_WINDOW;
        it->wlen = 0;
        return gb_end(it, pos);
    }
    return gb_end_long(it, pos);
}

/* Width of the single cluster p[0 .. n), n > 0 (rules in text.h). */
static int cluster_width(const uint8_t *p, size_t n)
{
    ucs4_t c, d;
    size_t i = (size_t)u8_mbtouc(&c, p, n);
    if (c == 0xFFFD)
        return 1;
    if (uc_is_property_regional_indicator(c))
        return i < n ? 2 : 1;   /* a flag is a pair; a lone indicator is narrow */
    if (uc_is_property_emoji_presentation(c))
        return 2;
    int w = uc_width(c, "UTF-8");
    if (w < 0)
        return 0;
    if (!uc_is_property_emoji(c))
        return w;
    while (i < n) {
        i += (size_t)u8_mbtouc(&d, p + i, n - i);
        if (d == 0xFE0F || (uc_is_property_emoji_modifier(d) && uc_is_property_emoji_modifier_base(c)))
            return 2;
    }
    return w;
}

int at_grapheme_width(const char *s, size_t len)
{
    if (!s || len == 0)
        return 0;
    gb_iter it;
    gb_init(&it, s, len);
    return cluster_width((const uint8_t *)s, gb_end(&it, 0));
}

size_t at_text_width(const char *s, size_t len)
{
    if (!s)
        return 0;
    gb_iter it;
    gb_init(&it, s, len);
    size_t cols = 0;
    for (size_t b = 0, e; b < len; b = e) {
        e = gb_end(&it, b);
        cols += (size_t)cluster_width(it.s + b, e - b);
    }
    return cols;
}

size_t at_text_clip(const char *s, size_t len, size_t max_cols, size_t *cols_out)
{
    size_t cols = 0, b = 0;
    if (s) {
        gb_iter it;
        gb_init(&it, s, len);
        for (size_t e; b < len; b = e) {
            e = gb_end(&it, b);
            size_t w = (size_t)cluster_width(it.s + b, e - b);
            if (w > max_cols - cols)
                break;
            cols += w;
        }
    }
    if (cols_out)
        *cols_out = cols;
    return b;
}

size_t at_text_next_grapheme(const char *s, size_t len, size_t pos)
{
    if (!s || pos >= len)
        return len;
    gb_iter it;
    gb_init_cap(&it, s, len, GB_STEP_WINDOW);
    return gb_end(&it, pos);
}

size_t at_text_prev_grapheme(const char *s, size_t len, size_t pos)
{
    if (pos > len)
        pos = len;
    if (!s || pos == 0)
        return 0;
    gb_iter it;
    gb_init(&it, s, len);
    for (size_t b = 0, e;; b = e) {
        e = gb_end(&it, b);
        if (e >= pos)
            return b;
    }
}

char *at_text_sanitize(const char *s, size_t len, size_t *len_out)
{
    if ((!s && len > 0) || len > (SIZE_MAX - 1) / 3)
        return NULL;
    uint8_t *out = malloc(len * 3 + 1);   /* worst case: every byte becomes EF BF BD */
    if (!out)
        return NULL;
    const uint8_t *p = (const uint8_t *)s;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        ucs4_t c;
        int n = u8_mbtouc(&c, p + i, len - i);
        if (c == 0xFFFD)   /* invalid (or a real U+FFFD): write U+FFFD */
            o += (size_t)u8_uctomb(out + o, 0xFFFD, 3);
        else
            memcpy(out + o, p + i, (size_t)n), o += (size_t)n;
        i += (size_t)n;
    }
    out[o] = '\0';
    if (len_out)
        *len_out = o;
    return (char *)out;
}

/* ---- wrapping ---------------------------------------------------------- */

typedef struct line_list {
    at_line *items;
    size_t n, cap;
} line_list;

/* Length of p[start .. end) without trailing spaces, tabs and U+3000. */
static size_t trim_end(const uint8_t *p, size_t start, size_t end)
{
    for (;;) {
        if (end > start && (p[end - 1] == ' ' || p[end - 1] == '\t'))
            end--;
        else if (end >= start + 3 && memcmp(p + end - 3, "\xE3\x80\x80", 3) == 0)
            end -= 3;
        else
            return end;
    }
}

static int push_line(line_list *l, const uint8_t *p, size_t start, size_t end)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        at_line *items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return AT_ENOMEM;
        l->items = items;
        l->cap = cap;
    }
    end = trim_end(p, start, end);
    l->items[l->n++] = (at_line){start, end - start, at_text_width((const char *)p + start, end - start)};
    return AT_OK;
}

static int is_hspace(const uint8_t *p, size_t n)
{
    return trim_end(p, 0, n) == 0;
}

/* Greedy filling: break at the last opportunity before the line overflows. */
static int wrap_lines(const uint8_t *p, size_t len, size_t width, const char *lb, line_list *l)
{
    gb_iter it;
    gb_init(&it, (const char *)p, len);
    size_t start = 0, cols = 0, brk = 0;
    int rc = AT_OK;
    for (size_t b = 0, e; b < len && rc == AT_OK; b = e) {
        e = gb_end(&it, b);
        if (lb[b] == UC_BREAK_MANDATORY || lb[b] == UC_BREAK_CR_BEFORE_LF) {
            rc = push_line(l, p, start, b);
            start = e, cols = 0, brk = 0;
            continue;
        }
        if ((lb[b] == UC_BREAK_POSSIBLE || lb[b] == UC_BREAK_HYPHENATION) && b > start)
            brk = b;
        size_t w = (size_t)cluster_width(p + b, e - b);
        if (cols + w > width && !is_hspace(p + b, e - b)) {
            if (brk > start) {
                rc = push_line(l, p, start, brk);
                cols = at_text_width((const char *)p + brk, b - brk);
                start = brk, brk = 0;
            }
            if (rc == AT_OK && cols + w > width && b > start) {   /* a word wider than the line */
                rc = push_line(l, p, start, b);
                start = b, cols = 0, brk = 0;
            }
        }
        cols += w;
    }
    if (rc == AT_OK && start < len)
        rc = push_line(l, p, start, len);
    return rc;
}

int at_text_wrap(const char *s, size_t len, size_t width, at_line **lines_out,
                 size_t *n_out, at_error *err)
{
    if (!lines_out || !n_out)
        return at_error_set(err, AT_EINVAL, "at_text_wrap: no place for the lines");
    *lines_out = NULL;
    *n_out = 0;
    if (width == 0)
        return at_error_set(err, AT_EINVAL, "cannot wrap text to a width of 0 columns");
    if (!s && len > 0)
        return at_error_set(err, AT_EINVAL, "at_text_wrap: the text is NULL");
    if (len == 0)
        return AT_OK;
    line_list l = {0};
    int rc = AT_ENOMEM;
    char *lb = malloc(len);
    if (!lb)
        goto out;
    u8_possible_linebreaks((const uint8_t *)s, len, "UTF-8", lb);
    rc = wrap_lines((const uint8_t *)s, len, width, lb, &l);
out:
    free(lb);
    if (rc != AT_OK) {
        free(l.items);
        return at_error_set(err, rc, "out of memory while wrapping %zu bytes", len);
    }
    *lines_out = l.items;
    *n_out = l.n;
    return AT_OK;
}
