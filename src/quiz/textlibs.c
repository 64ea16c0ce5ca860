/* OpenCC and libstemmer opened on first use (see textlibs.h). */
#define _POSIX_C_SOURCE 200809L
#include "quiz/textlibs.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifndef AT_OPENCC_SONAME
#define AT_OPENCC_SONAME "libopencc.so.1.1"
#endif
#ifndef AT_STEMMER_SONAME
#define AT_STEMMER_SONAME "libstemmer.so.0d"
#endif

static qz_textlibs libs;
static int state;            /* 0: not tried, 1: loaded, -1: the stemmer failed */
static char why[300];        /* the failure, for every later call */

/* dlsym into *slot (a function pointer's storage); 0 when every name was found. */
static int take(void *lib, const char *const *names, void **const *slots, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *f = dlsym(lib, names[i]);
        if (!f)
            return -1;
        memcpy(slots[i], &f, sizeof f);
    }
    return 0;
}

static int load(void)
{
    void *sb = dlopen(AT_STEMMER_SONAME, RTLD_NOW | RTLD_LOCAL);
    const char *sb_names[] = {"sb_stemmer_new", "sb_stemmer_delete", "sb_stemmer_stem",
                              "sb_stemmer_length"};
    void **sb_slots[] = {(void **)&libs.sb_stemmer_new, (void **)&libs.sb_stemmer_delete,
                         (void **)&libs.sb_stemmer_stem, (void **)&libs.sb_stemmer_length};
    if (!sb || take(sb, sb_names, sb_slots, 4)) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "cannot load the English stemmer (%s): %s", AT_STEMMER_SONAME,
                 e ? e : "a function is missing");
        return -1;
    }
    void *cc = dlopen(AT_OPENCC_SONAME, RTLD_NOW | RTLD_LOCAL);
    const char *cc_names[] = {"opencc_open", "opencc_close", "opencc_convert_utf8",
                              "opencc_convert_utf8_free"};
    void **cc_slots[] = {(void **)&libs.opencc_open, (void **)&libs.opencc_close,
                         (void **)&libs.opencc_convert_utf8,
                         (void **)&libs.opencc_convert_utf8_free};
    libs.has_opencc = cc && take(cc, cc_names, cc_slots, 4) == 0;
    return 0;
}

const qz_textlibs *qz_textlibs_get(at_error *err)
{
    if (state == 0)
        state = load() == 0 ? 1 : -1;
    if (state < 0) {
        at_error_set(err, AT_EINVAL, "%s", why);
        return NULL;
    }
    return &libs;
}
