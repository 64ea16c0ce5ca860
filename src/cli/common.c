#include "cli/cli.h"

#include <cblas.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

cli_globals cli_g;

const char *cli_default_lang(void)
{
    const char *vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return strncmp(v, "zh", 2) == 0 ? "zh" : "en";
    }
    return "en";
}

int cli_take_global_flag(int argc, char **argv, int *i)
{
    static const char *names[] = {"--lang", "--lessons", "--model"};
    const char **slots[] = {&cli_g.lang, &cli_g.lessons_dir, &cli_g.model_path};
    const char *a = argv[*i];
    for (size_t k = 0; k < 3; k++) {
        size_t len = strlen(names[k]);
        if (strncmp(a, names[k], len) != 0 || (a[len] != '\0' && a[len] != '='))
            continue;
        const char *val = a[len] == '=' ? a + len + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!val || !*val) {
            fprintf(stderr, "attn-tutor: %s needs a value\n", names[k]);
            return -1;
        }
        if (k == 0 && strcmp(val, "zh") && strcmp(val, "en")) {
            fprintf(stderr, "attn-tutor: --lang is zh or en, not '%s'\n", val);
            return -1;
        }
        *slots[k] = val;
        return 1;
    }
    return 0;
}

const char *cli_data_path(const char *rel)
{
    static char buf[8192];
    struct stat st;
    const char *env = getenv("ATTN_TUTOR_DATA");
    if (env && *env) {
        snprintf(buf, sizeof buf, "%s/%s", env, rel);
        if (stat(buf, &st) == 0)
            return buf;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';   /* the executable's folder, e.g. <checkout>/build */
            snprintf(buf, sizeof buf, "%s/../%s", exe, rel);
            if (stat(buf, &st) == 0)
                return buf;
            snprintf(buf, sizeof buf, "%s/../share/attn-tutor/%s", exe, rel);
            if (stat(buf, &st) == 0)
                return buf;
        }
    }
    snprintf(buf, sizeof buf, "%s/%s", AT_DATADIR, rel);
    if (stat(buf, &st) == 0)
        return buf;
    return NULL;
}

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
