/* Opening a file a person named, refusing what is not a regular file (see file.h). */
#define _GNU_SOURCE
#include "engine/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *at_file_kind(unsigned mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}

static int not_regular(unsigned mode, const char *what, at_error *err)
{
    return at_error_set(err, AT_ENOTREG, "is %s, not %s", at_file_kind(mode), what);
}

int at_file_open(const char *path, const char *what, int *fd, size_t *size, at_error *err)
{
    struct stat st;
    *fd = -1;
    *size = 0;
    /* Look first, so that a device is not even opened (opening one can act: a tape
     * rewinds, a terminal becomes ours), and a socket (which open refuses with "No
     * such device or address") is named as one. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return not_regular(st.st_mode, what, err);
    /* Then open without blocking and look again at what was opened: the name may have
     * been replaced by a FIFO in between. */
    int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f < 0)
        return at_error_set(err, AT_EIO, "cannot open: %s", strerror(errno));
    int flags;
    if (fstat(f, &st) != 0) {
        int e = errno;
        close(f);
        return at_error_set(err, AT_EIO, "cannot read: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(f);
        return not_regular(st.st_mode, what, err);
    }
    if ((flags = fcntl(f, F_GETFL)) < 0 || fcntl(f, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        int e = errno;
        close(f);
        return at_error_set(err, AT_EIO, "cannot read: %s", strerror(e));
    }
    *fd = f;
    *size = st.st_size > 0 ? (size_t)st.st_size : 0;
    return AT_OK;
}

FILE *at_file_fopen(const char *path, const char *what, at_error *err)
{
    int fd;
    size_t size;
    if (at_file_open(path, what, &fd, &size, err) != AT_OK)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        at_error_set(err, AT_ENOMEM, "out of memory");
        close(fd);
    }
    return f;
}

int at_file_read(const char *path, const char *what, size_t cap, char **data, size_t *len,
                 at_error *err)
{
    int fd, rc = AT_OK;
    size_t size, n = 0;
    *data = NULL;
    *len = 0;
    if ((rc = at_file_open(path, what, &fd, &size, err)) != AT_OK)
        return rc;
    if (size > cap) {
        close(fd);
        return at_error_set(err, AT_ERANGE, "is larger than %zu bytes, the limit for %s", cap,
                            what);
    }
    /* Room for one byte more than fstat said, to see a file that grew past the cap. */
    size_t room = size + 1;
    char *buf = malloc(room + 1);
    for (;;) {
        if (!buf) {
            rc = at_error_set(err, AT_ENOMEM, "out of memory");
            goto out;
        }
        if (n == room) {
            if (room > cap)
                break;   /* cap + 1 bytes read: too large */
            room = room > cap / 2 ? cap + 1 : room * 2;
            char *grown = realloc(buf, room + 1);
            if (!grown)
                free(buf);
            buf = grown;
            continue;
        }
        ssize_t r = read(fd, buf + n, room - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = at_error_set(err, AT_EIO, "cannot read: %s", strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > cap) {
        rc = at_error_set(err, AT_ERANGE, "is larger than %zu bytes, the limit for %s", cap, what);
        goto out;
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    buf = NULL;
out:
    free(buf);
    close(fd);
    return rc;
}

char *at_path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}
