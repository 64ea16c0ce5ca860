/* The one filter for text that reaches a terminal (see visible.h). */
#include "engine/visible.h"

#include <stdlib.h>
#include <string.h>

#include "engine/text.h"

int at_visible_unsafe(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

int at_visible_decode(const char *s, size_t len, uint32_t *c)
{
    const uint8_t *p = (const uint8_t *)s;
    uint8_t b = p[0], lo = 0x80, hi = 0xBF;
    int need;
    uint32_t v;
    if (b < 0x80) {
        *c = b;
        return 1;
    }
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1, v = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {   /* E0: no overlong form; ED: no surrogate */
        need = 2, v = b & 0x0F;
        lo = b == 0xE0 ? 0xA0 : 0x80;
        hi = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {   /* F0: no overlong form; F4: ≤ U+10FFFF */
        need = 3, v = b & 0x07;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF;
    } else {
        return -1;   /* a continuation byte (0x9B …), C0, C1, F5–FF */
    }
    for (int k = 1; k <= need; k++) {
        if ((size_t)k >= len)
            return 0;
        if (p[k] < lo || p[k] > hi)
            return -k;   /* the maximal subpart ends before p[k] */
        lo = 0x80, hi = 0xBF;
        v = v << 6 | (p[k] & 0x3F);
    }
    *c = v;
    return need + 1;
}

void at_visible_init(at_visible *v, int keep_layout)
{
    *v = (at_visible){.keep_layout = keep_layout};
}

/* One unit decoded by at_visible_decode (r bytes at s, r ≠ 0) into out. */
static size_t put_unit(const at_visible *v, int r, uint32_t c, const char *s, char *out)
{
    if (r < 0 || (at_visible_unsafe(c) && !(v->keep_layout && (c == '\n' || c == '\t')))) {
        memcpy(out, AT_VISIBLE_PLACEHOLDER, 3);
        return 3;
    }
    memcpy(out, s, (size_t)r);
    return (size_t)r;
}

size_t at_visible_feed(at_visible *v, const char *s, size_t len, char *out)
{
    size_t o = 0, i = 0;
    uint32_t c;
    if (!s || !len)
        return 0;
    if (v->n_pend) {   /* the sequence the last piece cut short, completed from s */
        char tmp[8];
        size_t k = v->n_pend, take = len < 4 ? len : 4;
        memcpy(tmp, v->pend, k);
        memcpy(tmp + k, s, take);
        int r = at_visible_decode(tmp, k + take, &c);
        if (r == 0) {   /* still short: s was too */
            memcpy(v->pend, tmp, k + take);
            v->n_pend = k + take;
            return 0;
        }
        o += put_unit(v, r, c, tmp, out);
        i = (size_t)(r < 0 ? -r : r) - k;   /* the unit ends inside s (pend alone was short) */
        v->n_pend = 0;
    }
    while (i < len) {
        int r = at_visible_decode(s + i, len - i, &c);
        if (r == 0) {   /* cut short by the end of this piece: wait for the next */
            memcpy(v->pend, s + i, len - i);
            v->n_pend = len - i;
            break;
        }
        o += put_unit(v, r, c, s + i, out + o);
        i += (size_t)(r < 0 ? -r : r);
    }
    return o;
}

size_t at_visible_end(at_visible *v, char *out)
{
    if (!v->n_pend)
        return 0;
    v->n_pend = 0;
    memcpy(out, AT_VISIBLE_PLACEHOLDER, 3);
    return 3;
}

char *at_visible_copy(const char *s, size_t len, int keep_layout, size_t *len_out)
{
    if ((!s && len > 0) || len > SIZE_MAX / 3 - 8)
        return NULL;
    char *out = malloc(AT_VISIBLE_OUT_MAX(len) + 1);
    if (!out)
        return NULL;
    at_visible v;
    at_visible_init(&v, keep_layout);
    size_t o = at_visible_feed(&v, s, len, out);
    o += at_visible_end(&v, out + o);
    out[o] = '\0';
    if (len_out)
        *len_out = o;
    return out;
}

size_t at_visible_width(const char *s, size_t len)
{
    size_t n;
    char *v = at_visible_copy(s, len, 0, &n);
    if (!v)
        return at_text_width(s, len);
    size_t w = at_text_width(v, n);
    free(v);
    return w;
}
