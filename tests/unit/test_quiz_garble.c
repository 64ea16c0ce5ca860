/* Text no reader can read (quiz/garble.h): real answers garbled the ways files and
 * terminals garble them — UTF-8 read as Windows-1252, as GBK, Shift-JIS read as
 * Windows-1252 — made here with iconv from sentences a student writes; a scan's shading;
 * keys hit at random. And what must stay readable: Chinese, Japanese, European accents,
 * terse notes, code, formulas, numbers. */
#include "check.h"
#include "quiz/garble.h"

#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s's bytes in encoding `saved`, read as encoding `read` and written out as UTF-8. */
static char *garble(const char *s, const char *saved, const char *read)
{
    iconv_t to = iconv_open(saved, "UTF-8"), back = iconv_open("UTF-8", read);
    assert_true(to != (iconv_t)-1 && back != (iconv_t)-1);
    size_t n = strlen(s), cap = 8 * n + 8, l1 = cap, l2 = cap;
    char *bytes = calloc(1, cap), *text = calloc(1, cap);
    char *in = (char *)s, *o = bytes;
    assert_int_not_equal(iconv(to, &in, &n, &o, &l1), (size_t)-1);
    size_t m = cap - l1;
    in = bytes;
    o = text;
    /* a byte the reader has no character for is lost, as an editor loses it */
    while (m && iconv(back, &in, &m, &o, &l2) == (size_t)-1) {
        in++;
        m--;
    }
    iconv_close(to);
    iconv_close(back);
    free(bytes);
    return text;
}

static void test_mojibake(void **state)
{
    (void)state;
    static const char *const zh[] = {
        "注意力的公式是 softmax(QKᵀ/√d_k)V。",
        "（1）只用编码器就够了（2）取最后一层 [CLS] 的向量接线性层。",
        "Q 来自解码器，K 和 V 来自编码器的输出。",
    };
    for (size_t i = 0; i < sizeof zh / sizeof zh[0]; i++) {
        assert_false(qz_answer_unreadable_text(zh[i]));
        char *g = garble(zh[i], "UTF-8", "CP936");
        if (!qz_answer_unreadable_text(g))
            fail_msg("UTF-8 read as GBK not seen: %s", g);
        free(g);
        g = garble(zh[i], "UTF-8", "CP1252");
        if (*g && !qz_answer_unreadable_text(g))
            fail_msg("UTF-8 read as Windows-1252 not seen: %s", g);
        free(g);
    }
    char *g = garble("QはデコーダからKとVはエンコーダから", "SHIFT_JIS", "CP1252");
    assert_true(qz_answer_unreadable_text(g));
    free(g);
    g = garble("Les élèves ont réussi l'examen — naïve café", "UTF-8", "CP1252");
    assert_true(qz_answer_unreadable_text(g));
    free(g);
}

/* Garbled twice (each layer made by the garble() above from real answers), U+FFFD read as
 * Mac Roman, and what a program pastes: unreadable; European words and a formula are not. */
static void test_deeper_and_pasted(void **state)
{
    (void)state;
    static const char *const text[] = {
        "softmax(QKᵀ/√dₖ)V",
        "Q 来自解码器，K 和 V 来自编码器的输出。",
    };
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
        char *once = garble(text[i], "UTF-8", "CP1252");
        char *twice = garble(once, "UTF-8", "CP1252");
        if (!qz_answer_unreadable_text(twice))
            fail_msg("garbled twice not seen: %s", twice);
        free(once);
        free(twice);
    }
    char *fffd = garble("\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "UTF-8", "MACINTOSH");
    assert_string_equal(fffd, "ÔøΩÔøΩ ÔøΩÔøΩÔøΩ");
    assert_true(qz_answer_unreadable_text(fffd));
    free(fffd);
    assert_true(qz_answer_unreadable_text("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAoA"));
    assert_true(qz_answer_unreadable_text(" [object Object] "));
    assert_false(qz_answer_unreadable_text("Encoder only, café naïve résumé: read [CLS]"));
    assert_false(qz_answer_unreadable_text("the data: an image in base64 is no answer"));
    assert_false(qz_answer_unreadable_text("softmax(QKᵀ/√dₖ)V"));
}

