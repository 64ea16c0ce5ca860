/* Replays files through a fuzz target's LLVMFuzzerTestOneInput without libFuzzer, so
 * `make test` runs the seed and regression corpora through the ASan+UBSan build:
 *   replay_<target> FILE...   (prints one TAP line per file) */
#include "fuzz_util.h"

static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    /* libFuzzer hands the target a buffer of exactly the input's size. */
    uint8_t *exact = malloc(n ? n : 1);
    if (exact && n)
        memcpy(exact, buf, n);
    free(buf);
    if (!exact)
        return -1;
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        fflush(stdout);
        if (replay(argv[i]) == 0) {
            printf("ok %d - %s\n", i, argv[i]);
        } else {
            printf("not ok %d - %s: cannot read\n", i, argv[i]);
            bad = 1;
        }
    }
    return bad;
}
