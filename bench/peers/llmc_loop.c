/* llm.c's attention loop (see peers.h). After attention_forward in karpathy/llm.c
 * train_gpt2.c (MIT licence): its four passes per query and head, the same loop order
 * (query, then head) and flags (-Ofast -march=native, so the compiler vectorises the
 * dot products and expf); here without the causal mask (every key visible, as in the
 * other peers), with q, k and v as three matrices instead of one [T × 3C], one thread,
 * and forward only: llm.c keeps every head's preatt and att for its backward pass, this
 * keeps one row of each. */
#include "peers.h"

#include <math.h>

void llmc_attention(size_t heads, size_t n, size_t d, float scale, const float *q,
                    const float *k, const float *v, float *out, float *preatt, float *att)
{
    const size_t C = heads * d;
    for (size_t t = 0; t < n; t++) {
        for (size_t h = 0; h < heads; h++) {
            const float *query_t = q + t * C + h * d;
            /* pass 1: query · key and the maximum */
            float maxval = -10000.0f;
            for (size_t t2 = 0; t2 < n; t2++) {
                const float *key_t2 = k + t2 * C + h * d;
                float val = 0.0f;
                for (size_t i = 0; i < d; i++)
                    val += query_t[i] * key_t2[i];
                val *= scale;
                if (val > maxval)
                    maxval = val;
                preatt[t2] = val;
            }
            /* pass 2: exp and its sum */
            float expsum = 0.0f;
            for (size_t t2 = 0; t2 < n; t2++) {
                float expv = expf(preatt[t2] - maxval);
                expsum += expv;
                att[t2] = expv;
            }
            float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;
            /* pass 3: normalise */
            for (size_t t2 = 0; t2 < n; t2++)
                att[t2] *= expsum_inv;
            /* pass 4: weighted values into the output */
            float *out_th = out + t * C + h * d;
            for (size_t i = 0; i < d; i++)
                out_th[i] = 0.0f;
            for (size_t t2 = 0; t2 < n; t2++) {
                const float *value_t2 = v + t2 * C + h * d;
                float att_t2 = att[t2];
                for (size_t i = 0; i < d; i++)
                    out_th[i] += att_t2 * value_t2[i];
            }
        }
    }
}
