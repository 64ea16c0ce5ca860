/* oneDNN's attention (see peers.h): what a C user of oneDNN 2.x writes for
 * softmax(q kᵀ · scale) v over a batch of heads, with the C API: two batched matmul
 * primitives and the softmax primitive (v2, accurate, on the last axis), made once and
 * run on user buffers. oneDNN chooses its kernels by the CPU's ISA at run time. */
#include "peers.h"

#include <oneapi/dnnl/dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dnnl_peer {
    size_t heads, n, d, batch;   /* heads per primitive call */
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_primitive_t qk, softmax, pv;
    dnnl_memory_t m_q, m_k, m_s, m_v, m_out;
    float *scores;               /* [batch × n × n] */
    const float *q, *k, *v;
    float *out;
    char impl[256];
};

#define TRY(call)                                                                          \
    do {                                                                                   \
        dnnl_status_t st_ = (call);                                                        \
        if (st_ != dnnl_success) {                                                         \
            snprintf(err, err_len, "oneDNN: %s failed (status %d)", #call, (int)st_);     \
            goto fail;                                                                     \
        }                                                                                  \
    } while (0)

/* Appends the implementation name of pd to p->impl. */
static void note_impl(dnnl_peer *p, const_dnnl_primitive_desc_t pd)
{
    const char *name = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name) != dnnl_success)
        name = "?";
    size_t len = strlen(p->impl);
    snprintf(p->impl + len, sizeof p->impl - len, "%s%s", len ? ", " : "", name);
}

/* A primitive from an op descriptor (with attr or NULL). */
static dnnl_status_t make(dnnl_peer *p, const_dnnl_op_desc_t op, const_dnnl_primitive_attr_t attr,
                          dnnl_primitive_t *prim)
{
    dnnl_primitive_desc_t pd;
    dnnl_status_t st = dnnl_primitive_desc_create(&pd, op, attr, p->engine, NULL);
    if (st != dnnl_success)
        return st;
    note_impl(p, pd);
    st = dnnl_primitive_create(prim, pd);
    dnnl_primitive_desc_destroy(pd);
    return st;
}

dnnl_peer *dnnl_peer_new(size_t heads, size_t n, size_t d, float scale, const float *q,
                         const float *k, const float *v, float *out, char *err, size_t err_len)
{
    dnnl_peer *p = calloc(1, sizeof *p);
    dnnl_primitive_attr_t attr = NULL;
    if (!p) {
        snprintf(err, err_len, "oneDNN peer: out of memory");
        return NULL;
    }
    p->heads = heads, p->n = n, p->d = d, p->q = q, p->k = k, p->v = v, p->out = out;
    p->batch = heads;
    while (p->batch > 1 && p->batch * n * n > ((size_t)64 << 20))
        p->batch /= 2;
    while (heads % p->batch)
        p->batch--;
    p->scores = malloc(p->batch * n * n * sizeof *p->scores);
    if (!p->scores) {
        snprintf(err, err_len, "oneDNN peer: out of memory");
        goto fail;
    }
    const dnnl_dim_t B = (dnnl_dim_t)p->batch, N = (dnnl_dim_t)n, D = (dnnl_dim_t)d;
    dnnl_memory_desc_t md_q, md_k, md_s, md_v, md_out;
    TRY(dnnl_engine_create(&p->engine, dnnl_cpu, 0));
    TRY(dnnl_stream_create(&p->stream, p->engine, dnnl_stream_default_flags));
    TRY(dnnl_memory_desc_init_by_tag(&md_q, 3, (dnnl_dims_t){B, N, D}, dnnl_f32, dnnl_abc));
    /* kᵀ [B × d × n]: the [B × n × d] buffer read with transposed strides */
    TRY(dnnl_memory_desc_init_by_strides(&md_k, 3, (dnnl_dims_t){B, D, N}, dnnl_f32,
                                         (dnnl_dims_t){N * D, 1, D}));
    TRY(dnnl_memory_desc_init_by_tag(&md_s, 3, (dnnl_dims_t){B, N, N}, dnnl_f32, dnnl_abc));
    TRY(dnnl_memory_desc_init_by_tag(&md_v, 3, (dnnl_dims_t){B, N, D}, dnnl_f32, dnnl_abc));
    TRY(dnnl_memory_desc_init_by_tag(&md_out, 3, (dnnl_dims_t){B, N, D}, dnnl_f32, dnnl_abc));
    dnnl_matmul_desc_t mm_qk, mm_pv;
    TRY(dnnl_matmul_desc_init(&mm_qk, &md_q, &md_k, NULL, &md_s));
    TRY(dnnl_primitive_attr_create(&attr));
    TRY(dnnl_primitive_attr_set_output_scales(attr, 1, 0, &scale));
    TRY(make(p, &mm_qk, attr, &p->qk));
    dnnl_softmax_v2_desc_t sm;
    TRY(dnnl_softmax_v2_forward_desc_init(&sm, dnnl_forward_inference, dnnl_softmax_accurate,
                                          &md_s, &md_s, 2));
    TRY(make(p, &sm, NULL, &p->softmax));
    TRY(dnnl_matmul_desc_init(&mm_pv, &md_s, &md_v, NULL, &md_out));
    TRY(make(p, &mm_pv, NULL, &p->pv));
    TRY(dnnl_memory_create(&p->m_q, &md_q, p->engine, (void *)q));
    TRY(dnnl_memory_create(&p->m_k, &md_k, p->engine, (void *)k));
    TRY(dnnl_memory_create(&p->m_s, &md_s, p->engine, p->scores));
    TRY(dnnl_memory_create(&p->m_v, &md_v, p->engine, (void *)v));
    TRY(dnnl_memory_create(&p->m_out, &md_out, p->engine, out));
    dnnl_primitive_attr_destroy(attr);
    return p;
fail:
    if (attr)
        dnnl_primitive_attr_destroy(attr);
    dnnl_peer_free(p);
    return NULL;
}

