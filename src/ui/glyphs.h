/* A grapheme cluster as this terminal draws it: the glyphs (runs of code points that
 * take one ncurses cell each) the terminal makes of it and the columns they take.
 * A cluster is drawn whole, glyph by glyph, when every glyph takes in the terminal the
 * columns ncurses counts for it (the wcwidth of its first code point); its width on
 * screen is then the terminal's. Otherwise it is drawn as a placeholder in the width
 * libunistring gives the cluster (engine/text.h).
 *
 * The terminal's ways come from ui_probe_widths (ui/termprobe.h): whether it joins the
 * emoji after a ZWJ and a skin-tone modifier to the one before (👩‍🔧, 👍🏽 in 2 columns)
 * or draws them apart (4 columns), how wide a narrow emoji with VS16 (❤️) and a keycap
 * (1️⃣) are, and that a flag (two regional indicators) takes 2. Unmeasured (all 0), only
 * clusters whose glyphs add up to libunistring's width are drawn whole, as before any
 * measuring: combining marks, flags, a base with selectors of no width. */
#ifndef AT_UI_GLYPHS_H
#define AT_UI_GLYPHS_H

#include <curses.h>
#include <stddef.h>
#include <wchar.h>

#include "ui/termprobe.h"

#define UI_CLUSTER_MAX 16   /* code points of a cluster considered; longer: placeholder */

typedef struct ui_glyphs {
    wchar_t wc[UI_CLUSTER_MAX];   /* the cluster's code points (a trailing ZWJ dropped) */
    int n_wc;
    int n;                        /* glyphs: glyph g is wc[start[g] .. start[g + 1]) */
    int start[UI_CLUSTER_MAX + 1];
    int cols;                     /* columns the terminal draws the glyphs in */
} ui_glyphs;

/* Plan the grapheme cluster s[0 .. len) (one cluster, as ui_text_next cuts it) for a
 * terminal drawing as *tw says. Returns 1 when it can be drawn whole: g holds its glyphs,
 * each of at most CCHARW_MAX code points starting with a spacing one, and g->cols their
 * columns; 0 when not (invalid UTF-8, a control character, a cluster longer than
 * UI_CLUSTER_MAX code points or a glyph longer than a cell, a glyph the terminal draws
 * wider or narrower than ncurses counts it, a join the terminal was not measured for,
 * or, unmeasured, glyphs that do not add up to libunistring's width gw). */
int ui_glyphs_plan(const char *s, size_t len, int gw, const ui_term_widths *tw, ui_glyphs *g);

#endif