static void test_shades_and_keys(void **state)
{
    (void)state;
    assert_true(qz_answer_unreadable_text("▒▒ √▒▒ ▒▒▒▒ ▒▒，▒▒（照片模糊）"));
    assert_true(qz_answer_unreadable_text("wqe rr nn ,,. atn kkj h_ ;/ pp[[ ]]] xz"));
    assert_true(qz_answer_unreadable_text("asdf jkl qwer uiop zxcv"));
    assert_false(qz_answer_unreadable_text("▒ one shade alone"));
}

/* Keys run along a row or held among a few readable bits: unreadable; the field's short
 * words, words of the list that lie on one row (type, were, root, query) and a real
 * answer beside a run are not. */
static void test_key_runs(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "hjkl ;lk attn ,,, wer tyu iop",   /* one word of the field among runs */
        "vbnm cx,. poiu ww",
        "fdsa ;lkj fdsa ]]]",
        "sdf jkl",
        "√dₖ = … ;lkj ;lkj dfg",
        "kjhg;a exp exp ,,,.. nnn ppp",
        "hgfd 的的 dk√√ 呀 ,,, lkjh",       /* particles and a repeat are not read */
        "ｄｆｇｄｆｇ 根号 ｌｋｌｋ",         /* full-width letters */
        "rew 0.,;; ..2 ?? ooo",            /* digits among them: no numbers to read */
        "fhdjs qkv kkk",                   /* a held key, though the word list has KKK */
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        if (!qz_answer_unreadable_text(runs[i]))
            fail_msg("key runs read as text: %s", runs[i]);
    static const char *const ok[] = {
        "were type quiet root",
        "wrt the query, attn is O(1)",
        "qkv ffn lstm tgt",
        "RNN O(n), attention O(1) asdf",
        "Q 解码器，K V 编码器 sdf jkl",
        "wei yi de qu bie shi rnn yao yi bu yi bu chuan",   /* pinyin */
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (qz_answer_unreadable_text(ok[i]))
            fail_msg("readable text called unreadable: %s", ok[i]);
}

/* Words struck out in Markdown and written again are taken out; a scribble, a strike
 * inside a word or a number, or nothing left stays for the reader to refuse. */
/* Mostly noise (qz_answer_mostly_noise): keys run along or held, a word said again,
 * sounds, Zhuyin left unconverted, runs of marks; and what must not be noise: terse
 * notes of the field, an answer with an ellipsis, Chinese sentences, numbers. */
static void test_mostly_noise(void **state)
{
    (void)state;
    static const char *const noise[] = {
        "zxcv bnm dk dk dk ////", "啊啊啊啊 ……&&&% dk dk", "qkv qkv 啊哦额 asdfgh",
        "ㄘㄟˋㄙ ㄉㄎ ，，， ㄅㄅㄅ", "qqq kk vv ,,,, hjkl; enc dec dce nec",
        "the sqr t dk it is for the thhe ,,, kjh", "ＱＫＶ 呜呜呜 ～～～ 啦啦啦 asdfjkl",
        "asdkjh 啊啊啊", "dk dk dk sqrrt jjjjj ,./,./",
    };
    for (size_t i = 0; i < sizeof noise / sizeof *noise; i++)
        if (!qz_answer_mostly_noise(noise[i]))
            fail_msg("'%s' is mostly noise", noise[i]);
    static const char *const readable[] = {
        "Q: dec; K, V: enc", "RNN O(n) ... SA O(1)", "0.14 0.17", "不知道……",
        "Q 来自解码器，K 和 V 来自编码器的输出。", "enc enough; [CLS] → linear",
        "scores grow with dk, softmax saturates, gradients vanish",
        "softmax 饱和，梯度消失。。。", "dk大→点积大→softmax饱和→梯度≈0",
        "Q vient du décodeur, K et V de l'encodeur ; ça permet au décodeur de lire la source.",
        "Crème brûlée, déjà vu. Ação, não, são.", "Sie kommen vom Kodierer, die Abfrage vom Dekodierer",
    };
    for (size_t i = 0; i < sizeof readable / sizeof *readable; i++)
        if (qz_answer_mostly_noise(readable[i]))
            fail_msg("'%s' is not noise", readable[i]);
}

static void test_unstruck(void **state)
{
    (void)state;
    /* what stands once the struck words are taken out; a note that a span was struck goes
     * with it; all of it struck leaves nothing */
    static const struct { const char *in, *out; } struck[] = {
        {"Q ← ~~编码器~~ 解码器，K/V ← 编码器输出", "Q ← 解码器，K/V ← 编码器输出"},
        {"~~it normalises~~ it keeps the scores small", "it keeps the scores small"},
        {"RNN 要逐步传（~~梯度~~）；自注意力一步", "RNN 要逐步传（）；自注意力一步"},
        {"（1）只用 Encoder。（2）~~最后一个 token~~（划掉）句首 [CLS] 的输出",
         "（1）只用 Encoder。（2）句首 [CLS] 的输出"},
        {"~~variance~~ (crossed out) it keeps the scores small", "it keeps the scores small"},
        {"下雨 0.14，没 ～～0.2～～ 0.17", "下雨 0.14，没 0.17"}, /* full-width, from an input method */
        {"~~all of it~~", ""},
        {"~~方差~~（划掉）~~饱~~ ~~梯~~", ""},
    };
    char *u;
    for (size_t i = 0; i < sizeof struck / sizeof struck[0]; i++) {
        u = qz_answer_unstruck(struck[i].in);
        if (!u || strcmp(u, struck[i].out))
            fail_msg("unstruck %s -> %s, want %s", struck[i].in, u ? u : "(kept)", struck[i].out);
        free(u);
    }
    static const char *const kept[] = {
        "no strike at all", "x ~~~ y", "gr~~ad~~ vanish", "0.~~1~~4 0.17", "~~n~~1 steps",
        "~~ unpaired", "a ~~~~ b",
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        u = qz_answer_unstruck(kept[i]);
        if (u)
            fail_msg("struck text taken out: %s -> %s", kept[i], u);
        free(u);
    }
}

static void test_readable(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "Les élèves ont réussi l'examen — naïve café, résumé.",
        "自注意力里任意两个词一步就到，RNN 要一步一步传。",
        "自注意力裡任意兩個詞一步就到，RNN 要一步一步傳。",
        "Qはデコーダから、KとVはエンコーダから来る。",
        "rnn slow attn fast lol",
        "Q dec, K V enc, align",
        "softmax(Q @ K.T / np.sqrt(d_k)) @ V",
        "$\\operatorname{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$",
        "0.14 0.17",
        "rains: 0.14, didn't: 0.17 — ≈ 13.8 %",
        "idk tbh",
        "blah blah blah blah blah",
        "It’s “peaky” — the softmax saturates…",
        /* its GBK bytes read as UTF-8 give ÿ and archaic Greek (ͷ), not a student's text */
        "每个头, 每一个头, 所有头",
        "",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (qz_answer_unreadable_text(ok[i]))
            fail_msg("readable text called unreadable: %s", ok[i]);
    assert_false(qz_answer_unreadable_text("\xe6\x88\x91\xe6\xb3"));   /* invalid UTF-8: not judged here */
}

/* Every line the project's own lessons hold, in both languages, and every answer-like
 * line of its grading sets is readable text (a population, not a few strings). */
static void test_lesson_lines(void **state)
{
    (void)state;
    static const char *const files[] = {
        "lessons/en/01-why-attention.yaml", "lessons/zh/01-why-attention.yaml",
        "lessons/en/03-scaled-dot-product.yaml", "lessons/zh/03-scaled-dot-product.yaml",
        "lessons/en/10-self-test.yaml", "lessons/zh/10-self-test.yaml",
        "tests/grading/corpus.tsv", "tests/grading/dev-d.tsv", "tests/grading/kinds.tsv",
    };
    size_t lines = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f)
            fail_msg("cannot open %s (run from the project's folder)", files[i]);
        char line[8192];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            /* a grading line: the answer is its fourth field, unless the teacher marked
             * it unreadable */
            char *text = line, *tab = strchr(line, '\t');
            if (tab) {
                char *fld[5] = {line};
                size_t k = 1;
                for (char *p = line; k < 5 && (p = strchr(p, '\t')); p++)
                    *p = '\0', fld[k++] = p + 1;
                if (k < 4 || !strcmp(fld[2], "unreadable"))
                    continue;
                text = fld[3];
            }
            lines++;
            char *fixed = qz_answer_repaired(text);   /* garbled, nothing lost: read back */
            int bad = qz_answer_unreadable_text(fixed ? fixed : text);
            free(fixed);
            if (bad)
                fail_msg("%s: readable text called unreadable: %s", files[i], text);
        }
        fclose(f);
    }
    assert_true(lines > 2000);
}