void dnnl_peer_run(dnnl_peer *p)
{
    for (size_t h0 = 0; h0 < p->heads; h0 += p->batch) {
        /* point the memories at this batch of heads (no copy) */
        dnnl_memory_set_data_handle(p->m_q, (void *)(p->q + h0 * p->n * p->d));
        dnnl_memory_set_data_handle(p->m_k, (void *)(p->k + h0 * p->n * p->d));
        dnnl_memory_set_data_handle(p->m_v, (void *)(p->v + h0 * p->n * p->d));
        dnnl_memory_set_data_handle(p->m_out, p->out + h0 * p->n * p->d);
        dnnl_exec_arg_t qk[3] = {{DNNL_ARG_SRC, p->m_q}, {DNNL_ARG_WEIGHTS, p->m_k},
                                 {DNNL_ARG_DST, p->m_s}};
        dnnl_exec_arg_t sm[2] = {{DNNL_ARG_SRC, p->m_s}, {DNNL_ARG_DST, p->m_s}};
        dnnl_exec_arg_t pv[3] = {{DNNL_ARG_SRC, p->m_s}, {DNNL_ARG_WEIGHTS, p->m_v},
                                 {DNNL_ARG_DST, p->m_out}};
        dnnl_primitive_execute(p->qk, p->stream, 3, qk);
        dnnl_primitive_execute(p->softmax, p->stream, 2, sm);
        dnnl_primitive_execute(p->pv, p->stream, 3, pv);
    }
    dnnl_stream_wait(p->stream);
}

const char *dnnl_peer_impl(const dnnl_peer *p)
{
    return p->impl;
}

void dnnl_peer_free(dnnl_peer *p)
{
    if (!p)
        return;
    dnnl_memory_t mems[5] = {p->m_q, p->m_k, p->m_s, p->m_v, p->m_out};
    for (int i = 0; i < 5; i++)
        if (mems[i])
            dnnl_memory_destroy(mems[i]);
    dnnl_primitive_t prims[3] = {p->qk, p->softmax, p->pv};
    for (int i = 0; i < 3; i++)
        if (prims[i])
            dnnl_primitive_destroy(prims[i]);
    if (p->stream)
        dnnl_stream_destroy(p->stream);
    if (p->engine)
        dnnl_engine_destroy(p->engine);
    free(p->scores);
    free(p);
}

const char *dnnl_peer_version(void)
{
    static char text[128];
    const dnnl_version_t *v = dnnl_version();
    const char *isa;
    switch (dnnl_get_effective_cpu_isa()) {
    case dnnl_cpu_isa_avx2: isa = "AVX2"; break;
    case dnnl_cpu_isa_avx2_vnni: isa = "AVX2 + VNNI"; break;
    case dnnl_cpu_isa_avx512_core: isa = "AVX-512"; break;
    case dnnl_cpu_isa_avx512_core_vnni: isa = "AVX-512 + VNNI"; break;
    case dnnl_cpu_isa_avx512_core_bf16: isa = "AVX-512 + BF16"; break;
    case dnnl_cpu_isa_avx512_core_amx: isa = "AVX-512 + AMX"; break;
    default: isa = "other"; break;
    }
    snprintf(text, sizeof text, "oneDNN %d.%d.%d (its kernels for %s)", v->major, v->minor,
             v->patch, isa);
    return text;
}
