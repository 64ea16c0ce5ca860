/* libFuzzer target for BERT's vocab.txt and tokenizer (engine/hf/wordpiece.h): the input
 * is vocab.txt, a NUL byte, then a sentence (tokenized lower-cased and cased). Bad files
 * end in an error; a loaded vocabulary tokenizes any sentence into [CLS] … [SEP], every
 * id with a piece, spans inside the sentence and in order. */
#include "fuzz_util.h"
#include "engine/hf/wordpiece.h"

static void run(const char *vpath, const char *s, size_t len, int lower)
{
    at_wordpiece *w = NULL;
    at_error err = {0};
    if (at_wordpiece_load(vpath, lower, &w, &err) != AT_OK) {
        if (w || !err.msg[0])
            __builtin_trap();
        return;
    }
    int32_t *ids;
    size_t *start, *lens, n;
    if (at_wordpiece_encode(w, s, len, &ids, &start, &lens, &n, &err) == AT_OK) {
        if (n < 2 || ids[0] != at_wordpiece_id(w, "[CLS]") || ids[n - 1] != at_wordpiece_id(w, "[SEP]"))
            __builtin_trap();
        for (size_t i = 0; i < n; i++)
            if (!at_wordpiece_piece(w, ids[i]) || start[i] + lens[i] > len ||
                (i && start[i] < start[i - 1] + lens[i - 1]))
                __builtin_trap();
        free(ids);
        free(start);
        free(lens);
    }
    at_wordpiece_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *z = memchr(data, 0, size);
    if (!z)
        return 0;
    char vpath[700];
    snprintf(vpath, sizeof vpath, "%s", fuzz_write_file("vocab.txt", data, (size_t)(z - data)));
    const char *s = (const char *)z + 1;
    size_t len = size - (size_t)(z + 1 - data);
    run(vpath, s, len, 1);
    run(vpath, s, len, 0);
    return 0;
}
