/* einsum with any subscripts (a loop over every assignment of the letters) and einops'
 * rearrange (split, permute, merge the named axes). See quiz/code_impl.h. */
#include "quiz/code_impl.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* ---- einsum: any subscripts, as a loop over every assignment of the letters */

ce_tensor *ct_einsum(ce_ev *ev, const char *spec_in, ce_tensor *const *ts, int n)
{
    char spec[256], ops[8][CE_MAXD + 1], outs[CE_MAXD + 1] = "";
    size_t k = 0;
    for (const char *p = spec_in; *p && k + 1 < sizeof spec; p++)
        if (*p != ' ')
            spec[k++] = *p;
    spec[k] = '\0';
    if (strstr(spec, "...")) {
        ce_unread(ev, "einsum with ... is not read: name every axis");
        return NULL;
    }
    char *arrow = strstr(spec, "->");
    if (arrow)
        *arrow = '\0';
    int n_ops = 0;
    for (char *p = spec, *q; n_ops < 8; p = q + 1) {
        q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len > CE_MAXD)
            goto bad;
        memcpy(ops[n_ops], p, len);
        ops[n_ops++][len] = '\0';
        if (!q)
            break;
    }
    if (n_ops != n) {
        ce_raise(ev, "einsum: the subscripts name %d tensors, %d are given", n_ops, n);
        return NULL;
    }
    long size[128];
    for (int c = 0; c < 128; c++)
        size[c] = -1;
    int count[128] = {0};
    for (int i = 0; i < n; i++) {
        if ((int)strlen(ops[i]) != ts[i]->ndim) {
            ce_raise(ev, "einsum: '%s' names %d axes, the tensor has %d", ops[i], (int)strlen(ops[i]), ts[i]->ndim);
            return NULL;
        }
        for (int j = 0; ops[i][j]; j++) {
            unsigned char c = (unsigned char)ops[i][j];
            if (!isalpha(c))
                goto bad;
            count[c]++;
            long sz = ts[i]->shape[j];
            if (size[c] >= 0 && size[c] != sz && size[c] != 1 && sz != 1) {
                ce_raise(ev, "einsum: the axis '%c' has two sizes, %ld and %ld", c, size[c], sz);
                return NULL;
            }
            if (size[c] < 0 || size[c] == 1)
                size[c] = sz;
        }
    }
    if (arrow) {
        if (strlen(arrow + 2) > CE_MAXD)
            goto bad;
        strcpy(outs, arrow + 2);
        for (int j = 0; outs[j]; j++)
            if (!isalpha((unsigned char)outs[j]) || size[(unsigned char)outs[j]] < 0 || strchr(outs + j + 1, outs[j]))
                goto bad;
    } else {
        int m = 0;
        for (int c = 'A'; c <= 'z' && m < CE_MAXD; c++)
            if (count[c] == 1)
                outs[m++] = (char)c;
        outs[m] = '\0';
    }
    /* every letter, the output's first */
    char letters[64];
    int nl = 0;
    for (int j = 0; outs[j]; j++)
        letters[nl++] = outs[j];
    for (int c = 0; c < 128; c++)
        if (size[c] >= 0 && !strchr(outs, c))
            letters[nl++] = (char)c;
    long oshape[CE_MAXD];
    int ond = (int)strlen(outs);
    for (int j = 0; j < ond; j++)
        oshape[j] = size[(unsigned char)outs[j]];
    ce_tensor *t = ct_new(ev, CE_FLOAT, ond, oshape);
    if (!t)
        return NULL;
    long total = 1;
    for (int j = 0; j < nl; j++)
        if ((total *= size[(unsigned char)letters[j]] ? size[(unsigned char)letters[j]] : 1) > 4 * QZ_CODE_MAX_NUMEL * 16) {
            ce_unread(ev, "this einsum is too large for the grader");
            return NULL;
        }
    long val[128] = {0};
    for (long it = 0; it < total; it++) {
        long rest = it;
        for (int j = nl - 1; j >= 0; j--) {
            long sz = size[(unsigned char)letters[j]];
            val[(unsigned char)letters[j]] = sz ? rest % sz : 0;
            rest = sz ? rest / sz : rest;
        }
        double prod = 1;
        for (int i = 0; i < n; i++) {
            long off = 0;
            for (int j = 0; ops[i][j]; j++) {
                long sz = ts[i]->shape[j];
                off = off * sz + (sz == 1 ? 0 : val[(unsigned char)ops[i][j]]);
            }
            prod *= ts[i]->data[off];
        }
        long o = 0;
        for (int j = 0; j < ond; j++)
            o = o * oshape[j] + val[(unsigned char)outs[j]];
        t->data[o] += prod;
    }
    return t;
bad:
    ce_raise(ev, "einsum cannot read the subscripts '%s'", spec_in);
    return NULL;
}

/* ---- einops.rearrange */

typedef struct eaxes {
    int n;                      /* groups */
    int len[CE_MAXD];           /* names per group */
    char name[CE_MAXD][CE_MAXD][24];
} eaxes;

