/* Symbol tables for the tokenizers (see symtab.h). */
#include "engine/hf/symtab.h"

#include <stdlib.h>
#include <string.h>

static uint64_t fnv1a(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static size_t slot_of(const at_symtab *t, const char *s, size_t len)
{
    size_t mask = t->cap - 1, i = (size_t)fnv1a(s, len) & mask;
    for (;; i = (i + 1) & mask) {
        int32_t k = t->slots[i];
        if (!k || (t->lens[k - 1] == len && !memcmp(t->strs[k - 1], s, len)))
            return i;
    }
}

static int grow(at_symtab *t)
{
    size_t cap = t->cap ? 2 * t->cap : 1024;
    int32_t *slots = calloc(cap, sizeof *slots), *old = t->slots;
    if (!slots)
        return -1;
    size_t old_cap = t->cap;
    t->slots = slots;
    t->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i])
            t->slots[slot_of(t, t->strs[old[i] - 1], t->lens[old[i] - 1])] = old[i];
    free(old);
    return 0;
}

int32_t at_symtab_find(const at_symtab *t, const char *s, size_t len)
{
    if (!t->cap)
        return -1;
    int32_t k = t->slots[slot_of(t, s, len)];
    return k ? k - 1 : -1;
}

int32_t at_symtab_intern(at_symtab *t, const char *s, size_t len)
{
    int32_t k = at_symtab_find(t, s, len);
    if (k >= 0)
        return k;
    if (t->n >= INT32_MAX - 1 || ((t->n + 1) * 2 > t->cap && grow(t)))
        return -1;
    if (t->n == t->n_alloc) {
        size_t na = t->n_alloc ? 2 * t->n_alloc : 1024;
        char **strs = realloc(t->strs, na * sizeof *strs);
        if (!strs)
            return -1;
        t->strs = strs;
        size_t *lens = realloc(t->lens, na * sizeof *lens);
        if (!lens)
            return -1;
        t->lens = lens;
        t->n_alloc = na;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, s, len);
    copy[len] = '\0';
    t->strs[t->n] = copy;
    t->lens[t->n] = len;
    t->slots[slot_of(t, s, len)] = (int32_t)t->n + 1;
    return (int32_t)t->n++;
}

void at_symtab_free(at_symtab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->strs[i]);
    free(t->strs);
    free(t->lens);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static size_t pair_slot(const at_pairmap *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = (size_t)mix(key) & mask;
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

int at_pairmap_add(at_pairmap *m, int32_t a, int32_t b, int32_t v0, int32_t v1)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        uint64_t *keys = calloc(cap, sizeof *keys);
        int32_t (*vals)[2] = malloc(cap * sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return -1;
        }
        at_pairmap old = *m;
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                size_t s = pair_slot(m, old.keys[i]);
                m->keys[s] = old.keys[i];
                m->vals[s][0] = old.vals[i][0];
                m->vals[s][1] = old.vals[i][1];
            }
        free(old.keys);
        free(old.vals);
    }
    uint64_t key = ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
    size_t s = pair_slot(m, key);
    if (m->keys[s])
        return 0;
    m->keys[s] = key;
    m->vals[s][0] = v0;
    m->vals[s][1] = v1;
    m->n++;
    return 0;
}

const int32_t *at_pairmap_get(const at_pairmap *m, int32_t a, int32_t b)
{
    if (!m->cap)
        return NULL;
    uint64_t key = ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
    size_t s = pair_slot(m, key);
    return m->keys[s] ? m->vals[s] : NULL;
}

void at_pairmap_free(at_pairmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
