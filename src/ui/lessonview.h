/* The lesson player: one step at a time (← → h l, PgUp PgDn, Home End), long steps
 * scroll (↑ ↓ j k), every step kind drawn (text, table, formula, code, lab with an
 * embedded heatmap, compute with the engine's numbers, questions with an answer
 * line). The position is saved on every step change. */
#ifndef AT_UI_LESSONVIEW_H
#define AT_UI_LESSONVIEW_H

#include <stddef.h>
#include "ui/screen.h"

/* Open lesson `index` of the tutor's lesson set at 0-based `step` (clamped).
 * Returns NULL when out of memory or the index is out of range. */
ui_screen *ui_lesson_new(ui_app *app, size_t index, unsigned step);

#endif
