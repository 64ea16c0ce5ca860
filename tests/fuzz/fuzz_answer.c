/* libFuzzer target for the numeric answer parser (qz_parse_numbers, qz_eval). The
 * first byte picks how many values the question wants and the language; the rest is
 * the student's answer. */
#include "fuzz_util.h"
#include "quiz/answer.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    size_t want = data[0] & 7;
    qz_lang lang = (data[0] & 8) ? QZ_ZH : QZ_EN;
    char *text = fuzz_cstr(data + 1, size - 1);
    if (!text)
        return 0;
    qz_numbers nums;
    at_error err;
    if (qz_parse_numbers(text, want, lang, &nums, &err) == AT_OK) {
        if (nums.n > QZ_MAX_VALUES || nums.labelled > nums.n)
            __builtin_trap();
        for (size_t i = 0; i < nums.n; i++)
            if (nums.v[i].offset < 0 || (size_t)nums.v[i].offset > size - 1 ||
                !memchr(nums.v[i].label, '\0', QZ_LABEL_MAX))
                __builtin_trap();
    } else if (err.offset < -1 || (err.offset >= 0 && (size_t)err.offset > size - 1) ||
               !memchr(err.msg, '\0', sizeof err.msg)) {
        __builtin_trap();                     /* the error points into the answer (or -1) */
    }
    double x;
    (void)qz_eval(text, lang, &x, &err);
    free(text);
    return 0;
}
