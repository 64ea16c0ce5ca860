/* Operations the checkpoints share (see hf_impl.h). */
#include "engine/hf/hf_impl.h"
#include "engine/kernels.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hf_layernorm(size_t n, size_t d, const float *x, const float *g, const float *b,
                  double eps, float *out)
{
    for (size_t i = 0; i < n; i++) {
        const float *x_i = x + i * d;
        float *o_i = out + i * d;
        double mean = 0, var = 0;
        for (size_t j = 0; j < d; j++)
            mean += x_i[j];
        mean /= (double)d;
        for (size_t j = 0; j < d; j++)
            var += ((double)x_i[j] - mean) * ((double)x_i[j] - mean);
        var /= (double)d;
        double rstd = 1.0 / sqrt(var + eps);
        for (size_t j = 0; j < d; j++)
            o_i[j] = (float)(((double)x_i[j] - mean) * rstd) * g[j] + b[j];
    }
}

/* Below this many rows a product is done row by row (sgemv): sgemm would first pack the
 * whole weight matrix, which for one or two rows (a keystroke with the key/value cache)
 * costs more than the product itself. */
#define GEMV_ROWS 4
/* Below this many rows a product runs on one BLAS thread. A sentence in the lab is a
 * few dozen tokens; the forward pass alternates short products with layer norms,
 * attention and GELU, while OpenBLAS's second thread waits spinning for the next
 * product. Measured on GPT-2 small's shapes, 41 tokens, every layer, on 2 cores shared
 * with other programs (load average 2.6): 112 ms on one thread, 166 ms on two (Haswell
 * core); 78 ms and 146 ms (SkylakeX). Longer inputs keep the engine's choice. */
#define ONE_THREAD_ROWS 64

void hf_linear(size_t n, size_t d_in, size_t d_out, const float *x, const float *W,
               int trans_w, const float *b, float *out)
{
    if (n <= GEMV_ROWS) {
        at_blas_use_threads(1);
        for (size_t i = 0; i < n; i++)   /* out_i = W^T x_i, or W x_i for [out × in] */
            cblas_sgemv(CblasRowMajor, trans_w ? CblasNoTrans : CblasTrans,
                        (int)(trans_w ? d_out : d_in), (int)(trans_w ? d_in : d_out), 1.0f, W,
                        (int)(trans_w ? d_in : d_out), x + i * d_in, 1, 0.0f, out + i * d_out, 1);
    } else {
        at_matmul_ex(n, d_out, d_in, 1.0f, x, d_in, W, trans_w ? d_in : d_out, trans_w, out,
                     d_out, 0, n < ONE_THREAD_ROWS ? 1 : 0);
    }
    if (b)
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < d_out; j++)
                out[i * d_out + j] += b[j];
}

void hf_activate(at_hf_act act, size_t len, float *x)
{
    switch (act) {
    case AT_HF_GELU_TANH:
        hf_gelu_tanh(len, x);
        break;
    case AT_HF_GELU_ERF:
        for (size_t i = 0; i < len; i++)
            x[i] = (float)(0.5 * x[i] * (1.0 + erf(x[i] * 0.70710678118654752440)));
        break;
    case AT_HF_RELU:
        for (size_t i = 0; i < len; i++)
            x[i] = x[i] > 0 ? x[i] : 0;
        break;
    }
}

int hf_run_alloc(const at_hf_model *m, size_t n, at_model_run *run, at_error *err)
{
    const size_t L = m->cfg.n_layers, H = m->cfg.n_heads;
    memset(run, 0, sizeof *run);
    run->n = n;
    run->n_layers = L;
    run->n_heads = calloc(L, sizeof *run->n_heads);
    run->weights = calloc(L, sizeof *run->weights);
    run->scores = calloc(L, sizeof *run->scores);
    run->scaled = calloc(L, sizeof *run->scaled);
    run->fully_masked = calloc(n, 1);
    run->unknown = calloc(n, 1);
    int bad = !run->n_heads || !run->weights || !run->scores || !run->scaled ||
              !run->fully_masked || !run->unknown;
    for (size_t l = 0; !bad && l < L; l++) {
        run->n_heads[l] = H;
        bad = !(run->weights[l] = calloc(H * n * n, sizeof(float))) ||
              !(run->scores[l] = calloc(H * n * n, sizeof(float))) ||
              !(run->scaled[l] = calloc(H * n * n, sizeof(float)));
    }
    if (bad) {
        at_model_run_free(run);
        return at_error_set(err, AT_ENOMEM, "out of memory for the attention of %zu tokens", n);
    }
    return AT_OK;
}
