#include "cli/cli.h"
#include "cli/blas_start.h"
#include "engine/file.h"

#include <cblas.h>
#include <curses.h>
#include <cyaml/cyaml.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unistring/version.h>

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

void cli_warn_missing_catalogue(const char *lang)
{
    qz_lang l = qz_lang_from(lang);
    char why[600];
    if (qz_lang_catalogue(l) && !qz_lang_catalogue_path(l, why, sizeof why))
        fprintf(stderr, "attn-tutor: messages stay in English: %s\n", why);
}

static int exists_at(char *buf, size_t cap, const char *dir, const char *rel)
{
    struct stat st;
    int n = snprintf(buf, cap, "%s/%s", dir, rel);
    return n > 0 && (size_t)n < cap && stat(buf, &st) == 0;
}

const char *cli_data_path(const char *rel)
{
    static char buf[8192];
    char exe[4096], dir[4200];
    const char *env = getenv("ATTN_TUTOR_DATA");
    if (env && *env && exists_at(buf, sizeof buf, env, rel))
        return buf;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = '\0';   /* the executable's folder: <prefix>/bin or <checkout>/build[/asan] */
        snprintf(dir, sizeof dir, "%s/../share/attn-tutor", exe);
        if (exists_at(buf, sizeof buf, dir, rel))
            return buf;
        if ((!strcmp(exe, AT_SRCDIR "/build") || !strcmp(exe, AT_SRCDIR "/build/asan")) &&
            exists_at(buf, sizeof buf, AT_SRCDIR, rel))
            return buf;   /* build/attn-tutor or build/asan/attn-tutor of its checkout */
        for (const char *up = "/..", *up2 = "/../.."; up; up = up2, up2 = NULL) {
            snprintf(dir, sizeof dir, "%s%s", exe, up);   /* a checkout moved elsewhere */
            if (exists_at(buf, sizeof buf, dir, "Makefile") && exists_at(buf, sizeof buf, dir, rel))
                return buf;
        }
    }
    if (exists_at(buf, sizeof buf, AT_DATADIR, rel))
        return buf;
    return NULL;
}

/* Append dir to dirs[*n] when it is a folder not listed yet (compared by real path). */
static void add_dir(char (*dirs)[CLI_PATH_MAX], size_t max, size_t *n, const char *dir)
{
    char real[PATH_MAX];
    struct stat st;
    if (*n >= max || !dir || !*dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
        !realpath(dir, real) || strlen(real) >= CLI_PATH_MAX)
        return;
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(dirs[i], real))
            return;
    strcpy(dirs[(*n)++], real);
}

size_t cli_lesson_dirs(char (*dirs)[CLI_PATH_MAX], size_t max)
{
    char buf[CLI_PATH_MAX];
    size_t n = 0;
    if (cli_g.lessons_dir) {
        add_dir(dirs, max, &n, cli_g.lessons_dir);
        return n;
    }
    const char *home = getenv("HOME"), *data_home = getenv("XDG_DATA_HOME");
    if (data_home && *data_home)
        snprintf(buf, sizeof buf, "%s/attn-tutor/lessons", data_home);
    else if (home && *home)
        snprintf(buf, sizeof buf, "%s/.local/share/attn-tutor/lessons", home);
    else
        buf[0] = '\0';
    add_dir(dirs, max, &n, buf);
    const char *list = getenv("XDG_DATA_DIRS");
    if (!list || !*list)
        list = "/usr/local/share:/usr/share";
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ":");
        if (len > 0 && len < sizeof buf - sizeof "/attn-tutor/lessons") {
            snprintf(buf, sizeof buf, "%.*s/attn-tutor/lessons", (int)len, p);
            add_dir(dirs, max, &n, buf);
        }
        p += len + (p[len] == ':');
    }
    add_dir(dirs, max, &n, cli_data_path("lessons"));
    return n;
}

void cli_setup_locale(void)
{
    const char *ok = setlocale(LC_ALL, "");
    if (!ok || strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        setlocale(LC_CTYPE, "C.UTF-8");
    setlocale(LC_NUMERIC, "C");
}

/* The versions of the libraries as loaded at run time (not the headers'). */
void cli_print_version(void)
{
    int u = _libunistring_version;
    printf("attn-tutor %s\n", AT_VERSION);
    printf("%s\n", (curses_version)());                 /* "ncurses 6.4.20221231" */
    printf("libcyaml %s\n", cyaml_version_str);
    printf("%s (core %s)\n", openblas_get_config(), openblas_get_corename()); /* "OpenBLAS 0.3.21 …" */
    printf("%s\n", cli_blas_core_report());
    printf("libunistring %d.%d.%d\n", u >> 16, (u >> 8) & 0xff, u & 0xff);
}

/* strtod on the whole string, sorted into the CLI_NUM_* cases; a Unicode minus
 * (U+2212, "−0.5" pasted from a text) is a minus. */
static int parse_number(const char *s, double *out)
{
    char buf[256];
    if (s && strstr(s, "\u2212") && strlen(s) < sizeof buf) {
        size_t o = 0;
        for (const char *p = s; *p;)
            if (!strncmp(p, "\u2212", 3)) {
                buf[o++] = '-';
                p += 3;
            } else {
                buf[o++] = *p++;
            }
        buf[o] = '\0';
        s = buf;
    }
    if (!s || !*s)
        return CLI_NUM_NOT_A_NUMBER;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end)
        return CLI_NUM_NOT_A_NUMBER;
    if (errno == ERANGE)
        return fabs(v) > 1.0 ? CLI_NUM_TOO_LARGE : CLI_NUM_TOO_SMALL;
    if (!isfinite(v))
        return CLI_NUM_NOT_FINITE;
    *out = v;
    return 0;
}

