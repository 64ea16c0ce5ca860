/* Vector kernels of the softmax (engine-internal): row maximum, shifted exp
 * with its sum, scaling, a finiteness check. SLEEF's 1-ULP expf (Sleef_expf8_u10avx2 where the CPU
 * has AVX2 and FMA, chosen at run time; Sleef_expf4_u10 on plain SSE2), so every
 * result is within 2 ULP (about 2.4e-7 relative) of glibc's expf.
 * None of this is compiled with fast-math: NaN and ±inf behave as IEEE says. */
#ifndef AT_VEXP_H
#define AT_VEXP_H

#include <stddef.h>

/* The largest of x[0..n), NaN entries ignored; -INFINITY if there is none. */
float at_vmax(const float *x, size_t n);

/* x[j] = exp(x[j] - shift) in place; returns the sum of the results (in double).
 * -inf - shift gives exactly 0; a NaN stays NaN (and makes the sum NaN). */
double at_vexp_shift(float *x, size_t n, float shift);

/* x[j] *= s. */
void at_vscale(float *x, size_t n, float s);

/* Softmax of a row of n ≤ 8 scores, all visible, in registers (AVX2 only: check
 * at_vhave_avx2 first). Returns 0 when done; 1, with x untouched, when the row
 * holds a NaN or its maximum is ±inf (the caller's general path handles those). */
int at_vsoftmax8_avx2(float *x, size_t n);

/* 1 if this CPU runs the *_avx2 kernels (AVX2 and FMA). */
int at_vhave_avx2(void);

/* 1 if every entry of the [rows × cols] matrix x (row stride ld) is finite. */
int at_vall_finite(const float *x, size_t rows, size_t cols, size_t ld);

/* The SSE2 versions (any x86-64), used where the CPU lacks AVX2 or FMA. */
float at_vmax_sse2(const float *x, size_t n);
double at_vexp_shift_sse2(float *x, size_t n, float shift);

/* The AVX2+FMA versions (vexp_avx2.c); call only where the CPU supports them. */
float at_vmax_avx2(const float *x, size_t n);
double at_vexp_shift_avx2(float *x, size_t n, float shift);
void at_vscale_avx2(float *x, size_t n, float s);
int at_vall_finite_avx2(const float *x, size_t rows, size_t cols, size_t ld);

#endif
