/* libFuzzer target for the safetensors reader: the input is a file read by
 * at_st_read (every tensor of it looked up and converted to float where its dtype
 * allows) and by at_model_load (the whole model: config, vocabulary, every weight).
 * Bad files end in an error, never a crash, a leak or a read outside the file: every
 * tensor the reader accepts must lie inside the mapped file (checked here, since a
 * read just past the end of a mapping stays inside its last page unnoticed). */
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
        for (size_t i = 0; i < st.n_tensors; i++) {
            const at_st_tensor *t = &st.tensors[i];
            size_t es = at_st_dtype_size(t->dtype_name);
            if (t->data < st.data || t->nbytes > st.size ||
                t->data + t->nbytes > st.file + st.size || t->nbytes != t->count * es ||
                at_st_find(&st, t->name) != t)
                __builtin_trap();
            if (t->dtype != AT_ST_OTHER && t->count <= 1 << 20) {
                float *f = malloc(t->count ? t->count * sizeof *f : 1);
                if (f && at_st_to_f32(t, f, &err) != AT_OK)
                    __builtin_trap();
                free(f);
            }
        }
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