int cli_parse_float(const char *s, float *out)
{
    double v;
    int rc = parse_number(s, &v);
    if (rc)
        return rc;
    if (fabs(v) > FLT_MAX)
        return CLI_NUM_TOO_LARGE;
    if (v != 0 && fabs(v) < FLT_MIN)
        return CLI_NUM_TOO_SMALL;
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
    return parse_number(s, out);
}

const char *cli_number_problem(int rc, int is_float)
{
    switch (rc) {
    case CLI_NUM_TOO_LARGE:
        return is_float ? "is too large (out of range: a float holds at most about ±3.4e38)"
                        : "is too large (out of range: a double holds at most about ±1.8e308)";
    case CLI_NUM_TOO_SMALL:
        return is_float ? "is too close to 0 (out of range: below about 1.2e-38; write 0)"
                        : "is too close to 0 (out of range: below about 2.2e-308; write 0)";
    case CLI_NUM_NOT_FINITE:
        return "is not a finite number";
    default:
        return "is not a number (write decimals with a dot: 0.5)";
    }
}

int cli_load_lessons(const char *lang, const at_model *m, at_lesson_set *out,
                     at_diag_list *diags)
{
    static char dirs[8][CLI_PATH_MAX];
    const char *list[8];
    size_t n = cli_lesson_dirs(dirs, 8);
    for (size_t i = 0; i < n; i++)
        list[i] = dirs[i];
    return at_lesson_set_load_dirs(list, n, lang, m, out, diags);
}

void cli_print_lesson_dirs(FILE *f, const char *lang)
{
    static char dirs[8][CLI_PATH_MAX];
    size_t n = cli_lesson_dirs(dirs, 8);
    if (!n)
        fprintf(f, "  (none: give --lessons DIR)\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %s/%s\n", dirs[i], lang);
}

const char *cli_model_kind(const at_model *m, qz_lang lang)
{
    const char *k = at_model_kind(m);
    return !strcmp(k, "trained")                  ? qz_trc(lang, "model", "trained")
           : !strcmp(k, "untrained demo weights") ? qz_tr(lang, "untrained demo weights")
                                                  : k;
}

int cli_refuse_special_files(const char *cmd, const char *lang, int which)
{
    int refused = 0;
    at_error err;
    struct stat st;
    if ((which & CLI_FILES_MODEL) && cli_g.model_path) {
        int fd;
        size_t size;
        int folder = stat(cli_g.model_path, &st) == 0 && S_ISDIR(st.st_mode);
        char cfg[CLI_PATH_MAX + 16];
        snprintf(cfg, sizeof cfg, "%s/config.json", cli_g.model_path);
        if (folder && (which & CLI_FILES_MODEL_DIR)) {
            if (stat(cfg, &st) != 0) {
                fprintf(stderr, "attn-tutor%s%s: --model %s: is a folder without config.json: "
                        "give a model file (e.g. --model models/mini.safetensors) or a Hugging "
                        "Face model folder (config.json, model.safetensors and the tokenizer's "
                        "files)\n", *cmd ? " " : "", cmd, cli_g.model_path);
                refused = 1;
            }
        } else if (at_file_open(cli_g.model_path, "a model file (.safetensors)", &fd, &size, &err) == AT_OK) {
            close(fd);
        } else if (err.code == AT_ENOTREG) {
            fprintf(stderr, "attn-tutor%s%s: --model %s: %s%s\n", *cmd ? " " : "", cmd, cli_g.model_path, err.msg,
                    folder ? ": give the file itself, e.g. --model models/mini.safetensors" : "");
            refused = 1;
        }
    }
    const char *dir = cli_g.lessons_dir;
    if ((which & CLI_FILES_LESSONS_DIR) && dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "attn-tutor%s%s: --lessons %s: is %s, not a folder (--lessons takes a "
                        "folder holding zh/ and en/)\n", *cmd ? " " : "", cmd, dir, at_file_kind(st.st_mode));
        return 2;
    }
    if ((which & CLI_FILES_LESSONS) != CLI_FILES_LESSONS)
        return refused ? 2 : 0;
    static char dirs[8][CLI_PATH_MAX];
    const char *list[8];
    size_t n = cli_lesson_dirs(dirs, 8);
    for (size_t i = 0; i < n; i++)
        list[i] = dirs[i];
    at_diag_list d = {0};
    if (at_lesson_dirs_check_files(list, n, lang, &d) == AT_ENOTREG) {
        for (size_t i = 0; i < d.count; i++)
            fprintf(stderr, "attn-tutor%s%s: %s: %s (a lessons folder holds lesson files only)\n",
                    *cmd ? " " : "", cmd, d.items[i].file, d.items[i].msg);
        refused = 1;
    }
    at_diag_list_free(&d);
    return refused ? 2 : 0;
}
