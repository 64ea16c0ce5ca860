/* The editing keys of a one-line field (an answer, a prediction, the lab's sentence),
 * shared by every screen that edits a ui_lineedit. */
#ifndef AT_UI_EDITKEYS_H
#define AT_UI_EDITKEYS_H

#include "ui/lineedit.h"
#include "ui/screen.h"

enum {
    UI_EDIT_UNKNOWN = 0,   /* a function key that is not an editing key: the caller's */
    UI_EDIT_KEPT = 1,      /* an editing key that left the text as it was (a move) */
    UI_EDIT_CHANGED = 2,   /* the text changed */
};

/* Applies k to e: Backspace (also ^H, DEL), Delete, ←, →, Home, End, ^A (start), ^E
 * (end), ^U (clear), ^W (the word before the cursor), or inserts a character (the
 * control characters and what would not print are not typed). Enter and Esc are the
 * caller's to handle before. Returns one of UI_EDIT_*. */
int ui_edit_key(ui_lineedit *e, ui_key k);

#endif
