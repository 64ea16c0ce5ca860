/* Symbol tables for the tokenizers: interned strings (each distinct string gets a small
 * number) and a map from a pair of numbers to a pair of numbers (a merge: the two
 * symbols → its rank and the merged symbol). Open addressing, FNV-1a; no deletion. */
#ifndef AT_HF_SYMTAB_H
#define AT_HF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct at_symtab {
    char **strs;        /* [n] the strings, owned */
    size_t *lens;       /* [n] their lengths (a string may hold any byte but NUL) */
    int32_t *slots;     /* [cap] index + 1, 0 = empty */
    size_t n, cap, n_alloc;
} at_symtab;

/* The number of s[0 .. len), adding it when new; -1 when out of memory. */
int32_t at_symtab_intern(at_symtab *t, const char *s, size_t len);

/* The number of s[0 .. len), or -1 when it is not in the table. */
int32_t at_symtab_find(const at_symtab *t, const char *s, size_t len);

void at_symtab_free(at_symtab *t);

typedef struct at_pairmap {
    uint64_t *keys;     /* (a << 32 | b) + 1, 0 = empty */
    int32_t (*vals)[2];
    size_t n, cap;
} at_pairmap;

/* Set (a, b) → (v0, v1) unless (a, b) is already there (the first one stays).
 * 0, or -1 when out of memory. a, b ≥ 0. */
int at_pairmap_add(at_pairmap *m, int32_t a, int32_t b, int32_t v0, int32_t v1);

/* The values of (a, b), or NULL. */
const int32_t *at_pairmap_get(const at_pairmap *m, int32_t a, int32_t b);

void at_pairmap_free(at_pairmap *m);

#endif
