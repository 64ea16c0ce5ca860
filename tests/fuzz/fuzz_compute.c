/* libFuzzer target for the `attn-tutor compute` file reader: any bytes end in a block
 * the engine computes, or in diagnostics; never a crash, a leak or undefined
 * behaviour. The input goes through a file, as the command reads it. */
#include "fuzz_util.h"
#include "lesson/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("compute.yaml", data, size);
    at_compute_file *f = NULL;
    at_diag_list d = {0};
    if (at_compute_file_load(path, &f, &d) == AT_OK) {
        if (!f || d.errors)
            __builtin_trap();                 /* success gives a block, without errors */
        at_compute_result r;
        at_error err;
        if (at_compute_run(at_compute_file_block(f), &r, &err) == AT_OK)
            at_compute_result_free(&r);
    } else if (f) {
        __builtin_trap();                     /* failure gives nothing to free */
    }
    at_compute_file_free(f);
    at_diag_list_free(&d);
    return 0;
}
