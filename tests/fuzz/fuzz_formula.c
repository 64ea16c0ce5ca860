/* libFuzzer target for the formula grader. The input up to the first newline is the
 * student's answer (a formula, maybe among words), compared with the canonical form of eq. 1; when a second line
 * follows it is also compared as a canonical form (a lesson's `formula`), against
 * the student's line and against itself. (A formula outside the grader's algebra,
 * such as Q/K, does not equal itself: that is by design, so it is not checked.) */
#include "fuzz_util.h"
#include "quiz/formula.h"

static const char canonical[] = "softmax(QK^T / sqrt(d_k)) V";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    if (!s)
        return 0;
    char *second = strchr(s, '\n');
    if (second)
        *second++ = '\0';
    unsigned m = 0;
    at_error err;
    qz_formula_diag d;
    int rc = qz_formula_diagnose(s, canonical, &d, &err);
    if (rc != AT_OK && rc != AT_EINVAL)
        __builtin_trap();                     /* the canonical form always reads */
    if (d.start > d.end || d.end > strlen(s) ||
        (rc == AT_OK && d.start == d.end && !(d.mistakes & QZ_F_NO_FORMULA)))
        __builtin_trap();                     /* a formula found lies inside the answer */
    if (rc == AT_OK && ((d.mistakes == 0) != (d.slips == 0 && !d.fatal) ||
                        (d.mistakes & QZ_F_FATAL && !d.fatal)))
        __builtin_trap();                     /* a verdict follows from the mistakes */
    m = d.mistakes;
    for (unsigned bit = 1; rc == AT_OK && m && bit <= QZ_F_OTHER; bit <<= 1)
        if ((m & bit) && !qz_formula_mistake_text(bit, QZ_ZH))
            __builtin_trap();
    if (second) {
        (void)qz_formula_compare(s, second, &m, &err);
        (void)qz_formula_compare(second, second, &m, &err);
    }
    free(s);
    return 0;
}
