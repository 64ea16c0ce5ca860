/* Reading a gettext .mo catalogue and looking messages up in it (see quiz/catalogue.h). */
#include "quiz/catalogue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/file.h"

#define MO_MAGIC 0x950412deu
#define MO_MAGIC_SWAPPED 0xde120495u
#define MO_MAX_BYTES (16u << 20)

typedef struct qz_msg {
    const char *id;      /* NUL-terminated key: "msgid", "ctxt\004msgid", "one\0many" */
    const char *str;     /* the translation; plural forms NUL-separated */
    uint32_t str_len;    /* bytes of str, the NULs between forms included */
} qz_msg;

struct qz_catalogue {
    char *data;                 /* the whole file */
    qz_msg *msgs;               /* [n] sorted by id (strcmp) */
    size_t n;
    unsigned long nplurals;     /* from the header's Plural-Forms, 1 when absent */
    char *plural;               /* its plural= expression (NUL-terminated copy), or NULL */
};

static uint32_t word(const char *data, size_t off, int swap)
{
    uint32_t w;
    memcpy(&w, data + off, 4);
    return swap ? __builtin_bswap32(w) : w;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const qz_msg *)a)->id, ((const qz_msg *)b)->id);
}

/* The header's "Name: value" line (value up to the end of the line), or NULL. */
static const char *header_field(const char *header, const char *name, size_t *len)
{
    size_t l = strlen(name);
    for (const char *p = header; p && *p;) {
        if (!strncasecmp(p, name, l)) {
            p += l;
            *len = strcspn(p, "\n");
            return p;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return NULL;
}

/* Charset and Plural-Forms of the header entry. */
static int read_header(qz_catalogue *c, const char *header, at_error *err)
{
    size_t len;
    const char *ct = header_field(header, "Content-Type:", &len);
    const char *cs = ct ? strstr(ct, "charset=") : NULL;
    if (cs && cs < ct + len) {
        cs += strlen("charset=");
        size_t cl = strcspn(cs, " ;\n");
        if (!(cl == 5 && !strncasecmp(cs, "UTF-8", 5)) && !(cl == 4 && !strncasecmp(cs, "utf8", 4)) &&
            !(cl == 5 && !strncasecmp(cs, "ASCII", 5)))
            return at_error_set(err, AT_EINVAL, "the charset is %.*s, not UTF-8", (int)(cl < 40 ? cl : 40), cs);
    }
    c->nplurals = 1;
    const char *pf = header_field(header, "Plural-Forms:", &len);
    if (!pf)
        return AT_OK;
    const char *np = strstr(pf, "nplurals=");
    const char *ex = strstr(pf, "plural=");   /* not in "nplurals=": an s follows plural */
    if (!np || np >= pf + len || !ex || ex >= pf + len)
        return at_error_set(err, AT_EINVAL, "the Plural-Forms header has no nplurals= or plural=");
    c->nplurals = strtoul(np + strlen("nplurals="), NULL, 10);
    ex += strlen("plural=");
    size_t el = strcspn(ex, ";\n");
    unsigned long form;
    if (c->nplurals < 1 || c->nplurals > 16)
        return at_error_set(err, AT_EINVAL, "the Plural-Forms header says nplurals=%lu", c->nplurals);
    if (!(c->plural = strndup(ex, el)))
        return at_error_set(err, AT_ENOMEM, "out of memory");
    if (qz_plural_eval(c->plural, 1, &form))
        return at_error_set(err, AT_EINVAL, "the Plural-Forms expression '%.60s' cannot be read", c->plural);
    return AT_OK;
}

/* Check the tables of c->data (size bytes) and index them into c->msgs. */
static int index_entries(qz_catalogue *c, size_t size, at_error *err)
{
    if (size < 28)
        return at_error_set(err, AT_EINVAL, "not a .mo file (%zu bytes, shorter than its header)", size);
    uint32_t magic;
    memcpy(&magic, c->data, 4);
    if (magic != MO_MAGIC && magic != MO_MAGIC_SWAPPED)
        return at_error_set(err, AT_EINVAL, "not a .mo file (bad magic number)");
    int swap = magic == MO_MAGIC_SWAPPED;
    uint32_t rev = word(c->data, 4, swap), n = word(c->data, 8, swap);
    uint32_t orig = word(c->data, 12, swap), trans = word(c->data, 16, swap);
    if (rev >> 16 > 1)
        return at_error_set(err, AT_EINVAL, "a .mo file of revision %u, newer than this reader", rev >> 16);
    if (n > size / 16 || orig > size - (size_t)n * 8 || trans > size - (size_t)n * 8)
        return at_error_set(err, AT_EINVAL, "the string tables (%u entries) lie outside the file", n);
    if (!(c->msgs = calloc(n ? n : 1, sizeof *c->msgs)))
        return at_error_set(err, AT_ENOMEM, "out of memory");
    const char *header = NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t il = word(c->data, orig + 8 * (size_t)i, swap);
        uint32_t io = word(c->data, orig + 8 * (size_t)i + 4, swap);
        uint32_t sl = word(c->data, trans + 8 * (size_t)i, swap);
        uint32_t so = word(c->data, trans + 8 * (size_t)i + 4, swap);
        if (io >= size || il >= size - io || c->data[io + il] || so >= size || sl >= size - so ||
            c->data[so + sl])
            return at_error_set(err, AT_EINVAL, "entry %u lies outside the file or does not end in NUL", i);
        if (il == 0) {
            header = c->data + so;
            continue;
        }
        if (sl == 0)
            continue;   /* untranslated */
        c->msgs[c->n++] = (qz_msg){c->data + io, c->data + so, sl};
    }
    qsort(c->msgs, c->n, sizeof *c->msgs, by_id);
    for (size_t i = 1; i < c->n; i++)
        if (!strcmp(c->msgs[i - 1].id, c->msgs[i].id))
            return at_error_set(err, AT_EINVAL, "the message '%.60s' is there twice", c->msgs[i].id);
    return header ? read_header(c, header, err) : AT_OK;
}

int qz_catalogue_open(const char *path, qz_catalogue **out, at_error *err)
{
    *out = NULL;
    qz_catalogue *c = calloc(1, sizeof *c);
    if (!c)
        return at_error_set(err, AT_ENOMEM, "out of memory");
    size_t size;
    int rc = at_file_read(path, "a message catalogue (.mo)", MO_MAX_BYTES, &c->data, &size, err);
    if (!rc)
        rc = index_entries(c, size, err);
    if (rc) {
        qz_catalogue_free(c);
        return rc;
    }
    *out = c;
    return AT_OK;
}

/* strcmp of the key "ctxt\004msgid" (or "msgid") with an entry's id. */
static int key_cmp(const char *ctxt, const char *msgid, const char *id)
{
    if (ctxt) {
        size_t l = strlen(ctxt);
        int d = strncmp(ctxt, id, l);
        if (d)
            return d;
        if (id[l] != '\004')
            return '\004' - (unsigned char)id[l];
        id += l + 1;
    }
    return strcmp(msgid, id);
}

const char *qz_catalogue_get(const qz_catalogue *c, const char *ctxt, const char *msgid,
                             const char *plural_id, unsigned long n)
{
    if (!c || !msgid)
        return NULL;
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = key_cmp(ctxt, msgid, c->msgs[mid].id);
        if (d == 0) {
            const qz_msg *m = &c->msgs[mid];
            unsigned long form = 0;
            if (plural_id && (!c->plural || qz_plural_eval(c->plural, n, &form) || form >= c->nplurals))
                form = 0;
            const char *s = m->str, *end = m->str + m->str_len;
            for (; form > 0 && s < end; form--)
                s += strlen(s) + 1;
            return s < end && *s ? s : NULL;
        }
        if (d < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

size_t qz_catalogue_count(const qz_catalogue *c)
{
    return c ? c->n : 0;
}

void qz_catalogue_free(qz_catalogue *c)
{
    if (!c)
        return;
    free(c->msgs);
    free(c->plural);
    free(c->data);
    free(c);
}
