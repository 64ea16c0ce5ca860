/* The UI's language (see ui/i18n.h); the catalogue itself is quiz/lang.c's. */
#include "ui/i18n.h"

#include <string.h>

static qz_lang lang_in_use = QZ_EN;

void ui_i18n_init(const char *lang)
{
    lang_in_use = lang && !strcmp(lang, "zh") ? QZ_ZH : QZ_EN;
}

const char *ui_lang(void)
{
    return lang_in_use == QZ_ZH ? "zh" : "en";
}

qz_lang ui_qz_lang(void)
{
    return lang_in_use;
}
