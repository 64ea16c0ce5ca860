/* Numerically stable softmax (subtract the row maximum). */
#include "engine/attention.h"

#include <math.h>

int at_softmax_row(float *x, const unsigned char *visible, size_t n)
{
    float max = -INFINITY;
    size_t n_visible = 0;
    for (size_t j = 0; j < n; j++) {
        if (visible && !visible[j])
            continue;
        n_visible++;
        if (x[j] > max)
            max = x[j];
    }
    if (n_visible == 0 || isnan(max) || max == -INFINITY) {
        /* No visible key, or every visible score is -inf: nothing to attend to. */
        for (size_t j = 0; j < n; j++)
            x[j] = 0.0f;
        return 1;
    }
    double sum = 0.0;
    for (size_t j = 0; j < n; j++) {
        if (visible && !visible[j]) {
            x[j] = 0.0f;
            continue;
        }
        /* max == +inf: the +inf entries share the mass, everything else is 0. */
        float e = isinf(max) ? (x[j] == max ? 1.0f : 0.0f) : expf(x[j] - max);
        if (isnan(e))
            e = 0.0f;
        x[j] = e;
        sum += e;
    }
    float inv = (float)(1.0 / sum);
    for (size_t j = 0; j < n; j++)
        x[j] *= inv;
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
