#include "cli/cli.h"

#include <cblas.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_setup_locale(void)
{
    const char *ok = setlocale(LC_ALL, "");
    if (!ok || strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        setlocale(LC_CTYPE, "C.UTF-8");
    setlocale(LC_NUMERIC, "C");
}

void cli_print_version(void)
{
    printf("attn-tutor %s\n", AT_VERSION);
    printf("OpenBLAS %s (core %s)\n", openblas_get_config(), openblas_get_corename());
}

int cli_parse_float(const char *s, float *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = (float)v;
    return 0;
}

void cli_print_number(FILE *f, double x, int json)
{
    if (isnan(x))
        fputs(json ? "null" : "nan", f);
    else if (isinf(x))
        fputs(json ? "null" : (x > 0 ? "inf" : "-inf"), f);
    else
        fprintf(f, "%.7g", x);
}

int cli_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}
