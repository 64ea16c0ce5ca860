/* The position pass of lint: YAML nodes checked against the libcyaml tables. */
#define _GNU_SOURCE
#include "lesson/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1;
    size_t prev[65], cur[65];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

const char *at_did_you_mean(const char *word, const char *const *candidates, size_t n)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1, len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, candidates[i]);
        if (!strcasecmp(word, candidates[i]))
            d = 0;
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    size_t limit = len / 3 > 2 ? len / 3 : 2;
    return best && best_d <= limit && best_d < len ? best : NULL;
}

/* ---- scalars */

static int is_uint(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static int is_bool(const char *s)
{
    static const char *words[] = {"true", "false", "yes", "no", "on", "off"};
    for (size_t i = 0; i < 6; i++)
        if (!strcasecmp(s, words[i]))
            return 1;
    return 0;
}

static void check_enum(at_checker *c, const ynode *n, const cyaml_schema_value_t *s,
                       const char *label)
{
    const char *cands[16];
    size_t k = 0;
    char list[256] = "";
    for (uint32_t i = 0; i < s->enumeration.count && k < 16; i++) {
        if (!strcmp(n->value, s->enumeration.strings[i].str))
            return;
        cands[k++] = s->enumeration.strings[i].str;
        if (i)
            strncat(list, i + 1 == s->enumeration.count ? " or " : ", ",
                    sizeof list - strlen(list) - 1);
        strncat(list, cands[k - 1], sizeof list - strlen(list) - 1);
    }
    const char *near = at_did_you_mean(n->value, cands, k);
    if (near)
        at_err(c, n, "%s is %s, not '%s' (did you mean '%s'?)", label, list, n->value, near);
    else
        at_err(c, n, "%s is %s, not '%s'", label, list, n->value);
}

/* label names the value in messages: "`title`", "entry 2 of `tokens`". */
static void check_scalar(at_checker *c, const ynode *n, const cyaml_schema_value_t *s,
                         const char *label)
{
    double x;
    switch (s->type) {
    case CYAML_STRING:
        if (n->type != YN_SCALAR)
            at_err(c, n, "%s should be a string, not %s", label, ynode_describe(n));
        else if (strlen(n->value) < s->string.min)
            at_err(c, n, "%s is empty", label);
        return;
    case CYAML_UINT:
    case CYAML_INT:
        if (n->type != YN_SCALAR || !is_uint(n->value) || strlen(n->value) > 9)
            at_err(c, n, "%s should be a whole number (0, 1, 2, …), not %s%s%s%s", label,
                   ynode_describe(n), n->type == YN_SCALAR ? " '" : "",
                   n->type == YN_SCALAR ? n->value : "", n->type == YN_SCALAR ? "'" : "");
        return;
    case CYAML_FLOAT:
        if (n->type != YN_SCALAR || at_parse_cell(n->value, &x) || x != x || x - x != 0)
            at_err(c, n, "%s should be a finite number written with a dot (0.5), not %s%s%s%s",
                   label, ynode_describe(n), n->type == YN_SCALAR ? " '" : "",
                   n->type == YN_SCALAR ? n->value : "", n->type == YN_SCALAR ? "'" : "");
        return;
    case CYAML_BOOL:
        if (n->type != YN_SCALAR || !is_bool(n->value))
            at_err(c, n, "%s should be true or false, not %s", label, ynode_describe(n));
        return;
    case CYAML_ENUM:
        if (n->type != YN_SCALAR)
            at_err(c, n, "%s should be a word, not %s", label, ynode_describe(n));
        else
            check_enum(c, n, s, label);
        return;
    default:
        return;
    }
}

/* ---- decimal commas */

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Two plain scalars of a flow list with only a comma between them, e.g. `0,5`. */
static int glued(const ynode *a, const ynode *b)
{
    return a->type == YN_SCALAR && b->type == YN_SCALAR && a->plain && b->plain &&
           b->start == a->end + 1;
}

/* Scalars separated by a comma and then a space (or a line break). */
static int spaced(const ynode *a, const ynode *b)
{
    return a->type == YN_SCALAR && b->type == YN_SCALAR && b->start > a->end + 1;
}

/* Number lists: `0,5` between numbers written with ", " elsewhere in the same list (or
 * matrix) is a decimal comma that YAML reads as two numbers. A list written with no
 * space at all, like [[1,0],[0,1]], is taken as meant. rows[0 .. n) are the lists. */
static void warn_decimal_commas(at_checker *c, const ynode *const *rows, size_t n,
                                const char *name)
{
    int with_space = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t j = 0; rows[r]->type == YN_SEQ && j + 1 < rows[r]->n; j++)
            with_space |= spaced(rows[r]->items[j], rows[r]->items[j + 1]);
    for (size_t r = 0; with_space && r < n; r++) {
        const ynode *row = rows[r];
        for (size_t j = 0; row->type == YN_SEQ && j + 1 < row->n; j++) {
            const ynode *a = row->items[j], *b = row->items[j + 1];
            if (!glued(a, b))   /* a nested list or mapping has no text: only scalars */
                continue;
            size_t la = strlen(a->value);
            if (la && is_digit(a->value[la - 1]) && is_digit(b->value[0]))
                at_warn(c, a, "`%s`: '%s,%s' reads as two numbers %s and %s; write %s.%s "
                              "(a decimal takes a dot), or put a space after the comma",
                         name, a->value, b->value, a->value, b->value, a->value, b->value);
        }
    }
}

