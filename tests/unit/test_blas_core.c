/* The OpenBLAS core table, this CPU's level against /proc/cpuinfo, and the
 * self-check of the core in use. */
#include "check.h"
#include "engine/blas_core.h"
#include "engine/kernels.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_selfcheck_passes(void **state)
{
    at_error err;
    at_error_clear(&err);
    int rc = at_blas_selfcheck(NULL, &err);
    if (rc != AT_OK)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, AT_OK);
    /* a core other than the one running is not made wrong */
    assert_int_equal(at_blas_selfcheck("no-such-core", &err), AT_OK);
}

static void test_selfcheck_reports_a_wrong_product(void **state)
{
    at_error err;
    at_error_clear(&err);
    assert_int_equal(at_blas_selfcheck(at_blas_core_name(), &err), AT_EINVAL);
    assert_non_null(strstr(err.msg, at_blas_core_name()));
    assert_non_null(strstr(err.msg, "expected"));
}

static void test_core_levels(void **state)
{
    assert_int_equal(at_blas_core_isa("SkylakeX"), AT_ISA_AVX512);
    assert_int_equal(at_blas_core_isa("cooperlake"), AT_ISA_AVX512);   /* no case */
    assert_int_equal(at_blas_core_isa("Haswell"), AT_ISA_AVX2);
    assert_int_equal(at_blas_core_isa("Zen"), AT_ISA_AVX2);
    assert_int_equal(at_blas_core_isa("Sandybridge"), AT_ISA_AVX);
    assert_int_equal(at_blas_core_isa("Prescott"), AT_ISA_BASE);
    assert_int_equal(at_blas_core_isa("bogus"), AT_ISA_BASE);
    assert_int_equal(at_blas_core_isa(NULL), AT_ISA_BASE);
    assert_string_equal(at_blas_core_for_isa(AT_ISA_AVX512), "SkylakeX");
    assert_string_equal(at_blas_core_for_isa(AT_ISA_AVX2), "Haswell");
    assert_null(at_blas_core_for_isa(AT_ISA_AVX));
    assert_null(at_blas_core_for_isa(AT_ISA_BASE));
    assert_int_equal(at_blas_core_isa(AT_BLAS_SAFE_CORE), AT_ISA_BASE);
}

/* 1 if the flags line of /proc/cpuinfo lists `flag`; -1 without the file. */
static int cpuinfo_has(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int found = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            found = 0;
            for (char *t = strtok(strchr(line, ':') + 1, " \n"); t; t = strtok(NULL, " \n"))
                if (!strcmp(t, flag))
                    found = 1;
            break;
        }
    fclose(f);
    return found;
}

static void test_cpu_level_matches_cpuinfo(void **state)
{
#if defined(__x86_64__)
    if (cpuinfo_has("fpu") < 0)
        skip();
    at_isa want = AT_ISA_BASE;
    if (cpuinfo_has("avx512f") == 1 && cpuinfo_has("avx512bw") == 1 &&
        cpuinfo_has("avx512vl") == 1 && cpuinfo_has("avx512dq") == 1)
        want = AT_ISA_AVX512;
    else if (cpuinfo_has("avx2") == 1 && cpuinfo_has("fma") == 1)
        want = AT_ISA_AVX2;
    else if (cpuinfo_has("avx") == 1)
        want = AT_ISA_AVX;
    print_message("# this CPU: %s\n", at_isa_name(at_cpu_isa()));
    assert_int_equal(at_cpu_isa(), want);
#else
    assert_int_equal(at_cpu_isa(), AT_ISA_BASE);
#endif
}

/* The thread threshold follows the core in use: 128³ multiply-adds on Haswell's,
 * scaled by the speed of one thread of the running core. */
static void test_thread_threshold_follows_the_core(void **state)
{
    assert_true(at_blas_work_scale(AT_ISA_AVX512) == 2.0);
    assert_true(at_blas_work_scale(AT_ISA_AVX2) == 1.0);
    assert_true(at_blas_work_scale(AT_ISA_AVX) == 0.5);
    assert_true(at_blas_work_scale(AT_ISA_BASE) == 0.25);
    const size_t haswell = (size_t)128 * 128 * 128;
    const size_t here = (size_t)((double)haswell *
                                 at_blas_work_scale(at_blas_core_isa(at_blas_core_name())));
    print_message("# core %s: a second thread from %zu multiply-adds\n", at_blas_core_name(), here);
    assert_int_equal(at_blas_scaled_work(haswell), here);
    at_blas_set_max_threads(2);
    const size_t k_at = here / (64 * 64);   /* 64 × 64 × k reaches the threshold at k_at */
    assert_int_equal(at_blas_threads(64, 64, k_at - 1), 1);
    assert_int_equal(at_blas_threads(64, 64, k_at), 2);
    assert_int_equal(at_blas_threads(8, 4096, 4096), 1);   /* a thin product: never */
    at_blas_set_max_threads(0);
}

/* OpenBLAS's thread count when the test started (OPENBLAS_NUM_THREADS removed, 2). */
static int threads_at_start;

/* The self-check runs on one BLAS thread; the engine's default maximum is still the
 * count OpenBLAS had before (it was 1 for the rest of the program when the self-check
 * ran before anything asked for the maximum). Runs first. */
static void test_selfcheck_keeps_the_thread_default(void **state)
{
    at_error err;
    assert_int_equal(at_blas_selfcheck(NULL, &err), AT_OK);
    assert_int_equal(at_blas_max_threads(), threads_at_start);
    assert_int_equal(at_blas_max_threads(), 2);
}

int main(void)
{
    unsetenv("OPENBLAS_NUM_THREADS");   /* the default: OpenBLAS's own count, set to 2 */
    openblas_set_num_threads(2);
    threads_at_start = openblas_get_num_threads();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selfcheck_keeps_the_thread_default),
        cmocka_unit_test(test_selfcheck_passes),
        cmocka_unit_test(test_selfcheck_reports_a_wrong_product),
        cmocka_unit_test(test_core_levels),
        cmocka_unit_test(test_cpu_level_matches_cpuinfo),
        cmocka_unit_test(test_thread_threshold_follows_the_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
