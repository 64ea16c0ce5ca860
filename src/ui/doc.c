/* Laid-out documents: wrapped paragraphs, tables, reserved blocks. */
#include "ui/doc.h"

#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/uitext.h"

void ui_doc_free(ui_doc *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->v[i].text);
    free(d->v);
    *d = (ui_doc){0};
}

void ui_doc_reset(ui_doc *d, int width)
{
    ui_doc_free(d);
    d->width = width < 1 ? 1 : width;
}

static void push(ui_doc *d, const char *s, size_t len, crt_role role, int indent, int block,
                 int row)
{
    if (d->failed)
        return;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        ui_doc_line *v = realloc(d->v, cap * sizeof *v);
        if (!v) {
            d->failed = 1;
            return;
        }
        d->v = v;
        d->cap = cap;
    }
    char *t = NULL;
    if (s) {
        t = malloc(len + 1);
        if (!t) {
            d->failed = 1;
            return;
        }
        memcpy(t, s, len);
        t[len] = '\0';
    }
    d->v[d->n++] = (ui_doc_line){t, role, indent, block, row};
}

/* Bytes of the list marker at p with the space after it ("- ", "• ", "✓ ", "✗ ",
 * "12. ", "3) ", "b) "), or 0. */
static size_t marker_len(const char *p)
{
    static const char *const bullets[] = {"- ", "* ", "• ", "✓ ", "✗ "};
    for (size_t i = 0; i < sizeof bullets / sizeof bullets[0]; i++)
        if (!strncmp(p, bullets[i], strlen(bullets[i])))
            return strlen(bullets[i]);
    if (!strncmp(p, "•", strlen("•")))
        return strlen("•");
    const char *q = p;
    while (*q >= '0' && *q <= '9')
        q++;
    if (q > p && (*q == '.' || *q == ')') && q[1] == ' ')
        return (size_t)(q - p) + 2;
    if (p[0] >= 'a' && p[0] <= 'z' && p[1] == ')' && p[2] == ' ')
        return 3;
    return 0;
}

static int starts_list(const char *p)
{
    return marker_len(p) > 0;
}

/* Is the last cluster before `end` (or the first at p) a wide (CJK) character? */
static int wide_before(const char *start, const char *end)
{
    size_t i = ui_text_prev(start, (size_t)(end - start), (size_t)(end - start));
    return ui_text_gwidth(start + i, (size_t)(end - start) - i) == 2;
}

static int wide_at(const char *p);

/* Is c CJK punctuation, which carries its own space (，。、；：！？（）「」)? */
static int cjk_punct(const char *p, size_t n)
{
    const unsigned char *u = (const unsigned char *)p;
    if (n < 3)
        return 0;
    unsigned c = (unsigned)(u[0] & 0x0f) << 12 | (unsigned)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
    return (u[0] & 0xf0) == 0xe0 &&
           ((c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff0f) ||
            (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) ||
            (c >= 0xff5b && c <= 0xff65));
}

/* Does a line joined at a soft break need a space there? Not between two CJK
 * characters, nor after or before CJK punctuation ("，softmax", not "， softmax"). */
static int join_with_space(const char *line, const char *le, const char *next)
{
    if (wide_before(line, le) && wide_at(next))
        return 0;
    size_t i = ui_text_prev(line, (size_t)(le - line), (size_t)(le - line));
    return !cjk_punct(line + i, (size_t)(le - line) - i) && !cjk_punct(next, strlen(next));
}

static int wide_at(const char *p)
{
    size_t len = strlen(p);
    return len && ui_text_gwidth(p, ui_text_next(p, len, 0)) == 2;
}

/* Paragraphs as flowing text: a line break inside a paragraph becomes a space (or
 * nothing between two CJK characters), unless the next line is indented or starts a
 * list item, or the line itself is indented (preformatted). Caller frees. */
static char *reflow(const char *text, size_t len)
{
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    const char *line = text, *end = text + len;
    while (line < end) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *le = nl ? nl : end;
        memcpy(out + o, line, (size_t)(le - line));
        o += (size_t)(le - line);
        if (!nl)
            break;
        const char *next = nl + 1;
        int join = le > line && line[0] != ' ' && next < end && *next != '\n' && *next != ' ' &&
                   *next != '\t' && !starts_list(next);
        if (!join)
            out[o++] = '\n';
        else if (join_with_space(line, le, next))
            out[o++] = ' ';
        line = next;
    }
    out[o] = '\0';
    return out;
}

void ui_doc_text(ui_doc *d, const char *text0, crt_role role, int indent)
{
    ui_lines lines = {0};
    char *text = reflow(text0, strlen(text0));
    if (!text) {
        d->failed = 1;
        return;
    }
    size_t len = strlen(text);
    while (len > 0 && text[len - 1] == '\n')
        len--;
    if (ui_wrap(text, len, d->width - indent, &lines) < 0) {
        d->failed = 1;
    } else {
        for (size_t i = 0; i < lines.n; i++)
            push(d, text + lines.v[i].start, lines.v[i].len, role, indent, 0, 0);
    }
    ui_lines_free(&lines);
    free(text);
}