/* Read back when nothing was lost: every character of the garbled text returns to its
 * byte and the bytes are whole UTF-8; never for text that was not garbled, nor when the
 * reader lost a byte (Chinese read as Windows-1252 loses 0x81, 0x8D, 0x8F, 0x90, 0x9D). */
static void test_repaired(void **state)
{
    (void)state;
    static const char *const lossless[] = {"Attention(Q,K,V) = softmax(QKᵀ/√dₖ)V",
                                           "softmax(QKᵀ/d_k)V", "0.14 0.17 — done",
                                           "σ(x) ≈ 1 for x ≫ 0", "été"};
    for (size_t i = 0; i < sizeof lossless / sizeof *lossless; i++) {
        char *g = garble(lossless[i], "UTF-8", "CP1252");
        char *r = qz_answer_repaired(g);
        assert_non_null(r);
        assert_string_equal(r, lossless[i]);
        free(r);
        free(g);
    }
    static const char *const never[] = {"café au lait", "softmax(QKᵀ/√dₖ)V", "0.14 0.17",
                                        "Q 来自解码器，K、V 来自编码器", "plain ascii", ""};
    for (size_t i = 0; i < sizeof never / sizeof *never; i++)
        assert_null(qz_answer_repaired(never[i]));
    /* a decoder that keeps the undefined bytes as C1 controls (意 is E6 84 8F), and a
     * garbling with a √ typed after it: read back whole */
    static const struct { const char *garbled, *text; } kept[] = {
        {"æ³¨æ„\xc2\x8fåŠ›(Q,K,V) = softmax(QKáµ€/âˆšdâ‚–)V", "注意力(Q,K,V) = softmax(QKᵀ/√dₖ)V"},
        {"softmax(QKáµ€/√dâ‚–)V", "softmax(QKᵀ/√dₖ)V"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        char *r = qz_answer_repaired(kept[i].garbled);
        assert_non_null(r);
        assert_string_equal(r, kept[i].text);
        free(r);
    }
    assert_null(qz_answer_repaired("it’s 0.14… café"));
    char *lost = garble("RNN 要一步步传，自注意力一步就到。", "UTF-8", "CP1252");
    assert_null(qz_answer_repaired(lost));
    free(lost);
}

/* Emoji a phone puts in (faces, hands, ✌ with its selector, skin tones, joined families)
 * leave a formula as it was written; signs that are no emoji stay. */
static void test_without_emoji(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        {"attn = softmax(q @ k.T / sqrt(dk)) @ v 👍", "attn = softmax(q @ k.T / sqrt(dk)) @ v"},
        {"softmax(QKᵀ/√dₖ)V ✌️", "softmax(QKᵀ/√dₖ)V"},
        {"👍🏽 softmax(QKᵀ/√dₖ)V", " softmax(QKᵀ/√dₖ)V"},
        {"softmax 😂😂 (QKᵀ/√dₖ)V", "softmax (QKᵀ/√dₖ)V"},
        {"QKᵀ 👨‍👩‍👧 V", "QKᵀ V"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *r = qz_answer_without_emoji(cases[i].in);
        assert_non_null(r);
        assert_string_equal(r, cases[i].out);
        free(r);
    }
    static const char *const kept[] = {"softmax(QKᵀ/√dₖ)V", "Q → decoder ✓, K·V ✗", "© 2024 ®",
                                       "注意力 = softmax(QKᵀ/√dₖ)V。"};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        assert_null(qz_answer_without_emoji(kept[i]));
    assert_null(qz_answer_without_emoji("\xff\xfe 👍"));   /* not UTF-8: left to the reader */
}

/* Markdown a chat window leaves: bold labels and headings part the items they open; a
 * product's * and d_k's _ stay. */
static void test_unmarked(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        {"**Q来源**：解码器 **K、V来源**：编码器", "Q来源：解码器 ; K、V来源：编码器"},
        {"**本质区别：** - **RNN**：逐步传递 - **自注意力**：一步", "本质区别： RNN：逐步传递 ; 自注意力：一步"},
        {"## √dₖ 的作用 1. **数值稳定**", "√dₖ 的作用 1. 数值稳定"},
        {"The encoder is **enough**.", "The encoder is enough."},
        {"__Q__ from the decoder", "Q from the decoder"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *r = qz_answer_unmarked(cases[i].in);
        assert_non_null(r);
        assert_string_equal(r, cases[i].out);
        free(r);
    }
    static const char *const kept[] = {"Q * K^T / sqrt(d_k)", "d_k is the key width", "#1 idea",
                                       "K - V", "a*b"};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        assert_null(qz_answer_unmarked(kept[i]));
}

/* A numeric answer pasted from a chat window keeps its bold values: the marks go, a power
 * written in code stays. */
static void test_unbolded(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        {"**0.14** **0.17**", "0.14 0.17"},
        {"下雨 = **0.14**，没 = __0.17__", "下雨 = 0.14，没 = 0.17"},
        {"1.35/9.75 ≈ **0.14**, 1.649/9.75 ≈ **0.17**", "1.35/9.75 ≈ 0.14, 1.649/9.75 ≈ 0.17"},
        {"**Answer:** 0.14, 0.17", "Answer: 0.14, 0.17"},
        {"e**0.3/9.75 = **0.14**", "e**0.3/9.75 = 0.14"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *r = qz_answer_unbolded(cases[i].in);
        assert_non_null(r);
        assert_string_equal(r, cases[i].out);
        free(r);
    }
    static const char *const kept[] = {"e**0.3/9.75 = 0.14", "math.e ** 0.5 / 9.75", "2**-1",
                                       "0.14 0.17", "d_k = 64", "x ** 2",
                                       "d_k**.5"};
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
        assert_null(qz_answer_unbolded(kept[i]));
}

/* A short answer that only points to a picture or an attachment; a longer one that
 * mentions a picture beside what it states is an answer. */
static void test_points_elsewhere(void **state)
{
    (void)state;
    static const char *const elsewhere[] = {"[图片] 公式见图", "[image: formula_screenshot.png]",
                                            "（见附件截图）", "see attached", "見附件", "see pic",
                                            "see the figure", "see photo", "in the photo", "见下图",
                                            "看照片", "see the attachment",
                                            "look at the diagram", "check formula on slide 14",
                                            "见我的草稿纸", "（图片无法显示）", "cf. my notes",
                                            "公式见上页图片", "see the previous page"};
    for (size_t i = 0; i < sizeof elsewhere / sizeof *elsewhere; i++)
        assert_true(qz_answer_points_elsewhere(elsewhere[i]));
    static const char *const answers[] = {
        "softmax(QKᵀ/√dₖ)V", "0.14 0.17", "Q from the decoder; see the picture in my notes for the rest",
        "the image of a query under W_Q", "decoder can see the whole source picture",
        "自注意力看全图，RNN 一步一步传", "softmax(QK^T/sqrt(d_k))V, see the last page"};
    for (size_t i = 0; i < sizeof answers / sizeof *answers; i++)
        assert_false(qz_answer_points_elsewhere(answers[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mojibake),
        cmocka_unit_test(test_deeper_and_pasted),
        cmocka_unit_test(test_shades_and_keys),
        cmocka_unit_test(test_key_runs),
        cmocka_unit_test(test_mostly_noise),
        cmocka_unit_test(test_unstruck),
        cmocka_unit_test(test_readable),
        cmocka_unit_test(test_lesson_lines),
        cmocka_unit_test(test_repaired),
        cmocka_unit_test(test_without_emoji),
        cmocka_unit_test(test_unmarked),
        cmocka_unit_test(test_unbolded),
        cmocka_unit_test(test_points_elsewhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