/* ---- lists of lists (the keys libcyaml skips) */

/* Rows of scalars; numeric: every cell a number; returns the row length or -1.
 * Table rows (name "rows") are held to their header by the rules pass instead. */
static long check_rows(at_checker *c, const ynode *n, const char *name, int numeric, int binary)
{
    if (n->type != YN_SEQ || n->n == 0) {
        at_err(c, n, "`%s` should be a list of rows, e.g. [[1, 0], [0, 1]], not %s", name,
               n->type == YN_SEQ ? "an empty list" : ynode_describe(n));
        return -1;
    }
    long width = -1, bad = 0;
    for (size_t i = 0; i < n->n; i++) {
        const ynode *row = n->items[i];
        if (row->type != YN_SEQ) {
            at_err(c, row, "row %zu of `%s` should be a list like [1, 0], not %s", i + 1, name,
                   ynode_describe(row));
            bad = 1;
            continue;
        }
        if (width >= 0 && (long)row->n != width && strcmp(name, "rows")) {
            at_err(c, row, "row %zu of `%s` has %zu entries, row 1 has %ld: every row must be "
                           "as long", i + 1, name, row->n, width);
            bad = 1;
        }
        if (width < 0)
            width = (long)row->n;
        for (size_t j = 0; j < row->n; j++) {
            const ynode *cell = row->items[j];
            double x;
            if (cell->type != YN_SCALAR) {
                at_err(c, cell, "`%s` row %zu entry %zu should be a %s, not %s", name, i + 1,
                       j + 1, numeric ? "number" : "string", ynode_describe(cell));
                bad = 1;
            } else if (binary && strcmp(cell->value, "0") && strcmp(cell->value, "1")) {
                at_err(c, cell, "`%s` entries are 1 (may attend) or 0 (masked), not '%s'", name,
                       cell->value);
                bad = 1;
            } else if (numeric && at_parse_cell(cell->value, &x)) {
                at_err(c, cell, "`%s` row %zu entry %zu should be a number (0.5, -1, .nan, .inf), "
                                "not '%s'", name, i + 1, j + 1, cell->value);
                bad = 1;
            }
        }
    }
    if (width == 0 && !bad) {
        at_err(c, n, "`%s` has empty rows", name);
        bad = 1;
    }
    if (numeric)
        warn_decimal_commas(c, (const ynode *const *)n->items, n->n, name);
    return bad ? -1 : width;
}

