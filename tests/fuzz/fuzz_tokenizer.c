/* libFuzzer target for the tokenizer: arbitrary bytes (not NUL-terminated) give
 * tokens whose spans lie inside the input, in order, or an error; never a read past
 * the input, a crash or a leak. */
#include "fuzz_util.h"
#include "engine/tokenizer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy, so ASan sees any read past the end. */
    char *s = size ? malloc(size) : NULL;
    if (size && !s)
        return 0;
    if (size)
        memcpy(s, data, size);
    at_tokens t = {0};
    at_error err;
    if (at_tokenize(s, size, &t, &err) == AT_OK) {
        size_t end = 0;
        for (size_t i = 0; i < t.n; i++) {
            const at_token *k = &t.items[i];
            if (k->start < end || k->len == 0 || k->start + k->len > size || k->width < 0 ||
                memcmp(k->text, s + k->start, k->len) != 0 || k->text[k->len] != '\0')
                __builtin_trap();
            end = k->start + k->len;
        }
    } else if (t.n || t.items) {
        __builtin_trap();                     /* an error leaves out empty */
    }
    at_tokens_free(&t);
    free(s);
    return 0;
}