/* Does the line s[0..n) end a sentence, introduce what follows ("Missing:") or end
 * in a number or a closing parenthesis, as the grader's own lines do ("  2. their
 * sum: 9.7504", "  没: 0.208  ✗  (engine: 0.1691 ≈ 0.17)")? */
static int ends_sentence(const char *s, size_t n)
{
    static const char *const ends[] = {".", ":", "!", "?", ";", ")",
                                       "。", "：", "！", "？", "；", "）",
                                       "✓", "✗"};   /* a graded value's line */
    while (n > 0 && s[n - 1] == ' ')
        n--;
    if (n > 0 && s[n - 1] >= '0' && s[n - 1] <= '9')
        return 1;
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t k = strlen(ends[i]);
        if (n >= k && !memcmp(s + n - k, ends[i], k))
            return 1;
    }
    return 0;
}

/* Is the source line break at text[i] (inside a paragraph) a soft one, from a lesson
 * text wrapped by hand, to be joined? Not when the line ends a sentence, nor before an
 * indented line, a list item or a heading line ending in ':'. */
static int soft_break(const char *text, size_t i)
{
    const char *next = text + i + 1;
    if (i == 0 || text[i - 1] == '\n' || *next == '\n' || !*next || *next == ' ' ||
        *next == '\t' || starts_list(next))
        return 0;
    size_t ls = i;
    while (ls > 0 && text[ls - 1] != '\n')
        ls--;
    if (ends_sentence(text + ls, i - ls))
        return 0;
    const char *ne = strchr(next, '\n');
    size_t nn = ne ? (size_t)(ne - next) : strlen(next);
    return !(nn > 0 && (next[nn - 1] == ':' || (nn >= 3 && !memcmp(next + nn - 3, "：", 3))));
}

/* One line of feedback, wrapped; a list item's wrapped lines start under its text
 * (a hanging indent past its leading spaces and marker). */
static void hanging_line(ui_doc *d, const char *s, size_t n, crt_role role, int indent)
{
    size_t lead = 0;
    while (lead < n && s[lead] == ' ')
        lead++;
    size_t mk = lead < n ? marker_len(s + lead) : 0;
    if (lead + mk > n)
        mk = 0;
    int hang = (int)lead + ui_text_width(s + lead, mk);
    int width = d->width - indent - hang;
    if (width < 10) {   /* too narrow to indent: wrap the whole line */
        hang = 0;
        lead = mk = 0;
        width = d->width - indent;
    }
    const char *body = s + lead + mk;
    ui_lines lines = {0};
    if (ui_wrap(body, n - lead - mk, width, &lines) < 0) {
        d->failed = 1;
    } else {
        for (size_t k = 0; k < lines.n; k++) {
            if (k == 0)   /* the first line keeps its indent and marker */
                push(d, s, (size_t)(body - s) + lines.v[0].start + lines.v[0].len, role, indent, 0, 0);
            else
                push(d, body + lines.v[k].start, lines.v[k].len, role, indent + hang, 0, 0);
        }
    }
    ui_lines_free(&lines);
}

void ui_doc_flow(ui_doc *d, const char *text, crt_role role, int indent)
{
    size_t len = strlen(text);
    char *t = malloc(len + 1);
    if (!t) {
        d->failed = 1;
        return;
    }
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n' || !soft_break(text, i)) {
            t[o++] = text[i];
            continue;
        }
        size_t ls = i;
        while (ls > 0 && text[ls - 1] != '\n')
            ls--;
        if (join_with_space(text + ls, text + i, text + i + 1))
            t[o++] = ' ';
    }
    while (o > 0 && t[o - 1] == '\n')
        o--;
    t[o] = '\0';
    for (const char *p = t; !d->failed;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == 0)
            ui_doc_blank(d);
        else
            hanging_line(d, p, n, role, indent);
        if (!e)
            break;
        p = e + 1;
    }
    free(t);
}

void ui_doc_line_add(ui_doc *d, const char *text, crt_role role, int indent)
{
    push(d, text, strlen(text), role, indent, 0, 0);
}

void ui_doc_blank(ui_doc *d)
{
    push(d, "", 0, CRT_NORMAL, 0, 0, 0);
}

void ui_doc_block(ui_doc *d, int id, int h)
{
    for (int i = 0; i < h; i++)
        push(d, NULL, 0, CRT_NORMAL, 0, id, i);
}

/* ---- tables ---- */

static int cell_width(const char *s)
{
    /* the widest line of the cell */
    int m = 0;
    const char *p = s;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int w = ui_text_width(p, n);
        if (w > m)
            m = w;
        p += n + (e != NULL);
    }
    return m;
}

