/* Forward/backward pairs of the mini-model's operations (see model_ops.h). */
#include "engine/model_ops.h"

#include <cblas.h>
#include <math.h>
#include <string.h>

void at_gemm(int ta, int tb, size_t m, size_t n, size_t k, const float *A, size_t lda,
             const float *B, size_t ldb, float beta, float *C, size_t ldc)
{
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                (int)m, (int)n, (int)k, 1.0f, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
}

void at_layernorm_forward(size_t n, size_t d, const float *x, const float *g, const float *b,
                          float *out, float *mean, float *rstd)
{
    for (size_t i = 0; i < n; i++) {
        const float *x_i = x + i * d;
        float *out_i = out + i * d;
        float m = 0.0f, v = 0.0f;
        for (size_t j = 0; j < d; j++)
            m += x_i[j];
        m /= (float)d;
        for (size_t j = 0; j < d; j++)
            v += (x_i[j] - m) * (x_i[j] - m);
        v /= (float)d;
        float s = 1.0f / sqrtf(v + 1e-5f);
        for (size_t j = 0; j < d; j++)
            out_i[j] = (x_i[j] - m) * s * g[j] + b[j];
        mean[i] = m;
        rstd[i] = s;
    }
}

void at_layernorm_backward(size_t n, size_t d, const float *x, const float *g,
                           const float *mean, const float *rstd, const float *dout,
                           float *dx, float *dg, float *db)
{
    for (size_t i = 0; i < n; i++) {
        const float *x_i = x + i * d, *dout_i = dout + i * d;
        float *dx_i = dx + i * d;
        float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
        for (size_t j = 0; j < d; j++) {
            float norm = (x_i[j] - mean[i]) * rstd[i];
            float dnorm = g[j] * dout_i[j];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean /= (float)d;
        dnorm_norm_mean /= (float)d;
        for (size_t j = 0; j < d; j++) {
            float norm = (x_i[j] - mean[i]) * rstd[i];
            float dnorm = g[j] * dout_i[j];
            db[j] += dout_i[j];
            dg[j] += norm * dout_i[j];
            dx_i[j] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd[i];
        }
    }
}

void at_linear_forward(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
                       const float *b, float *out)
{
    at_gemm(0, 0, n, d_out, d_in, x, d_in, W, d_out, 0.0f, out, d_out);
    if (b)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d_out; j++)
                out[i * d_out + j] += b[j];
}

void at_linear_backward(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
                        const float *dout, float *dx, float *dW, float *db)
{
    if (dx)
        at_gemm(0, 1, n, d_in, d_out, dout, d_out, W, d_out, 1.0f, dx, d_in);
    at_gemm(1, 0, d_in, d_out, n, x, d_in, dout, d_out, 1.0f, dW, d_out);
    if (db)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d_out; j++)
                db[j] += dout[i * d_out + j];
}

#define GELU_C 0.7978845608f /* √(2/π) */

void at_gelu_forward(size_t len, const float *x, float *out)
{
    for (size_t i = 0; i < len; i++) {
        float u = GELU_C * (x[i] + 0.044715f * x[i] * x[i] * x[i]);
        out[i] = 0.5f * x[i] * (1.0f + tanhf(u));
    }
}

void at_gelu_backward(size_t len, const float *x, const float *dout, float *dx)
{
    for (size_t i = 0; i < len; i++) {
        float u = GELU_C * (x[i] + 0.044715f * x[i] * x[i] * x[i]);
        float t = tanhf(u);
        float du = GELU_C * (1.0f + 3.0f * 0.044715f * x[i] * x[i]);
        dx[i] += dout[i] * (0.5f * (1.0f + t) + 0.5f * x[i] * (1.0f - t * t) * du);
    }
}

void at_attention_backward(size_t n, size_t d, size_t H, float scale, const float *q,
                           const float *k, const float *v, const float *weights,
                           const float *dheads, const float *dweights, float *dq, float *dk,
                           float *dv, float *scratch)
{
    const size_t dh = d / H;
    float *dP = scratch, *dS = scratch + n * n;
    for (size_t h = 0; h < H; h++) {
        const float *P = weights + h * n * n;
        const float *dO_h = dheads + h * dh;
        const float *q_h = q + h * dh, *k_h = k + h * dh, *v_h = v + h * dh;
        /* out = P·V: dV += Pᵀ·dO, dP = dO·Vᵀ */
        at_gemm(1, 0, n, dh, n, P, n, dO_h, d, 1.0f, dv + h * dh, d);
        at_gemm(0, 1, n, n, dh, dO_h, d, v_h, d, 0.0f, dP, n);
        if (dweights)
            for (size_t i = 0; i < n * n; i++)
                dP[i] += dweights[h * n * n + i];
        /* softmax: dS_ij = P_ij (dP_ij − Σ_j' P_ij' dP_ij'), then the scale */
        for (size_t i = 0; i < n; i++) {
            const float *P_i = P + i * n, *dP_i = dP + i * n;
            float *dS_i = dS + i * n;
            float dot = 0.0f;
            for (size_t j = 0; j < n; j++)
                dot += P_i[j] * dP_i[j];
            for (size_t j = 0; j < n; j++)
                dS_i[j] = P_i[j] * (dP_i[j] - dot) * scale;
        }
        /* S = Q·Kᵀ: dQ += dS·K, dK += dSᵀ·Q */
        at_gemm(0, 0, n, dh, n, dS, n, k_h, d, 1.0f, dq + h * dh, d);
        at_gemm(1, 0, n, dh, n, dS, n, q_h, d, 1.0f, dk + h * dh, d);
    }
}

float at_set_xent_forward(size_t V, const float *logits, const long *S, size_t n_S, float *probs)
{
    float max = -INFINITY, sum = 0.0f;
    for (size_t j = 0; j < V; j++)
        if (logits[j] > max)
            max = logits[j];
    for (size_t j = 0; j < V; j++) {
        probs[j] = expf(logits[j] - max);
        sum += probs[j];
    }
    float p_S = 0.0f;
    for (size_t j = 0; j < V; j++)
        probs[j] /= sum;
    for (size_t s = 0; s < n_S; s++)
        p_S += probs[S[s]];
    return -logf(p_S > 1e-30f ? p_S : 1e-30f);
}

void at_set_xent_backward(size_t V, const float *probs, const long *S, size_t n_S, float scale,
                          float *dlogits)
{
    float p_S = 0.0f;
    for (size_t s = 0; s < n_S; s++)
        p_S += probs[S[s]];
    if (p_S < 1e-30f)
        p_S = 1e-30f;
    for (size_t j = 0; j < V; j++)
        dlogits[j] += probs[j] * scale;
    for (size_t s = 0; s < n_S; s++)
        dlogits[S[s]] -= probs[S[s]] / p_S * scale;
}
