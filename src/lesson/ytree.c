/* YAML events (libyaml) into a node tree with positions. */
#define _GNU_SOURCE
#include "lesson/ytree.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct builder {
    ynode **stack;            /* open collections */
    int depth, max_depth;
    ynode *root;
    int docs;
} builder;

static ynode *node_new(yn_type type, const yaml_mark_t *m)
{
    ynode *n = calloc(1, sizeof *n);
    if (n) {
        n->type = type;
        n->line = (int)m->line + 1;
        n->col = (int)m->column + 1;
    }
    return n;
}

void ynode_free(ynode *n)
{
    if (!n)
        return;
    /* Iterative enough: depth is capped at parse time. */
    for (size_t i = 0; i < n->n; i++)
        ynode_free(n->items[i]);
    free(n->items);
    free(n->value);
    free(n);
}

static int append(ynode *parent, ynode *child)
{
    if ((parent->n & (parent->n - 1)) == 0) {   /* grow at powers of two */
        size_t cap = parent->n ? parent->n * 2 : 4;
        ynode **p = realloc(parent->items, cap * sizeof *p);
        if (!p)
            return -1;
        parent->items = p;
    }
    parent->items[parent->n++] = child;
    return 0;
}

static int set_err(at_error *err, int code, const yaml_mark_t *m, const char *msg)
{
    at_error_set(err, code, "%s", msg);
    if (err) {
        err->line = m ? (int)m->line + 1 : 1;
        err->col = m ? (int)m->column + 1 : 1;
    }
    return code;
}

/* Attach a finished node to its parent (or make it the root). */
static int place(builder *b, ynode *n, at_error *err, const yaml_mark_t *m)
{
    if (b->depth == 0) {
        if (b->root) {
            ynode_free(n);
            return set_err(err, AT_EINVAL, m, "only one YAML document per file");
        }
        b->root = n;
        return 0;
    }
    ynode *parent = b->stack[b->depth - 1];
    if (parent->type == YN_MAP && parent->n % 2 == 0 && n->type != YN_SCALAR) {
        ynode_free(n);
        return set_err(err, AT_EINVAL, m, "a mapping key must be a plain word, "
                                          "not a list or a mapping");
    }
    if (append(parent, n)) {
        ynode_free(n);
        return set_err(err, AT_ENOMEM, m, "out of memory");
    }
    return 0;
}

static int on_event(builder *b, const yaml_event_t *ev, at_error *err)
{
    const yaml_mark_t *m = &ev->start_mark;
    ynode *n;
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++b->docs > 1)
            return set_err(err, AT_EINVAL, m, "only one YAML document per file "
                                              "(remove the second '---')");
        return 0;
    case YAML_ALIAS_EVENT:
        return set_err(err, AT_EINVAL, m, "aliases (*name) are not allowed in lesson files: "
                                          "write the value out");
    case YAML_SCALAR_EVENT:
        n = node_new(YN_SCALAR, m);
        if (!n || !(n->value = malloc(ev->data.scalar.length + 1))) {
            ynode_free(n);
            return set_err(err, AT_ENOMEM, m, "out of memory");
        }
        memcpy(n->value, ev->data.scalar.value, ev->data.scalar.length);
        n->value[ev->data.scalar.length] = '\0';
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        n->start = m->index;
        n->end = ev->end_mark.index;
        return place(b, n, err, m);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (b->depth >= b->max_depth)
            return set_err(err, AT_ERANGE, m, "nested too deeply (more than the limit of "
                                              "levels a lesson needs)");
        n = node_new(ev->type == YAML_SEQUENCE_START_EVENT ? YN_SEQ : YN_MAP, m);
        if (!n)
            return set_err(err, AT_ENOMEM, m, "out of memory");
        if (place(b, n, err, m))
            return err ? err->code : AT_EINVAL;
        b->stack[b->depth++] = n;
        return 0;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (b->depth > 0)
            b->depth--;
        return 0;
    default:
        return 0;
    }
}

/* Line and column (0-based, in characters) of a byte offset. */
static yaml_mark_t offset_mark(const char *data, size_t len, size_t offset)
{
    yaml_mark_t m = {0, 0, 0};
    for (size_t i = 0; i < offset && i < len; i++) {
        if (data[i] == '\n') {
            m.line++;
            m.column = 0;
        } else if (((unsigned char)data[i] & 0xC0) != 0x80) {
            m.column++;
        }
    }
    m.index = offset;
    return m;
}

/* Is the character at mark m (line and column, 0-based) a tab? */
static int tab_at(const char *data, size_t len, const yaml_mark_t *m)
{
    size_t i = 0, line = 0, col = 0;
    while (i < len && line < m->line)
        line += data[i++] == '\n';
    while (i < len && col < m->column && data[i] != '\n')
        if (++i < len && ((unsigned char)data[i] & 0xC0) != 0x80)
            col++;
    return i < len && data[i] == '\t';
}

int ytree_parse(const char *data, size_t len, int max_depth, ynode **root, at_error *err)
{
    yaml_parser_t parser;
    builder b = {.max_depth = max_depth};
    int rc = AT_OK;
    *root = NULL;
    b.stack = calloc((size_t)max_depth + 1, sizeof *b.stack);
    if (!b.stack || !yaml_parser_initialize(&parser)) {
        free(b.stack);
        return at_error_set(err, AT_ENOMEM, "out of memory");
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            char msg[400];
            const yaml_mark_t *m = &parser.problem_mark;
            const yaml_mark_t *cm = &parser.context_mark;
            int from_line = parser.context && cm->line != m->line;
            snprintf(msg, sizeof msg, "YAML syntax: %s%s%s", parser.problem ? parser.problem : "error",
                     parser.context ? " " : "", parser.context ? parser.context : "");
            if (from_line)
                snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " (started on line %d)",
                         (int)cm->line + 1);
            yaml_mark_t at = *m;
            if (parser.error == YAML_READER_ERROR)    /* only the byte offset is known */
                at = offset_mark(data, len, parser.problem_offset);
            else if (tab_at(data, len, m))
                snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
                         " (a tab: YAML indents with spaces)");
            rc = set_err(err, AT_EINVAL, &at, msg);
            break;
        }
        /* After an error or the end, libyaml may hand out YAML_NO_EVENT: stop there. */
        int end = ev.type == YAML_STREAM_END_EVENT || ev.type == YAML_NO_EVENT;
        rc = on_event(&b, &ev, err);
        yaml_event_delete(&ev);
        if (rc || end)
            break;
    }
    yaml_parser_delete(&parser);
    free(b.stack);
    if (rc) {
        ynode_free(b.root);
        return rc;
    }
    *root = b.root;
    return AT_OK;
}

const ynode *ynode_get(const ynode *map, const char *key, const ynode **key_node)
{
    if (key_node)
        *key_node = NULL;
    if (!map || map->type != YN_MAP)
        return NULL;
    for (size_t i = 0; i + 1 < map->n; i += 2)
        if (map->items[i]->value && !strcmp(map->items[i]->value, key)) {
            if (key_node)
                *key_node = map->items[i];
            return map->items[i + 1];
        }
    return NULL;
}

const char *ynode_describe(const ynode *n)
{
    if (!n)
        return "nothing";
    if (n->type == YN_MAP)
        return "a mapping";
    if (n->type == YN_SEQ)
        return "a list";
    if (n->plain && n->value[0] == '\0')
        return "an empty value";
    char *end;
    if (n->plain && (strtod(n->value, &end), *end == '\0'))
        return "a number";
    return "a string";
}
