/* Opening a file a person named (engine/file.h): a regular file is read whole within
 * its cap; a FIFO with no writer, a folder, a device and a socket are refused at once
 * with what they are, and nothing is left open. */
#include "check.h"
#include "engine/file.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char dir[256];

static int setup(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/at-file-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    DIR *d = opendir(dir);
    char path[600];
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            rmdir(path);
    }
    if (d)
        closedir(d);
    return rmdir(dir);
}

/* How many file descriptors this process has open. */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

static void test_regular_file(void **state)
{
    char p[300], *data;
    size_t len;
    at_error err;
    path_of(p, sizeof p, "a.yaml");
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("id: a\n", f);
    fclose(f);
    int before = open_fds();
    assert_int_equal(at_file_read(p, "a lesson file", 100, &data, &len, &err), AT_OK);
    assert_int_equal(len, 6);
    assert_string_equal(data, "id: a\n");
    free(data);
    /* Exactly the cap is allowed; one byte less is not. */
    assert_int_equal(at_file_read(p, "a lesson file", 6, &data, &len, &err), AT_OK);
    free(data);
    assert_int_equal(at_file_read(p, "a lesson file", 5, &data, &len, &err), AT_ERANGE);
    assert_null(data);
    assert_string_equal(err.msg, "is larger than 5 bytes, the limit for a lesson file");
    /* An empty file is read as empty. */
    path_of(p, sizeof p, "empty.yaml");
    fclose(fopen(p, "w"));
    assert_int_equal(at_file_read(p, "a lesson file", 5, &data, &len, &err), AT_OK);
    assert_int_equal(len, 0);
    assert_string_equal(data, "");
    free(data);
    path_of(p, sizeof p, "missing.yaml");
    assert_int_equal(at_file_read(p, "a lesson file", 5, &data, &len, &err), AT_EIO);
    assert_string_equal(err.msg, "cannot open: No such file or directory");
    assert_int_equal(open_fds(), before);
}

/* refused NAME KIND: every entry point refuses it with "is KIND, not a lesson file". */
static void refused(const char *p, const char *kind)
{
    char want[200], *data = (char *)"untouched";
    size_t len = 7;
    int fd = 7;
    at_error err;
    snprintf(want, sizeof want, "is %s, not a lesson file", kind);
    assert_int_equal(at_file_read(p, "a lesson file", 100, &data, &len, &err), AT_ENOTREG);
    assert_null(data);
    assert_int_equal(len, 0);
    assert_string_equal(err.msg, want);
    assert_int_equal(at_file_open(p, "a lesson file", &fd, &len, &err), AT_ENOTREG);
    assert_int_equal(fd, -1);
    assert_string_equal(err.msg, want);
    assert_null(at_file_fopen(p, "a lesson file", &err));
    assert_int_equal(err.code, AT_ENOTREG);
}

static void test_not_regular(void **state)
{
    char p[300];
    int before = open_fds();
    path_of(p, sizeof p, "fifo.yaml");
    assert_int_equal(mkfifo(p, 0600), 0);
    refused(p, "a FIFO (named pipe)");            /* no writer: open would block without O_NONBLOCK */
    path_of(p, sizeof p, "folder.yaml");
    assert_int_equal(mkdir(p, 0700), 0);
    refused(p, "a folder");
    refused("/dev/null", "a character device");
    refused("/dev/zero", "a character device");   /* would never end */
    path_of(p, sizeof p, "zero.yaml");            /* through a link */
    assert_int_equal(symlink("/dev/zero", p), 0);
    refused(p, "a character device");
    path_of(p, sizeof p, "sock.yaml");
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    assert_true(strlen(p) < sizeof a.sun_path);
    memcpy(a.sun_path, p, strlen(p) + 1);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(s >= 0);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    refused(p, "a socket");
    close(s);
    assert_int_equal(open_fds(), before);
}

static void test_kinds(void **state)
{
    assert_string_equal(at_file_kind(S_IFREG), "a regular file");
    assert_string_equal(at_file_kind(S_IFBLK), "a block device");
    assert_string_equal(at_file_kind(S_IFLNK), "a symbolic link");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_file),
        cmocka_unit_test(test_not_regular),
        cmocka_unit_test(test_kinds),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
