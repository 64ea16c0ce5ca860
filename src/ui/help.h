/* The help overlay ('?'): every key of the current screen in a box over it. */
#ifndef AT_UI_HELP_H
#define AT_UI_HELP_H

#include <curses.h>
#include "ui/screen.h"

/* Draw the overlay centred in r: the screen's items (gettext msgids, {NULL, NULL}
 * terminated; NULL = none), then the keys every screen shares; *scroll is the first
 * line shown when they do not fit (clamped here). */
void ui_help_draw(WINDOW *w, ui_rect r, const ui_help_item *items, int *scroll);

#endif
