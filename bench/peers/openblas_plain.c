/* A plain OpenBLAS user's attention (see peers.h): two sgemm calls per head and the
 * softmax as anyone writes it first. */
#include "peers.h"

#include <cblas.h>
#include <math.h>

void openblas_plain_attention(size_t heads, size_t n, size_t d, float scale, const float *q,
                              const float *k, const float *v, float *out, float *scores)
{
    const int N = (int)n, D = (int)d;
    for (size_t h = 0; h < heads; h++) {
        const float *q_h = q + h * n * d, *k_h = k + h * n * d, *v_h = v + h * n * d;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, N, N, D, scale, q_h, D, k_h, D,
                    0.0f, scores, N);
        for (size_t i = 0; i < n; i++) {
            float *row = scores + i * n, max = row[0], sum = 0.0f;
            for (size_t j = 1; j < n; j++)
                max = row[j] > max ? row[j] : max;
            for (size_t j = 0; j < n; j++) {
                row[j] = expf(row[j] - max);
                sum += row[j];
            }
            for (size_t j = 0; j < n; j++)
                row[j] /= sum;
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, D, N, 1.0f, scores, N, v_h, D,
                    0.0f, out + h * n * d, D);
    }
}
