/* OpenCC and Snowball's libstemmer, loaded when the grader first needs them.
 *
 * Only the text grader uses them, and loading them with the program (OpenCC brings
 * libstdc++ and marisa) cost every start of every command some 6 ms of CPU (measured
 * on 2 cores: a program linked with the project's libraries starts in 15–20 ms without
 * them, 24–25 ms with them). They are opened with dlopen by their sonames, taken from
 * the libraries the build found (Makefile: AT_OPENCC_SONAME, AT_STEMMER_SONAME). */
#ifndef AT_QUIZ_TEXTLIBS_H
#define AT_QUIZ_TEXTLIBS_H

#include <stddef.h>

#include "engine/error.h"

/* The functions the grader calls, with the libraries' own signatures (opencc.h,
 * libstemmer.h); opencc_t and struct sb_stemmer * are kept as void *. */
typedef struct qz_textlibs {
    void *(*opencc_open)(const char *config);                      /* (void *)-1 on error */
    int (*opencc_close)(void *od);
    char *(*opencc_convert_utf8)(void *od, const char *s, size_t n);
    void (*opencc_convert_utf8_free)(char *s);
    void *(*sb_stemmer_new)(const char *algorithm, const char *encoding);
    void (*sb_stemmer_delete)(void *st);
    const unsigned char *(*sb_stemmer_stem)(void *st, const unsigned char *word, int size);
    int (*sb_stemmer_length)(void *st);
    int has_opencc;   /* OpenCC was found: the opencc_* members are set */
} qz_textlibs;

/* The libraries, loaded on the first call (process state, kept to the end; not
 * thread-safe on that first call). The stemmer is required: NULL with err set
 * (AT_EINVAL, naming the library and dlopen's reason) when it cannot be loaded.
 * OpenCC is optional (has_opencc 0 without it: Traditional Chinese is then read
 * as it is written). */
const qz_textlibs *qz_textlibs_get(at_error *err);

#endif
