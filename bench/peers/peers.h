/* Attention as a C programmer would write it with other tools, for bench_peers (not the
 * engine, not tests). Every peer computes out = softmax(q kᵀ · scale) v for each head,
 * no mask, in float, one thread.
 *   head-major layout: q, k, v, out [heads × n × d]           (oneDNN, plain OpenBLAS)
 *   row layout:        q, k, v, out [n × heads·d], head h in columns h·d … (h+1)·d − 1
 *                      (llm.c; also the engine's at_mha_attend) */
#ifndef AT_BENCH_PEERS_H
#define AT_BENCH_PEERS_H

#include <stddef.h>

/* oneDNN (dnnl_peer.c): a batched matmul over the heads (q · kᵀ with the scale as an
 * output scale), the softmax primitive on the last axis, a batched matmul with v;
 * primitives made once in dnnl_peer_new, run by dnnl_peer_run. Head-major layout; the
 * buffers are borrowed. Heads are batched so that the scores stay within 64 Mi floats
 * (n = 4096: one head at a time). Returns NULL with a message in err on failure. */
typedef struct dnnl_peer dnnl_peer;
dnnl_peer *dnnl_peer_new(size_t heads, size_t n, size_t d, float scale, const float *q,
                         const float *k, const float *v, float *out, char *err, size_t err_len);
void dnnl_peer_run(dnnl_peer *p);
/* The implementations oneDNN chose, e.g. "brg:avx512_core, jit:avx512_core, ...". */
const char *dnnl_peer_impl(const dnnl_peer *p);
void dnnl_peer_free(dnnl_peer *p);
/* "oneDNN 2.6.3 (cpu isa: ...)" */
const char *dnnl_peer_version(void);

/* A plain OpenBLAS user (openblas_plain.c): per head cblas_sgemm for q · kᵀ (scale as
 * alpha), a scalar softmax per row (max, expf, sum, divide), cblas_sgemm with v.
 * Head-major layout; scores [n × n] scratch. */
void openblas_plain_attention(size_t heads, size_t n, size_t d, float scale, const float *q,
                              const float *k, const float *v, float *out, float *scores);

/* llm.c's attention_forward loop (llmc_loop.c, built with -Ofast -march=native as llm.c
 * builds), without the causal mask and forward only: the scores and weights of one
 * query row at a time in preatt and att [n]. Row layout. */
void llmc_attention(size_t heads, size_t n, size_t d, float scale, const float *q,
                    const float *k, const float *v, float *out, float *preatt, float *att);

#endif
