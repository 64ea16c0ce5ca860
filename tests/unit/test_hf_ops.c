/* Operations of the real checkpoints (engine/hf/hf_impl.h): GPT-2's GELU on vectors
 * against the formula in double precision, over lengths that leave tails of every size. */
#include "check.h"
#include "engine/hf/hf_impl.h"
#include "engine/vexp.h"

#include <math.h>
#include <stdlib.h>

static float gelu_ref(float x)
{
    double u = 0.7978845608028654 * ((double)x + 0.044715 * (double)x * x * x);
    return (float)(0.5 * x * (1.0 + tanh(u)));
}

/* x from -12 to 12 (both tails, where tanh saturates, and around 0) */
static void check_gelu(void (*gelu)(size_t, float *), const char *name)
{
    for (size_t len = 1; len <= 37; len += 3) {
        float *x = malloc(len * 64 * sizeof *x), *want = malloc(len * 64 * sizeof *want);
        size_t n = len * 64;
        for (size_t i = 0; i < n; i++) {
            x[i] = -12.0f + 24.0f * (float)i / (float)(n - 1);
            want[i] = gelu_ref(x[i]);
        }
        gelu(n, x);
        /* 1-ULP tanh and float arithmetic: a few 1e-7 of the value's size */
        for (size_t i = 0; i < n; i++)
            if (!(fabsf(x[i] - want[i]) <= 4e-7f * (1.0f + fabsf(want[i]))))
                fail_msg("%s: GELU(%g) = %.9g, expected %.9g", name,
                         (double)(-12.0f + 24.0f * (float)i / (float)(n - 1)), (double)x[i],
                         (double)want[i]);
        free(x);
        free(want);
    }
}

static void test_gelu_tanh(void **state)
{
    check_gelu(hf_gelu_tanh, "hf_gelu_tanh");
    check_gelu(hf_gelu_tanh_sse2, "hf_gelu_tanh_sse2");
    if (at_vhave_avx2())
        check_gelu(hf_gelu_tanh_avx2, "hf_gelu_tanh_avx2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_gelu_tanh)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
