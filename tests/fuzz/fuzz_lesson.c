/* libFuzzer target for the lesson loader (`make fuzz`): any bytes must end in a loaded
 * lesson or in diagnostics, never a crash, a leak or undefined behaviour. Each input
 * runs the whole path: libyaml node tree, position pass, libcyaml load, the lists of
 * lists, and the engine on every compute step and question. */
#include "fuzz_util.h"
#include "lesson/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    at_lesson *l = NULL;
    at_diag_list d = {0};
    if (at_lesson_load_data("fuzz.yaml", (const char *)data, size, &l, &d) == AT_OK && !l)
        __builtin_trap();                         /* success must give a lesson */
    if (l && d.errors)
        __builtin_trap();                         /* a lesson only without errors */
    at_lesson_free(l);
    at_diag_list_free(&d);
    return 0;
}
