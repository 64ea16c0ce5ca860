/* Opening a file a person named (a lesson, a compute file, a model, the progress file)
 * without being caught by what it turns out to be. A FIFO blocks on open until a writer
 * comes and on read until it writes; /dev/zero never ends; a socket cannot be opened; a
 * folder opens but cannot be read as a file. Every such thing is refused here with a
 * message saying what it is, before anything blocks: the file is opened with
 * O_RDONLY | O_NONBLOCK | O_CLOEXEC, checked with fstat, and only a regular file is
 * accepted (then O_NONBLOCK is cleared).
 *
 * Messages do not repeat the path: the caller puts it in front ("x.yaml: is a FIFO
 * (named pipe), not a lesson file"). `what` names what was expected, with its article
 * ("a lesson file", "a model file (.safetensors)"). */
#ifndef AT_FILE_H
#define AT_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/error.h"

/* What a st_mode is, for messages: "a folder", "a FIFO (named pipe)", "a character
 * device", "a block device", "a socket", "a regular file", "a symbolic link"; a static
 * string. */
const char *at_file_kind(unsigned mode);

/* Open path for reading as described above. Returns AT_OK with *fd (the caller closes
 * it; blocking reads) and *size (bytes, from fstat); AT_ENOTREG when path is not a
 * regular file (err: "is a folder, not WHAT"); AT_EIO when it cannot be opened (err:
 * "cannot open: No such file or directory"). */
int at_file_open(const char *path, const char *what, int *fd, size_t *size, at_error *err);

/* at_file_open, then a stdio stream on it ("r"). NULL with err set (codes as above,
 * AT_ENOMEM). The caller fcloses it. */
FILE *at_file_fopen(const char *path, const char *what, at_error *err);

/* Read a whole regular file: *data (caller frees; a NUL follows the *len bytes).
 * More than cap bytes is AT_ERANGE ("is larger than CAP bytes, the limit for WHAT");
 * the file is never read past cap + 1 bytes, whatever its size says. Other errors as
 * at_file_open, AT_EIO when a read fails, AT_ENOMEM. */
int at_file_read(const char *path, const char *what, size_t cap, char **data, size_t *len,
                 at_error *err);

/* "dir/name", allocated (the caller frees it); NULL when out of memory. */
char *at_path_join(const char *dir, const char *name);

#endif