static int parse_side(const char *s, const char *e, eaxes *out)
{
    memset(out, 0, sizeof *out);
    int group = 0;
    for (const char *p = s; p < e;) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '(') {
            if (group || out->n >= CE_MAXD)
                return -1;
            group = 1;
            out->len[out->n++] = 0;
            p++;
            continue;
        }
        if (*p == ')') {
            if (!group)
                return -1;
            group = 0;
            p++;
            continue;
        }
        if (!isalpha((unsigned char)*p) && *p != '_')
            return -1;
        const char *q = p;
        while (q < e && (isalnum((unsigned char)*q) || *q == '_'))
            q++;
        if ((size_t)(q - p) >= sizeof out->name[0][0])
            return -1;
        if (!group) {
            if (out->n >= CE_MAXD)
                return -1;
            out->len[out->n++] = 0;
        }
        int g = out->n - 1;
        if (out->len[g] >= CE_MAXD)
            return -1;
        memcpy(out->name[g][out->len[g]], p, (size_t)(q - p));
        out->name[g][out->len[g]++][q - p] = '\0';
        p = q;
    }
    return group ? -1 : 0;
}

ce_tensor *ct_rearrange(ce_ev *ev, const ce_tensor *a, const char *pattern, const char *const *names,
                        const long *sizes, int n_sizes)
{
    const char *arrow = strstr(pattern, "->");
    eaxes l, r;
    if (strstr(pattern, "...") || strchr(pattern, '1')) {
        ce_unread(ev, "a rearrange pattern with ... or 1 is not read: name every axis");
        return NULL;
    }
    if (!arrow || parse_side(pattern, arrow, &l) || parse_side(arrow + 2, pattern + strlen(pattern), &r)) {
        ce_raise(ev, "rearrange cannot read the pattern '%s'", pattern);
        return NULL;
    }
    if (l.n != a->ndim) {
        ce_raise(ev, "rearrange: the pattern names %d axes, the tensor has %d", l.n, a->ndim);
        return NULL;
    }
    /* the elementary axes of the left side and their sizes */
    char el[CE_MAXD * 2][24];
    long esize[CE_MAXD * 2];
    int ne = 0;
    for (int g = 0; g < l.n; g++) {
        long known = 1;
        int unknown = -1;
        for (int k = 0; k < l.len[g]; k++) {
            if (ne >= CE_MAXD * 2) {
                ce_unread(ev, "a rearrange pattern this long is not read");
                return NULL;
            }
            for (int j = 0; j < ne; j++)
                if (!strcmp(el[j], l.name[g][k])) {
                    ce_raise(ev, "rearrange: the axis '%s' is named twice", l.name[g][k]);
                    return NULL;
                }
            strcpy(el[ne], l.name[g][k]);
            esize[ne] = -1;
            for (int j = 0; j < n_sizes; j++)
                if (!strcmp(names[j], l.name[g][k]))
                    esize[ne] = sizes[j];
            if (esize[ne] < 0) {
                if (unknown >= 0) {
                    ce_raise(ev, "rearrange: give the size of '%s' (two sizes of one group are unknown)",
                             l.name[g][k]);
                    return NULL;
                }
                unknown = ne;
            } else {
                known *= esize[ne];
            }
            ne++;
        }
        if (unknown >= 0) {
            if (!known || a->shape[g] % known) {
                ce_raise(ev, "rearrange: the axis of size %ld cannot be split so", a->shape[g]);
                return NULL;
            }
            esize[unknown] = a->shape[g] / known;
        } else if (known != a->shape[g]) {
            ce_raise(ev, "rearrange: the axis of size %ld is not %ld", a->shape[g], known);
            return NULL;
        }
    }
    int perm[CE_MAXD * 2], np = 0, used[CE_MAXD * 2] = {0};
    long oshape[CE_MAXD];
    for (int g = 0; g < r.n; g++) {
        oshape[g] = 1;
        for (int k = 0; k < r.len[g]; k++) {
            int j = 0;
            while (j < ne && strcmp(el[j], r.name[g][k]))
                j++;
            if (j == ne || used[j]++) {
                ce_raise(ev, "rearrange: the axis '%s' of the right side is not one of the left side's, "
                             "once", r.name[g][k]);
                return NULL;
            }
            perm[np++] = j;
            oshape[g] *= esize[j];
        }
    }
    if (np != ne) {
        ce_raise(ev, "rearrange: every axis of the left side must be on the right side");
        return NULL;
    }
    if (ne > CE_MAXD) {
        ce_unread(ev, "a rearrange pattern this long is not read");
        return NULL;
    }
    ce_tensor *e = ct_reshape(ev, a, ne, esize, 0);
    ce_tensor *p = e ? ct_permute(ev, e, perm) : NULL;
    ce_tensor *t = p ? ct_reshape(ev, p, r.n, oshape, 0) : NULL;
    if (t)
        ct_contiguous_strides(t);
    return t;
}
