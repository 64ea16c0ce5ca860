/* libFuzzer target for GPT-2's tokenizer files and encoder (engine/hf/bpe.h): the input
 * is vocab.json, a NUL byte, merges.txt, a NUL byte, then a sentence. Bad files end in
 * an error naming the file; a loaded tokenizer encodes any sentence into pieces whose
 * spans cover it end to end, each id with a piece. */
#include "fuzz_util.h"
#include "engine/hf/bpe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *z1 = memchr(data, 0, size);
    const uint8_t *z2 = z1 ? memchr(z1 + 1, 0, size - (size_t)(z1 + 1 - data)) : NULL;
    if (!z2)
        return 0;
    char vpath[700], mpath[700];
    snprintf(vpath, sizeof vpath, "%s", fuzz_write_file("vocab.json", data, (size_t)(z1 - data)));
    snprintf(mpath, sizeof mpath, "%s", fuzz_write_file("merges.txt", z1 + 1, (size_t)(z2 - z1 - 1)));
    const char *s = (const char *)z2 + 1;
    size_t len = size - (size_t)(z2 + 1 - data);
    at_bpe *b = NULL;
    at_error err = {0};
    if (at_bpe_load(vpath, mpath, &b, &err) != AT_OK) {
        if (b || !err.msg[0])
            __builtin_trap();
        return 0;
    }
    int32_t *ids;
    size_t *start, *lens, n;
    if (at_bpe_encode(b, s, len, &ids, &start, &lens, &n, &err) == AT_OK) {
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            if (start[i] != at || !lens[i] || !at_bpe_piece(b, ids[i]))
                __builtin_trap();
            at += lens[i];
        }
        if (at != len)
            __builtin_trap();
        free(ids);
        free(start);
        free(lens);
    }
    at_bpe_free(b);
    return 0;
}
