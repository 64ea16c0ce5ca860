/* Helpers shared by the libFuzzer targets and their replay driver (replay_main.c):
 * a NUL-terminated copy of the input, and a private temporary file for the readers
 * that take a path. */
#ifndef AT_FUZZ_UTIL_H
#define AT_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data[0 .. size) as a C string (caller frees); NULL when out of memory. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        if (size)
            memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

static char fuzz_dir_path[512];

/* Remove every file of dir (not recursive). */
static inline void fuzz_empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    if (d)
        closedir(d);
}

static inline void fuzz_remove_dir(void)
{
    fuzz_empty_dir(fuzz_dir_path);
    rmdir(fuzz_dir_path);
}

/* A folder of this process under $TMPDIR (made once, removed at exit). */
static inline const char *fuzz_dir(void)
{
    char *dir = fuzz_dir_path;
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof fuzz_dir_path, "%s/at-fuzz-XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(dir))
            abort();
        atexit(fuzz_remove_dir);
    }
    return dir;
}

/* Write data to dir/name, returning the path (a static buffer); aborts when the
 * file cannot be written (that is the harness failing, not the code under test). */
static inline const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
    static char path[640];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    return path;
}

#endif
