#include "quiz/lang.h"

#include <string.h>

qz_lang qz_lang_from(const char *code)
{
    return code && !strncmp(code, "zh", 2) ? QZ_ZH : QZ_EN;
}