/* Shrink the widest columns until the table (cells + borders) fits `avail`. */
static void fit_columns(int *cw, size_t n, int avail)
{
    int total = 1;
    for (size_t c = 0; c < n; c++)
        total += cw[c] + 3;
    while (total > avail) {
        size_t wide = 0;
        for (size_t c = 1; c < n; c++)
            if (cw[c] > cw[wide])
                wide = c;
        if (cw[wide] <= 2)
            break;
        cw[wide]--;
        total--;
    }
}

/* Append text to line buffer b at *pos, padded with spaces to exactly `cols` columns. */
static void put_padded(char *b, size_t *pos, size_t cap, const char *s, size_t len, int cols)
{
    int w;
    size_t n = ui_text_clip(s, len, cols, &w);
    if (*pos + n + (size_t)(cols - w) + 1 >= cap)
        return;
    memcpy(b + *pos, s, n);
    *pos += n;
    for (int i = w; i < cols; i++)
        b[(*pos)++] = ' ';
    b[*pos] = '\0';
}

static void put_str(char *b, size_t *pos, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (*pos + n + 1 >= cap)
        return;
    memcpy(b + *pos, s, n + 1);
    *pos += n;
}

static void rule(ui_doc *d, const int *cw, size_t n, const char *l, const char *m,
                 const char *r, int indent)
{
    char b[4096];
    size_t pos = 0;
    b[0] = '\0';
    put_str(b, &pos, sizeof b, l);
    for (size_t c = 0; c < n; c++) {
        for (int i = 0; i < cw[c] + 2; i++)
            put_str(b, &pos, sizeof b, "─");
        put_str(b, &pos, sizeof b, c + 1 < n ? m : r);
    }
    push(d, b, pos, CRT_BORDER, indent, 0, 0);
}

static void table_row(ui_doc *d, const char *const *cells, const int *cw, size_t n,
                      crt_role role, int indent)
{
    ui_lines *wrapped = calloc(n, sizeof *wrapped);
    if (!wrapped) {
        d->failed = 1;
        return;
    }
    size_t height = 1;
    for (size_t c = 0; c < n; c++) {
        const char *s = cells[c] ? cells[c] : "";
        if (ui_wrap(s, strlen(s), cw[c], &wrapped[c]) < 0)
            d->failed = 1;
        if (wrapped[c].n > height)
            height = wrapped[c].n;
    }
    for (size_t k = 0; k < height && !d->failed; k++) {
        char b[4096];
        size_t pos = 0;
        b[0] = '\0';
        put_str(b, &pos, sizeof b, "│");
        for (size_t c = 0; c < n; c++) {
            const char *s = cells[c] ? cells[c] : "";
            put_str(b, &pos, sizeof b, " ");
            if (k < wrapped[c].n)
                put_padded(b, &pos, sizeof b, s + wrapped[c].v[k].start, wrapped[c].v[k].len,
                           cw[c]);
            else
                put_padded(b, &pos, sizeof b, "", 0, cw[c]);
            put_str(b, &pos, sizeof b, " │");
        }
        push(d, b, pos, role, indent, 0, 0);
    }
    for (size_t c = 0; c < n; c++)
        ui_lines_free(&wrapped[c]);
    free(wrapped);
}

void ui_doc_table(ui_doc *d, const char *const *header, size_t n_cols,
                  const char *const *const *rows, size_t n_rows, int indent)
{
    if (n_cols == 0 || n_cols > 64)
        return;
    int cw[64];
    for (size_t c = 0; c < n_cols; c++) {
        cw[c] = header && header[c] ? cell_width(header[c]) : 0;
        for (size_t r = 0; r < n_rows; r++) {
            int w = rows[r][c] ? cell_width(rows[r][c]) : 0;
            if (w > cw[c])
                cw[c] = w;
        }
        if (cw[c] < 1)
            cw[c] = 1;
    }
    fit_columns(cw, n_cols, d->width - indent);
    rule(d, cw, n_cols, "┌", "┬", "┐", indent);
    if (header) {
        table_row(d, header, cw, n_cols, CRT_TITLE, indent);
        rule(d, cw, n_cols, "├", "┼", "┤", indent);
    }
    for (size_t r = 0; r < n_rows; r++)
        table_row(d, rows[r], cw, n_cols, CRT_NORMAL, indent);
    rule(d, cw, n_cols, "└", "┴", "┘", indent);
}

void ui_doc_draw(WINDOW *w, ui_rect r, const ui_doc *d, int top, ui_doc_block_fn fn,
                 void *ctx)
{
    if (top < 0)
        top = 0;
    for (int y = 0; y < r.h && (size_t)(top + y) < d->n; y++) {
        const ui_doc_line *l = &d->v[top + y];
        if (l->block) {
            if (fn && (l->block_row == 0 || y == 0)) {
                int h = 0;
                while ((size_t)(top + y + h) < d->n && y + h < r.h &&
                       d->v[top + y + h].block == l->block)
                    h++;
                fn(ctx, w, l->block, l->block_row, (ui_rect){r.y + y, r.x, h, r.w});
            }
            continue;
        }
        ui_puts(w, r.y + y, r.x + l->indent, l->text, r.w - l->indent, crt_attr(l->role));
    }
}
