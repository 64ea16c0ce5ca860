#include "engine/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void at_error_clear(at_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->offset = -1;
}

int at_error_set(at_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}
