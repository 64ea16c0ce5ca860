/* The lists of lists of a lesson, taken from the node tree after libcyaml loaded
 * everything else; and their freeing. One walk over schema + struct + nodes. */
#define _GNU_SOURCE
#include "lesson/fill.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void rows_free(at_rows *r)
{
    for (unsigned i = 0; i < r->rows_count; i++) {
        for (unsigned j = 0; j < r->rows[i].cells_count; j++)
            free(r->rows[i].cells[j]);
        free(r->rows[i].cells);
    }
    free(r->rows);
    memset(r, 0, sizeof *r);
}

static int rows_fill(const ynode *n, at_rows *r)
{
    r->line = n->line;
    r->col = n->col;
    if (n->type != YN_SEQ)
        return AT_OK;                       /* shape errors are the check pass's */
    r->rows = calloc(n->n ? n->n : 1, sizeof *r->rows);
    if (!r->rows)
        return AT_ENOMEM;
    for (size_t i = 0; i < n->n; i++) {
        const ynode *row = n->items[i];
        at_row *out = &r->rows[r->rows_count++];
        if (row->type != YN_SEQ)
            continue;
        out->cells = calloc(row->n ? row->n : 1, sizeof *out->cells);
        if (!out->cells)
            return AT_ENOMEM;
        for (size_t j = 0; j < row->n; j++) {
            const char *v = row->items[j]->value ? row->items[j]->value : "";
            if (!(out->cells[out->cells_count] = strdup(v)))
                return AT_ENOMEM;
            out->cells_count++;
        }
    }
    return AT_OK;
}

static int ask_fill(const ynode *n, char ***list, unsigned *count)
{
    size_t k = n->type == YN_SCALAR ? 1 : n->type == YN_SEQ ? n->n : 0;
    if (k == 0)
        return AT_OK;
    if (!(*list = calloc(k, sizeof **list)))
        return AT_ENOMEM;
    for (size_t i = 0; i < k; i++) {
        const ynode *e = n->type == YN_SCALAR ? n : n->items[i];
        if (!((*list)[*count] = strdup(e->value ? e->value : "")))
            return AT_ENOMEM;
        (*count)++;
    }
    return AT_OK;
}

static int fill_special(const ynode *n, const at_special_field *sp, uint8_t *data)
{
    switch (sp->kind) {
    case AT_SPECIAL_MATRIX:
    case AT_SPECIAL_TEXT_ROWS:
        return rows_fill(n, (at_rows *)(data + sp->offset));
    case AT_SPECIAL_MASK:
        if (n->type == YN_SCALAR) {
            char **word = (char **)(data + sp->offset);
            return (*word = strdup(n->value)) ? AT_OK : AT_ENOMEM;
        }
        return rows_fill(n, (at_rows *)(data + sp->offset2));
    case AT_SPECIAL_ASK:
        return ask_fill(n, (char ***)(data + sp->offset), (unsigned *)(data + sp->offset2));
    default:
        return AT_OK;
    }
}

static void free_special(const at_special_field *sp, uint8_t *data)
{
    switch (sp->kind) {
    case AT_SPECIAL_MATRIX:
    case AT_SPECIAL_TEXT_ROWS:
        rows_free((at_rows *)(data + sp->offset));
        return;
    case AT_SPECIAL_MASK: {
        char **word = (char **)(data + sp->offset);
        free(*word);
        *word = NULL;
        rows_free((at_rows *)(data + sp->offset2));
        return;
    }
    case AT_SPECIAL_ASK: {
        char ***list = (char ***)(data + sp->offset);
        unsigned *count = (unsigned *)(data + sp->offset2);
        for (unsigned i = 0; i < *count; i++)
            free((*list)[i]);
        free(*list);
        *list = NULL;
        *count = 0;
        return;
    }
    default:
        return;
    }
}

static uint64_t read_count(const uint8_t *p, uint8_t size)
{
    switch (size) {
    case 1: return *p;
    case 2: return *(const uint16_t *)p;
    case 4: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

/* Visit every mapping-valued field of a mapping (pointer or inline; sequences of
 * mappings entry by entry). n may be NULL (freeing). */
static int walk(const ynode *n, const cyaml_schema_field_t *fields, uint8_t *data, int fill)
{
    int rc = AT_OK;
    for (const cyaml_schema_field_t *f = fields; f->key && rc == AT_OK; f++) {
        const ynode *v = n ? ynode_get(n, f->key, NULL) : NULL;
        if (fill && !v)
            continue;
        const at_special_field *sp = at_schema_special(fields, f->key);
        uint8_t *field = data + f->data_offset;
        if (sp) {
            if (fill)
                rc = fill_special(v, sp, data);
            else
                free_special(sp, data);
        } else if (f->value.type == CYAML_MAPPING) {
            uint8_t *child = (f->value.flags & CYAML_FLAG_POINTER) ? *(uint8_t **)field : field;
            if (child && (!fill || v->type == YN_MAP))
                rc = walk(v, f->value.mapping.fields, child, fill);
        } else if (f->value.type == CYAML_SEQUENCE &&
                   f->value.sequence.entry->type == CYAML_MAPPING) {
            const cyaml_schema_value_t *entry = f->value.sequence.entry;
            uint8_t *arr = *(uint8_t **)field;
            uint64_t count = read_count(data + f->count_offset, f->count_size);
            for (uint64_t i = 0; arr && i < count && rc == AT_OK; i++) {
                const ynode *item = NULL;
                if (fill) {
                    if (v->type != YN_SEQ || i >= v->n || v->items[i]->type != YN_MAP)
                        break;
                    item = v->items[i];
                }
                rc = walk(item, entry->mapping.fields, arr + i * entry->data_size, fill);
            }
        }
    }
    return rc;
}

int at_fill_specials(const ynode *n, const cyaml_schema_value_t *schema, void *data)
{
    if (!n || !data || n->type != YN_MAP || schema->type != CYAML_MAPPING)
        return AT_OK;
    return walk(n, schema->mapping.fields, data, 1);
}

void at_fill_free(const cyaml_schema_value_t *schema, void *data)
{
    if (data && schema->type == CYAML_MAPPING)
        walk(NULL, schema->mapping.fields, data, 0);
}
