/* Languages and their message catalogues (see quiz/lang.h). The catalogue of a language
 * is read once, the first time a message in it is asked for, and kept until the process
 * exits: read-only after loading, shared by every caller (the one process-wide state of
 * the grader, behind a mutex). */
#include "quiz/lang.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unictype.h>
#include <unistd.h>
#include <unistr.h>

#include "quiz/catalogue.h"

#define DOMAIN "attn-tutor"

static const char *const catalogue_name[QZ_LANGS] = {[QZ_EN] = NULL, [QZ_ZH] = "zh_CN"};

typedef struct lang_state {
    int tried;
    qz_catalogue *cat;
    char path[4200];     /* the .mo read, when cat */
    char error[600];     /* why there is no catalogue, when tried and !cat */
} lang_state;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static lang_state state[QZ_LANGS];

qz_lang qz_lang_from(const char *code)
{
    return code && !strncmp(code, "zh", 2) ? QZ_ZH : QZ_EN;
}

const char *qz_lang_catalogue(qz_lang lang)
{
    return (unsigned)lang < QZ_LANGS ? catalogue_name[lang] : NULL;
}

/* Folders that may hold <catalogue>/LC_MESSAGES/attn-tutor.mo, in order: beside the
 * executable in a build tree (build/locale for build/attn-tutor, build/asan/attn-tutor
 * and the tests under build/rel/tests), the install prefix beside it (<prefix>/bin →
 * <prefix>/share/locale, also staged under DESTDIR or moved), then the configured
 * LOCALEDIR. Writes up to max folders; returns how many. */
static size_t locale_dirs(char dirs[][4200], size_t max)
{
    static const char *const rel[] = {"/locale", "/../locale", "/../../locale", "/../share/locale"};
    char exe[4096];
    size_t n = 0;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = '\0';
        for (size_t i = 0; i < sizeof rel / sizeof rel[0] && n < max; i++)
            snprintf(dirs[n++], sizeof dirs[0], "%s%s", exe, rel[i]);
    }
    if (n < max)
        snprintf(dirs[n++], sizeof dirs[0], "%s", AT_LOCALEDIR);
    return n;
}

/* Called with the lock held. */
static void load(qz_lang lang)
{
    lang_state *s = &state[lang];
    char dirs[5][4200], path[4400];
    struct stat st;
    s->tried = 1;
    size_t n = locale_dirs(dirs, 5);
    for (size_t i = 0; i < n; i++) {
        int len = snprintf(path, sizeof path, "%s/%s/LC_MESSAGES/" DOMAIN ".mo", dirs[i],
                           catalogue_name[lang]);
        if (len < 0 || (size_t)len >= sizeof s->path || stat(path, &st) != 0)
            continue;
        at_error err = {0};
        if (qz_catalogue_open(path, &s->cat, &err) == AT_OK) {
            memcpy(s->path, path, (size_t)len + 1);
            return;
        }
        if (snprintf(s->error, sizeof s->error, "%s: %s", path, err.msg) < 0)
            s->error[0] = '\0';
        return;   /* a broken catalogue is reported, not skipped for an older one */
    }
    snprintf(s->error, sizeof s->error, "no " DOMAIN ".mo for %s in %s (nor beside the program)",
             catalogue_name[lang], AT_LOCALEDIR);
}

static const qz_catalogue *catalogue(qz_lang lang)
{
    if ((unsigned)lang >= QZ_LANGS || !catalogue_name[lang])
        return NULL;
    pthread_mutex_lock(&lock);
    if (!state[lang].tried)
        load(lang);
    const qz_catalogue *c = state[lang].cat;
    pthread_mutex_unlock(&lock);
    return c;
}

/* At exit the catalogues are given back (valgrind and LeakSanitizer see no block left);
 * a message asked for after that comes in English. */
__attribute__((destructor)) static void unload(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < QZ_LANGS; i++) {
        qz_catalogue_free(state[i].cat);
        state[i].cat = NULL;
        state[i].tried = 1;
    }
    pthread_mutex_unlock(&lock);
}

const char *qz_tr(qz_lang lang, const char *msgid)
{
    const char *s = qz_catalogue_get(catalogue(lang), NULL, msgid, NULL, 0);
    return s ? s : msgid;
}

const char *qz_trc(qz_lang lang, const char *context, const char *msgid)
{
    const char *s = qz_catalogue_get(catalogue(lang), context, msgid, NULL, 0);
    return s ? s : msgid;
}

const char *qz_ntr(qz_lang lang, const char *singular, const char *plural, unsigned long n)
{
    const char *s = qz_catalogue_get(catalogue(lang), NULL, singular, plural, n);
    return s ? s : n == 1 ? singular : plural;
}

const char *qz_lang_catalogue_path(qz_lang lang, char *err, size_t err_size)
{
    const qz_catalogue *c = catalogue(lang);
    if (err && err_size)
        snprintf(err, err_size, "%s", c || (unsigned)lang >= QZ_LANGS || !catalogue_name[lang]
                                          ? "" : state[lang].error);
    return c ? state[lang].path : NULL;
}

int qz_feedback_has_verdict(const char *s)
{
    static const char *const words[] = {"Right", "Yes", "Correct", "Exactly", "Wrong", "No",
                                        "Not quite", "Not right", "Not so", "对", "正确", "没错",
                                        "不对", "不正确", "错"};
    static const char *const marks[] = {".", ":", ",", "!", ";", " —", "。", "：", "，", "！", "；"};
    if (!s)
        return 0;
    while (*s == ' ' || *s == '\n')
        s++;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i]);
        if (strncmp(s, words[i], n))
            continue;
        for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
            if (!strncmp(s + n, marks[k], strlen(marks[k])))
                return 1;
    }
    return 0;
}

int qz_is_han(uint32_t c)
{
    const uc_script_t *sc = uc_script(c);
    if (sc && (!strcmp(sc->name, "Han") || !strcmp(sc->name, "Hiragana") ||
               !strcmp(sc->name, "Katakana") || !strcmp(sc->name, "Hangul")))
        return 1;
    return (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0x20000 && c <= 0x3134f);
}

size_t qz_han_len(const char *s)
{
    ucs4_t c;
    int n = u8_strmbtouc(&c, (const uint8_t *)s);
    return n > 0 && qz_is_han(c) ? (size_t)n : 0;
}

int qz_written_in_chinese(const char *s)
{
    size_t han = 0, latin = 0;
    for (const char *p = s; p && *p;) {
        size_t n = qz_han_len(p);
        if (n) {
            han++;
            p += n;
        } else {
            latin += isalpha((unsigned char)*p) != 0;
            p++;
        }
    }
    return han && han >= latin;
}
