"""Reference forward passes in NumPy (float64), written from the published descriptions,
not from attn-tutor's C code; compares their attention weights with `attend --format
json` output.

GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask Learners", §2.3,
on the decoder of Radford et al. 2018 and Vaswani et al. 2017): h0 = W_e[ids] + W_p;
each block: a = LN_1(h); q|k|v = a·W_attn + b_attn (Conv1D: weight [in × out]); per head
softmax(q_h·k_hᵀ/√d_head, causal) ; h += concat(heads)·W_proj + b_proj;
h += gelu(LN_2(h)·W_fc + b_fc)·W_proj2 + b_proj2, gelu in the tanh form.

BERT (Devlin et al. 2019, "BERT: Pre-training of Deep Bidirectional Transformers", §3,
on the encoder of Vaswani et al. 2017): h0 = LN(W_word[ids] + W_pos + W_type[0]); each
block (post-layer-norm): per head softmax(q_h·k_hᵀ/√d_head) with q = h·W_qᵀ + b_q (torch
Linear: weight [out × in]), no mask; h = LN(h + concat(heads)·W_oᵀ + b_o);
h = LN(h + gelu(h·W_iᵀ + b_i)·W_o2ᵀ + b_o2), gelu exact (erf).

Usage: ref_forward.py FOLDER.ref.npz < attend.json   → prints "maxdiff X n L H"
"""
import json
import math
import sys

import numpy as np


def layer_norm(x, g, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def softmax(s):
    s = s - s.max(-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(-1, keepdims=True)


def attention(q, k, v, heads, causal):
    """Per-head weights [H, n, n] and the concatenated outputs [n, d]."""
    n, d = q.shape
    dh = d // heads
    ws, outs = [], []
    for h in range(heads):
        sl = slice(h * dh, (h + 1) * dh)
        s = q[:, sl] @ k[:, sl].T / math.sqrt(dh)
        if causal:
            s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
        w = softmax(s)
        ws.append(w)
        outs.append(w @ v[:, sl])
    return np.stack(ws), np.concatenate(outs, axis=1)


def gpt2(W, cfg, ids):
    n, d, H = len(ids), cfg["n_embd"], cfg["n_head"]
    eps = cfg.get("layer_norm_epsilon", 1e-5)
    h = W["wte.weight"][ids] + W["wpe.weight"][:n]
    layers = []
    for l in range(cfg["n_layer"]):
        p = "h.%d." % l
        a = layer_norm(h, W[p + "ln_1.weight"], W[p + "ln_1.bias"], eps)
        qkv = a @ W[p + "attn.c_attn.weight"] + W[p + "attn.c_attn.bias"]
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        w, o = attention(q, k, v, H, causal=True)
        layers.append(w)
        h = h + o @ W[p + "attn.c_proj.weight"] + W[p + "attn.c_proj.bias"]
        m = layer_norm(h, W[p + "ln_2.weight"], W[p + "ln_2.bias"], eps)
        f = gelu_tanh(m @ W[p + "mlp.c_fc.weight"] + W[p + "mlp.c_fc.bias"])
        h = h + f @ W[p + "mlp.c_proj.weight"] + W[p + "mlp.c_proj.bias"]
    return layers


def gelu_erf(x):
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def bert(W, cfg, ids):
    n, d, H = len(ids), cfg["hidden_size"], cfg["num_attention_heads"]
    eps = cfg.get("layer_norm_eps", 1e-12)
    e = "embeddings."
    h = W[e + "word_embeddings.weight"][ids] + W[e + "position_embeddings.weight"][:n] + \
        W[e + "token_type_embeddings.weight"][0]
    h = layer_norm(h, W[e + "LayerNorm.weight"], W[e + "LayerNorm.bias"], eps)
    layers = []
    for l in range(cfg["num_hidden_layers"]):
        p = "encoder.layer.%d." % l
        lin = lambda x, name: x @ W[p + name + ".weight"].T + W[p + name + ".bias"]
        q, k, v = (lin(h, "attention.self." + x) for x in ("query", "key", "value"))
        w, o = attention(q, k, v, H, causal=False)
        layers.append(w)
        h = layer_norm(h + lin(o, "attention.output.dense"), W[p + "attention.output.LayerNorm.weight"],
                       W[p + "attention.output.LayerNorm.bias"], eps)
        i = gelu_erf(lin(h, "intermediate.dense"))
        h = layer_norm(h + lin(i, "output.dense"), W[p + "output.LayerNorm.weight"],
                       W[p + "output.LayerNorm.bias"], eps)
    return layers


def main():
    z = np.load(sys.argv[1])
    cfg = json.loads(str(z["config"]))
    W = {k: z[k] for k in z.files if k != "config"}
    got = json.load(sys.stdin)
    ids = got["token_ids"]
    ref = gpt2(W, cfg, ids) if cfg["model_type"] == "gpt2" else bert(W, cfg, ids)
    if len(got["layers"]) != len(ref):
        print("bad layers %d != %d" % (len(got["layers"]), len(ref)))
        return 1
    worst = 0.0
    for l, (gl, rl) in enumerate(zip(got["layers"], ref)):
        if len(gl["heads"]) != rl.shape[0]:
            print("bad heads in layer %d" % (l + 1))
            return 1
        for h, gh in enumerate(gl["heads"]):
            w = np.array(gh["weights"], dtype=np.float64)
            if w.shape != rl[h].shape:
                print("bad shape %s != %s" % (w.shape, rl[h].shape))
                return 1
            worst = max(worst, float(np.abs(w - rl[h]).max()))
    print("maxdiff %.3g n %d L %d H %d" % (worst, len(ids), len(ref), ref[0].shape[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
