/* libFuzzer target for the safetensors reader: the input is a file read by
 * at_st_read (and a few tensors copied out of it) and by at_model_load (the whole
 * model: config, vocabulary, every weight). Bad files end in an error, never a
 * crash, a leak or a read outside the file. */
#include "fuzz_util.h"
#include "engine/model.h"
#include "engine/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write_file("model.safetensors", data, size);
    at_safetensors st = {0};
    at_error err;
    if (at_st_read(path, &st, &err) == AT_OK) {
        float buf[64];
        (void)at_st_get_f32(&st, "embed", 8, 8, buf, &err);
        (void)at_st_get_f32(&st, "x", 64, 0, buf, &err);
        (void)at_st_meta(&st, "config");
        at_st_free(&st);
    }
    at_model *m = NULL;
    if (at_model_load(path, &m, &err) == AT_OK) {
        if (!m)
            __builtin_trap();
        at_model_info info;
        at_model_get_info(m, &info);
        at_model_free(m);
    } else if (m) {
        __builtin_trap();
    }
    return 0;
}
