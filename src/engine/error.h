/* Errors returned by every module of attn-tutor.
 *
 * Functions that can fail return an int status (AT_OK or a negative AT_E* code)
 * and, when the caller passes a non-NULL at_error, fill it with a message a
 * person can act on. The struct is caller-owned; nothing in it needs freeing. */
#ifndef AT_ERROR_H
#define AT_ERROR_H

#include <stddef.h>

enum {
    AT_OK = 0,
    AT_EINVAL = -1,   /* bad argument or input (shape, range, syntax) */
    AT_ENOMEM = -2,   /* allocation failed */
    AT_EIO = -3,      /* file could not be read or written */
    AT_EUTF8 = -4,    /* invalid or truncated UTF-8; offset says where */
    AT_ERANGE = -5,   /* input over a documented limit */
    AT_ENOTREG = -6,  /* a file was expected: a folder, FIFO, device or socket was given */
};

typedef struct at_error {
    int code;         /* the AT_E* code returned alongside */
    long offset;      /* byte offset into the input, or -1 */
    int line, col;    /* 1-based position in a file, or 0 */
    char msg[512];    /* one line, no trailing newline */
} at_error;

/* Clear err (NULL-safe). */
void at_error_clear(at_error *err);

/* Fill err (NULL-safe) with code and a printf-style message; returns code so that
 * callers can write `return at_error_set(err, AT_EINVAL, "…", …);`. */
int at_error_set(at_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
