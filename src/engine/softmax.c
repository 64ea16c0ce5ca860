/* Numerically stable softmax (subtract the row maximum), with SLEEF's vector exp. */
#include "engine/attention.h"
#include "engine/vexp.h"

#include <math.h>

/* The row maximum is +inf: the +inf entries share the mass, everything else is 0. */
static void softmax_infinite_max(float *x, size_t n)
{
    size_t n_inf = 0;
    for (size_t j = 0; j < n; j++)
        n_inf += x[j] == INFINITY;
    for (size_t j = 0; j < n; j++)
        x[j] = x[j] == INFINITY ? 1.0f / (float)n_inf : 0.0f;
}

/* After the exp, a visible NaN score stays NaN: give it weight 0, return the new sum. */
static double drop_nan(float *x, size_t n)
{
    double sum = 0.0;
    for (size_t j = 0; j < n; j++) {
        if (isnan(x[j]))
            x[j] = 0.0f;
        sum += x[j];
    }
    return sum;
}

int at_softmax_row(float *x, const unsigned char *visible, size_t n)
{
    if (!visible && n > 0 && n <= 8 && at_vhave_avx2() && at_vsoftmax8_avx2(x, n) == 0)
        return 0;   /* a short row, in registers */
    size_t n_visible = n;
    if (visible) {
        /* Masked scores are overwritten, never read: exp(-inf) is exactly 0. */
        n_visible = 0;
        for (size_t j = 0; j < n; j++) {
            if (visible[j])
                n_visible++;
            else
                x[j] = -INFINITY;
        }
    }
    float max = n_visible ? at_vmax(x, n) : -INFINITY;   /* NaN ignored */
    if (max == -INFINITY) {
        /* No visible key, or every visible score is -inf or NaN: nothing to attend to. */
        for (size_t j = 0; j < n; j++)
            x[j] = 0.0f;
        return 1;
    }
    if (max == INFINITY) {
        softmax_infinite_max(x, n);
        return 0;
    }
    double sum = at_vexp_shift(x, n, max);   /* ≥ 1: the maximum gives exp(0) */
    if (isnan(sum))
        sum = drop_nan(x, n);
    at_vscale(x, n, (float)(1.0 / sum));
    return 0;
}

int at_softmax_row_f64(double *x, const unsigned char *visible, size_t n)
{
    double max = -INFINITY;
    size_t n_visible = 0;
    for (size_t j = 0; j < n; j++) {
        if (visible && !visible[j])
            continue;
        n_visible++;
        if (x[j] > max)
            max = x[j];
    }
    if (n_visible == 0 || isnan(max) || max == -INFINITY) {
        for (size_t j = 0; j < n; j++)
            x[j] = 0.0;
        return 1;
    }
    double sum = 0.0;
    for (size_t j = 0; j < n; j++) {
        if (visible && !visible[j]) {
            x[j] = 0.0;
            continue;
        }
        double e = isinf(max) ? (x[j] == max ? 1.0 : 0.0) : exp(x[j] - max);
        x[j] = isnan(e) ? 0.0 : e;
        sum += x[j];
    }
    for (size_t j = 0; j < n; j++)
        x[j] /= sum;
    return 0;
}
