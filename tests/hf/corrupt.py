"""Damages a copy of a model folder in one named way (the bad inputs of a checkpoint).
Usage: corrupt.py FOLDER CASE      (FOLDER is changed in place)"""
import json
import os
import struct
import sys


def read_st(path):
    with open(path, "rb") as f:
        raw = f.read()
    n = struct.unpack("<Q", raw[:8])[0]
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def write_st(path, header_text, data, length=None):
    h = header_text.encode() if isinstance(header_text, str) else header_text
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h) if length is None else length))
        f.write(h)
        f.write(data)


def edit_json(path, fn):
    with open(path, encoding="utf-8") as f:
        j = json.load(f)
    fn(j)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(j, f, ensure_ascii=False)


def main(d, case):
    st = os.path.join(d, "model.safetensors")
    cfg = os.path.join(d, "config.json")

    def header_edit(fn):
        h, data = read_st(st)
        fn(h)
        write_st(st, json.dumps(h), data)

    if case == "no-config":
        os.remove(cfg)
    elif case == "config-not-json":
        open(cfg, "w").write('{"model_type": "gpt2", "n_embd": ')
    elif case == "model-type":
        edit_json(cfg, lambda j: j.update(model_type="llama"))
    elif case == "heads-divide":
        edit_json(cfg, lambda j: j.update(n_head=5))
    elif case == "bad-size":
        edit_json(cfg, lambda j: j.update(n_layer="three"))
    elif case == "no-weights":
        os.remove(st)
    elif case == "pytorch-bin":
        os.remove(st)
        open(os.path.join(d, "pytorch_model.bin"), "wb").write(b"PK")
    elif case == "truncated":
        raw = open(st, "rb").read()
        open(st, "wb").write(raw[:-100])
    elif case == "empty-file":
        open(st, "wb").close()
    elif case == "header-length":
        raw = open(st, "rb").read()
        open(st, "wb").write(struct.pack("<Q", len(raw)) + raw[8:])
    elif case == "header-not-object":
        _, data = read_st(st)
        write_st(st, "[1, 2, 3]", data)
    elif case == "offsets-size":
        header_edit(lambda h: h["h.0.attn.c_attn.weight"]["data_offsets"].__setitem__(
            1, h["h.0.attn.c_attn.weight"]["data_offsets"][1] - 4))
    elif case == "offsets-past-end":
        def f(h):
            o = h["h.1.mlp.c_fc.weight"]["data_offsets"]
            h["h.1.mlp.c_fc.weight"]["data_offsets"] = [o[0] + 10 ** 9, o[1] + 10 ** 9]
        header_edit(f)
    elif case == "unknown-dtype":
        header_edit(lambda h: h["wpe.weight"].update(dtype="Q4"))
    elif case == "int-dtype":
        header_edit(lambda h: h["wpe.weight"].update(dtype="I32"))
    elif case == "duplicate-name":
        h, data = read_st(st)
        text = json.dumps(h)
        entry = json.dumps(h["wpe.weight"])
        write_st(st, text[:-1] + ', "wpe.weight": ' + entry + "}", data)
    elif case == "missing-tensor":
        header_edit(lambda h: h.pop("h.1.attn.c_attn.weight"))
    elif case == "wrong-shape":
        edit_json(cfg, lambda j: j.update(n_positions=128))
    elif case == "index-escape":
        json.dump({"weight_map": {"wte.weight": "../model.safetensors"}},
                  open(os.path.join(d, "model.safetensors.index.json"), "w"))
    elif case == "index-missing-shard":
        json.dump({"weight_map": {"wte.weight": "model-00001-of-00002.safetensors"}},
                  open(os.path.join(d, "model.safetensors.index.json"), "w"))
    elif case == "index-not-json":
        open(os.path.join(d, "model.safetensors.index.json"), "w").write("{weight_map")
    elif case == "index-wrong-shard":
        h, _ = read_st(st)
        m = {k: "model.safetensors" for k in h if k != "__metadata__"}
        m.pop("h.2.ln_2.bias")
        json.dump({"weight_map": m}, open(os.path.join(d, "model.safetensors.index.json"), "w"))
    elif case == "vocab-not-json":
        open(os.path.join(d, "vocab.json"), "w").write('{"a": 1,')
    elif case == "vocab-bad-id":
        edit_json(os.path.join(d, "vocab.json"), lambda j: j.update({"Ġzz": "seven"}))
    elif case == "vocab-beyond":
        edit_json(os.path.join(d, "vocab.json"), lambda j: j.update({"Ġzz": 100000}))
    elif case == "vocab-no-byte":
        edit_json(os.path.join(d, "vocab.json"), lambda j: j.pop("Ā"))
    elif case == "merges-bad-line":
        lines = open(os.path.join(d, "merges.txt"), encoding="utf-8").read().split("\n")
        lines[3] = "a b c"
        open(os.path.join(d, "merges.txt"), "w", encoding="utf-8").write("\n".join(lines))
    elif case == "merges-unknown":
        with open(os.path.join(d, "merges.txt"), "a", encoding="utf-8") as f:
            f.write("qqqq zzzz\n")
    elif case == "merges-result":
        lines = open(os.path.join(d, "merges.txt"), encoding="utf-8").read().split("\n")
        a, b = lines[1].split(" ")
        edit_json(os.path.join(d, "vocab.json"), lambda j: j.pop(a + b))
    elif case == "merges-escape":   # an escape sequence in a file: shown, never obeyed
        with open(os.path.join(d, "merges.txt"), "a", encoding="utf-8") as f:
            f.write("\x1b]0;pwned\x07 x\n")
    elif case == "no-merges":
        os.remove(os.path.join(d, "merges.txt"))
    else:
        raise SystemExit("unknown case " + case)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
