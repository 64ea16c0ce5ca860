/* libFuzzer target for the progress-file reader: the input is progress.yaml in a
 * private folder; opening the store must load it or move it aside with a warning,
 * never crash or leak. The folder is emptied after each input. */
#include "fuzz_util.h"
#include "quiz/progress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file("progress.yaml", data, size);
    qz_store s;
    at_error err;
    if (qz_store_open(&s, fuzz_dir(), &err) != AT_OK)
        __builtin_trap();                     /* a folder is given: it always opens */
    const qz_progress *p = s.p;
    if (!p || (p->answers_count && !p->answers) || (p->lessons_count && !p->lessons))
        __builtin_trap();
    for (unsigned i = 0; i < p->answers_count; i++)
        if (!p->answers[i].id || qz_store_answer(&s, p->answers[i].id) == NULL)
            __builtin_trap();
    const char *due[8];
    (void)qz_store_due(&s, 0, due, 8);
    qz_store_close(&s);
    fuzz_empty_dir(fuzz_dir());
    return 0;
}