static void check_special(at_checker *c, const ynode *n, const at_special_field *sp)
{
    switch (sp->kind) {
    case AT_SPECIAL_MATRIX:
        check_rows(c, n, sp->key, 1, 0);
        return;
    case AT_SPECIAL_TEXT_ROWS:
        check_rows(c, n, sp->key, 0, 0);
        return;
    case AT_SPECIAL_MASK:
        if (n->type == YN_SCALAR) {
            if (strcmp(n->value, "none") && strcmp(n->value, "causal"))
                at_err(c, n, "`mask` is none, causal, or rows of 1/0, not '%s'%s", n->value,
                       at_did_you_mean(n->value, (const char *const[]){"none", "causal"}, 2)
                           ? " (did you mean 'causal'?)" : "");
        } else {
            check_rows(c, n, "mask", 0, 1);
        }
        return;
    case AT_SPECIAL_ASK:
        if (n->type == YN_SCALAR)
            return;
        if (n->type != YN_SEQ || n->n == 0) {
            at_err(c, n, "`ask` should be a token or a list of tokens, not %s",
                   n->type == YN_SEQ ? "an empty list" : ynode_describe(n));
            return;
        }
        for (size_t i = 0; i < n->n; i++)
            if (n->items[i]->type != YN_SCALAR)
                at_err(c, n->items[i], "`ask` entries are tokens (text or 1-based position), "
                                       "not %s", ynode_describe(n->items[i]));
        return;
    default:
        return;
    }
}

/* ---- mappings */

/* Reports the key; returns the field it probably meant, or NULL. */
static const char *unknown_key(at_checker *c, const ynode *key, const cyaml_schema_field_t *fields,
                               const char *name)
{
    const char *cands[40];
    size_t k = 0;
    for (const cyaml_schema_field_t *f = fields; f->key && k < 40; f++)
        cands[k++] = f->key;
    const char *near = at_did_you_mean(key->value, cands, k);
    if (near)
        at_err(c, key, "unknown key '%s' in `%s` (did you mean '%s'?)", key->value, name, near);
    else
        at_err(c, key, "unknown key '%s' in `%s`", key->value, name);
    return near;
}

static void check_mapping(at_checker *c, const ynode *n, const cyaml_schema_value_t *s,
                          const char *name)
{
    const cyaml_schema_field_t *fields = s->mapping.fields;
    if (n->type != YN_MAP) {
        at_err(c, n, "`%s` should be a mapping (key: value lines), not %s", name,
               ynode_describe(n));
        return;
    }
    const char *meant[8];        /* fields a misspelt key was taken for */
    size_t n_meant = 0;
    for (size_t i = 0; i + 1 < n->n; i += 2) {
        const ynode *key = n->items[i], *val = n->items[i + 1];
        for (size_t j = 0; j < i; j += 2)
            if (!strcmp(n->items[j]->value, key->value)) {
                at_err(c, key, "key '%s' appears twice in `%s` (first on line %d)", key->value,
                       name, n->items[j]->line);
                break;
            }
        const cyaml_schema_field_t *f = fields;
        while (f->key && strcmp(f->key, key->value))
            f++;
        if (!f->key) {
            const char *near = unknown_key(c, key, fields, name);
            if (near && n_meant < 8)
                meant[n_meant++] = near;
            continue;
        }
        const at_special_field *sp = at_schema_special(fields, f->key);
        if (sp)
            check_special(c, val, sp);
        else
            at_check_value(c, val, &f->value, f->key);
    }
    for (const cyaml_schema_field_t *f = fields; f->key; f++) {
        if ((f->value.flags & CYAML_FLAG_OPTIONAL) || ynode_get(n, f->key, NULL))
            continue;
        int misspelt = 0;         /* already told: "did you mean '<key>'?" */
        for (size_t k = 0; k < n_meant; k++)
            misspelt |= !strcmp(meant[k], f->key);
        if (!misspelt)
            at_err(c, n, "`%s` is missing the required key '%s'", name, f->key);
    }
}

/* ---- flat lists (a list of strings, numbers or words) */

static int is_scalar_schema(const cyaml_schema_value_t *s)
{
    return s->type != CYAML_MAPPING && s->type != CYAML_SEQUENCE && s->type != CYAML_IGNORE;
}

