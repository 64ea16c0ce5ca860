/* gettext set-up for the UI strings. */
#include "ui/i18n.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DOMAIN "attn-tutor"

static const char *lang_in_use = "en";

/* build/locale beside the executable (a checkout; one level up for the sanitizer
 * build), or ../share/locale (an install relocated with its prefix), else the
 * configured LOCALEDIR. */
static const char *locale_dir(char *buf, size_t size)
{
    char exe[4096];
    struct stat st;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, size, "%s/locale", exe);
            if (stat(buf, &st) == 0)
                return buf;
            snprintf(buf, size, "%s/../locale", exe);   /* build/asan/attn-tutor */
            if (stat(buf, &st) == 0)
                return buf;
            snprintf(buf, size, "%s/../share/locale", exe);
            if (stat(buf, &st) == 0)
                return buf;
        }
    }
    return AT_LOCALEDIR;
}

void ui_i18n_init(const char *lang)
{
    char buf[4200];
    lang_in_use = lang && !strcmp(lang, "zh") ? "zh" : "en";
    const char *msg = setlocale(LC_MESSAGES, NULL);
    if (!msg || !strcmp(msg, "C") || !strcmp(msg, "POSIX"))
        setlocale(LC_MESSAGES, "C.UTF-8");
    /* LANGUAGE outranks LC_MESSAGES in gettext; the CLI's --lang outranks both. */
    setenv("LANGUAGE", !strcmp(lang_in_use, "zh") ? "zh_CN:zh" : "en", 1);
    bindtextdomain(DOMAIN, locale_dir(buf, sizeof buf));
    bind_textdomain_codeset(DOMAIN, "UTF-8");
    textdomain(DOMAIN);
}

const char *ui_lang(void)
{
    return lang_in_use;
}
