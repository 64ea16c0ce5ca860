/* Grapheme clusters cut into the glyphs a terminal draws (see glyphs.h). */
#include "engine/visible.h"
#include "ui/glyphs.h"

#include <string.h>
#include <unictype.h>

#define ZWJ 0x200D

/* Emoji properties from libunistring (Unicode emoji-data); a skin-tone modifier is
 * joined only to a modifier base (after anything else: the placeholder, see joins). */
static int is_modifier(wchar_t c) { return uc_is_property_emoji_modifier((ucs4_t)c); }
static int is_modifier_base(wchar_t c) { return uc_is_property_emoji_modifier_base((ucs4_t)c); }
static int is_regional(wchar_t c) { return uc_is_property_regional_indicator((ucs4_t)c); }

/* Decode s[0 .. len) into g->wc; -1 for invalid UTF-8, a control character or too
 * many code points. */
static int decode(const char *s, size_t len, ui_glyphs *g)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    g->n_wc = 0;
    for (size_t i = 0; i < len; g->n_wc++) {
        if (g->n_wc == UI_CLUSTER_MAX)
            return -1;
        size_t r = mbrtowc(&g->wc[g->n_wc], s + i, len - i, &st);
        if (r == (size_t)-1 || r == (size_t)-2 || r == 0 || wcwidth(g->wc[g->n_wc]) < 0 ||
            at_visible_unsafe((uint32_t)g->wc[g->n_wc]))   /* the one filter */
            return -1;
        i += r;
    }
    /* a ZWJ at the end (a sequence being typed) is invisible, and a terminal that joins
     * would glue the next character drawn, anywhere, to this cell */
    while (g->n_wc > 1 && g->wc[g->n_wc - 1] == ZWJ)
        g->n_wc--;
    return g->n_wc > 0 ? 0 : -1;
}

/* Does wc[i] (spacing) go into the glyph that starts at wc[first]? 1 yes, 0 no (a glyph
 * of its own), -1 when the terminal was not measured for this join or the cluster is
 * none of the emoji sequences measured (it is then drawn as a placeholder, as before). */
static int joins(const ui_glyphs *g, int first, int i, const ui_term_widths *tw)
{
    wchar_t c = g->wc[i];
    if (g->wc[i - 1] == ZWJ)
        return tw->zwj == 2 ? 1 : tw->zwj == 4 ? 0 : -1;
    if (is_modifier(c) && is_modifier_base(g->wc[first]))
        return tw->modifier == 2 ? 1 : tw->modifier == 4 ? 0 : -1;
    if (is_regional(c) && is_regional(g->wc[first]) && i == first + 1)
        return 0;   /* a flag: its two indicators in a cell each (1 column each) */
    return -1;
}

/* Columns the terminal gives the glyph wc[a .. b), ncurses' count nw = wcwidth(wc[a]);
 * -1 when unknown. */
static int glyph_cols(const ui_glyphs *g, int a, int b, int nw, const ui_term_widths *tw)
{
    int vs16 = 0, keycap = 0;
    for (int i = a + 1; i < b; i++) {
        vs16 |= g->wc[i] == 0xFE0F;
        keycap |= g->wc[i] == 0x20E3;
    }
    if (keycap)
        return tw->keycap ? tw->keycap : -1;
    if (vs16 && nw == 1)
        return tw->vs16 ? tw->vs16 : -1;
    return nw;
}

int ui_glyphs_plan(const char *s, size_t len, int gw, const ui_term_widths *tw, ui_glyphs *g)
{
    int measured = tw->zwj || tw->modifier || tw->vs16 || tw->keycap || tw->flag;
    g->n = 0;
    g->cols = 0;
    if (decode(s, len, g) < 0 || wcwidth(g->wc[0]) <= 0)
        return 0;
    int first = 0, flags = 0;
    for (int i = 1; i <= g->n_wc; i++) {
        if (i < g->n_wc && wcwidth(g->wc[i]) == 0)
            continue;   /* marks, ZWJ, selectors, tags, the keycap's enclosing mark */
        int j = i < g->n_wc ? joins(g, first, i, tw) : 0;
        if (j < 0)
            return 0;
        if (j)
            continue;
        /* wc[first .. i) is a glyph */
        if (i - first > CCHARW_MAX)
            return 0;
        int nw = wcwidth(g->wc[first]), tc = glyph_cols(g, first, i, nw, tw);
        if (tc != nw)
            return 0;   /* the terminal would move on by other than ncurses counts */
        flags += is_regional(g->wc[first]);
        g->start[g->n++] = first;
        g->cols += nw;
        first = i;
    }
    g->start[g->n] = g->n_wc;
    if (flags == 2 && tw->flag && tw->flag != 2)
        return 0;   /* the terminal draws a flag in other columns than its 2 cells */
    if (!measured && g->cols != gw)
        return 0;
    return 1;
}