static int add_flat(char *buf, size_t size, const char *value)
{
    if (strlen(buf) + strlen(value) + 3 >= size)
        return -1;
    if (buf[0])
        strcat(buf, ", ");
    strcat(buf, value);
    return 0;
}

/* The list flattened one level and written as a flat list is, e.g. "0.5, 1, 2" for
 * [[0.5, 1, 2]]; a placeholder when it holds deeper lists or mappings or does not fit. */
static void flat_example(const ynode *list, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < list->n; i++) {
        const ynode *x = list->items[i];
        int bad = x->type == YN_MAP || (x->type == YN_SCALAR && add_flat(buf, size, x->value));
        for (size_t j = 0; !bad && x->type == YN_SEQ && j < x->n; j++)
            bad = x->items[j]->type != YN_SCALAR || add_flat(buf, size, x->items[j]->value);
        if (bad) {
            snprintf(buf, size, "a, b, c");
            return;
        }
    }
}

/* A list inside a list where one flat list is meant ([[0.5, 1, 2]] for [0.5, 1, 2]):
 * told once, at the first inner list, under the list's own key. */
static void nested_list(at_checker *c, const ynode *list, const ynode *row, const char *name)
{
    char flat[128];
    flat_example(list, flat, sizeof flat);
    if (!strcmp(name, "scores"))
        at_err(c, row, "`scores` of a softmax question is one flat list of numbers, one per "
                       "token: write [%s]", flat);
    else
        at_err(c, row, "`%s` is one flat list, not a list of lists: write [%s]", name, flat);
}

static void check_flat_list(at_checker *c, const ynode *n, const cyaml_schema_value_t *entry,
                            const char *name)
{
    int told_nested = 0;
    for (size_t i = 0; i < n->n; i++) {
        const ynode *item = n->items[i];
        char label[96];
        if (item->type == YN_SEQ) {
            if (!told_nested)
                nested_list(c, n, item, name);
            told_nested = 1;
            continue;
        }
        snprintf(label, sizeof label, "entry %zu of `%s`", i + 1, name);
        check_scalar(c, item, entry, label);
    }
}

/* What one entry of a list is called in messages. */
static const char *entry_name(const char *list)
{
    static const char *names[][2] = {
        {"steps", "step"}, {"expect", "expect entry"}, {"options", "option"},
        {"rubric", "rubric entry"}, {"hints", "hint"}, {"tokens", "token"},
        {"key_tokens", "key token"}, {"synonyms", "synonym"}, {"scores", "score"},
        {"header", "header cell"}, {"together", "group"}, {"contradicts", "contradiction"},
        {"phrases", "phrase"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(list, names[i][0]))
            return names[i][1];
    return list;
}

void at_check_value(at_checker *c, const ynode *n, const cyaml_schema_value_t *s,
                    const char *name)
{
    switch (s->type) {
    case CYAML_MAPPING:
        check_mapping(c, n, s, name);
        return;
    case CYAML_SEQUENCE:
        if (n->type != YN_SEQ) {
            at_err(c, n, "`%s` should be a list (lines starting with '- '), not %s", name,
                   ynode_describe(n));
            return;
        }
        if (n->n < s->sequence.min) {
            at_err(c, n, "`%s` needs at least %u entr%s", name, s->sequence.min,
                   s->sequence.min == 1 ? "y" : "ies");
            return;
        }
        if (is_scalar_schema(s->sequence.entry))
            check_flat_list(c, n, s->sequence.entry, name);
        else
            for (size_t i = 0; i < n->n; i++)
                at_check_value(c, n->items[i], s->sequence.entry, entry_name(name));
        if (!strcmp(name, "scores"))
            warn_decimal_commas(c, &n, 1, name);
        return;
    case CYAML_IGNORE:
        return;
    default: {
        char label[96];
        snprintf(label, sizeof label, "`%s`", name);
        check_scalar(c, n, s, label);
        return;
    }
    }
}
