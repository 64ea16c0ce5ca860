/* The editing keys of a one-line field (see editkeys.h). */
#include "ui/editkeys.h"

int ui_edit_key(ui_lineedit *e, ui_key k)
{
    int changed = 0;
    if (k.fn) {
        switch (k.ch) {
        case KEY_BACKSPACE: changed = ui_lineedit_backspace(e); break;
        case KEY_DC: changed = ui_lineedit_delete(e); break;
        case KEY_LEFT: ui_lineedit_left(e); break;
        case KEY_RIGHT: ui_lineedit_right(e); break;
        case KEY_HOME: ui_lineedit_home(e); break;
        case KEY_END: ui_lineedit_end(e); break;
        default: return UI_EDIT_UNKNOWN;
        }
    } else if (k.ch == 127 || k.ch == 8) {
        changed = ui_lineedit_backspace(e);
    } else if (k.ch == 21) {   /* Ctrl-U */
        changed = ui_lineedit_clear(e);
    } else if (k.ch == 23) {   /* Ctrl-W */
        changed = ui_lineedit_kill_word(e);
    } else if (k.ch == 1) {    /* Ctrl-A */
        ui_lineedit_home(e);
    } else if (k.ch == 5) {    /* Ctrl-E */
        ui_lineedit_end(e);
    } else {
        changed = ui_lineedit_insert(e, (wchar_t)k.ch);
    }
    return changed ? UI_EDIT_CHANGED : UI_EDIT_KEPT;
}
