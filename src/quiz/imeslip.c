/* Input-method slips: the words of the field (the rubrics' and the formula's) and the
 * characters of the same or a near sound a pinyin input method (or speech recognition)
 * puts in their place. Only
 * slips that are no other word an answer about attention would use are listed. */
#include "quiz/imeslip.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *slip, *word;
} slips[] = {
    /* the formula's words */
    {"跟号", "根号"}, {"更号", "根号"}, {"根好", "根号"}, {"跟好", "根号"}, {"亘号", "根号"},
    {"根耗", "根号"}, {"艮号", "根号"}, {"平方跟", "平方根"},
    {"专置", "转置"}, {"转至", "转置"}, {"转制", "转置"}, {"转致", "转置"}, {"转质", "转置"},
    {"转治", "转置"}, {"专制", "转置"}, {"砖置", "转置"},
    {"维读", "维度"}, {"为度", "维度"}, {"纬度", "维度"}, {"唯度", "维度"}, {"维渡", "维度"},
    {"围度", "维度"}, {"伪度", "维度"},
    {"点击", "点积"}, {"点集", "点积"}, {"点机", "点积"}, {"典积", "点积"},
    {"内机", "内积"}, {"内急", "内积"}, {"内集", "内积"},
    {"成以", "乘以"}, {"承以", "乘以"}, {"程以", "乘以"}, {"乘已", "乘以"},
    {"除已", "除以"}, {"处以", "除以"}, {"出以", "除以"},
    /* 在 for 再 (zai, the same syllable): "在除以根号 d_k" is 然后再除 */
    {"在除以", "再除以"}, {"在乘以", "再乘以"}, {"在乘上", "再乘上"}, {"在除", "再除"}, {"在乘", "再乘"},
    {"距阵", "矩阵"}, {"矩正", "矩阵"}, {"具阵", "矩阵"}, {"巨阵", "矩阵"},
    {"项量", "向量"}, {"象量", "向量"}, {"像量", "向量"}, {"相量", "向量"},
    /* the rubrics' words */
    {"保和", "饱和"}, {"包和", "饱和"}, {"饱合", "饱和"}, {"宝和", "饱和"}, {"报和", "饱和"},
    {"题度", "梯度"}, {"提度", "梯度"}, {"体度", "梯度"}, {"踢度", "梯度"},
    {"方叉", "方差"}, {"放差", "方差"}, {"方岔", "方差"},
    {"解吗", "解码"}, {"解马器", "解码器"}, {"借码器", "解码器"}, {"姐码器", "解码器"},
    {"解麻器", "解码器"}, {"解码期", "解码器"},
    {"编吗", "编码"}, {"编马器", "编码器"}, {"边码器", "编码器"}, {"变码器", "编码器"},
    {"编码期", "编码器"},
    {"愿句", "原句"}, {"元句", "原句"}, {"圆句", "原句"}, {"愿文", "原文"}, {"元文", "原文"},
    {"注意里", "注意力"}, {"主意力", "注意力"}, {"自注一力", "自注意力"}, {"自注义力", "自注意力"},
    {"字注意力", "自注意力"}, {"注义力", "注意力"}, {"住意力", "注意力"},
    {"规一化", "归一化"}, {"归以化", "归一化"},
    /* words said aloud and typed by speech recognition: the letters of RNN as they sound,
     * softmax translated word by word */
    {"阿尔恩恩", "RNN"}, {"阿尔艾恩艾恩", "RNN"}, {"软最大值", "softmax"}, {"软最大", "softmax"},
    {"软极大值", "softmax"}, {"柔性最大值", "softmax"},
};

/* One character of a set (UTF-8, all three bytes long) at s: its length, else 0. */
static size_t one_of(const char *s, const char *set)
{
    for (const char *p = set; *p; p += 3)
        if (!strncmp(s, p, 3))
            return 3;
    return 0;
}

/* 编码器 and 解码器 as a pinyin input method may spell them, each syllable in a character
 * of the same or a near sound (接码器, 编码起, 解马气): three characters, the first of
 * 编's or 解's sound, then 码's, then 器's. */
static size_t coder_slip_at(const char *s, const char **word)
{
    static const char bian[] = "编边变便遍鞭扁", jie[] = "解接借姐节截界介届街阶",
                      ma[] = "码马吗玛嘛麻妈", qi[] = "器起气期企启汽弃";
    size_t a = one_of(s, bian), b = a ? 0 : one_of(s, jie);
    if (!a && !b)
        return 0;
    size_t m = one_of(s + 3, ma);
    if (!m || !one_of(s + 6, qi))
        return 0;
    /* words of their own: 编码起来 (encode it), 解码期间 (while decoding) */
    if ((!strncmp(s + 6, "起", 3) && !strncmp(s + 9, "来", 3)) ||
        (!strncmp(s + 6, "期", 3) && !strncmp(s + 9, "间", 3)))
        return 0;
    *word = a ? "编码器" : "解码器";
    return 9;
}

/* 自注意力 as a pinyin input method may spell it (自助意力, 字注意力, 自注意里): four
 * characters, each of 自's, 注's, 意's and 力's sound, one of them at least not the word's. */
static size_t self_attention_slip_at(const char *s, const char **word)
{
    static const char zi[] = "自字子资姿滋紫", zhu[] = "注主助住祝驻著", yi[] = "意义易亿议忆艺异",
                      li[] = "力里立利例理历";
    if (!one_of(s, zi) || !one_of(s + 3, zhu) || !one_of(s + 6, yi) || !one_of(s + 9, li) ||
        !strncmp(s, "自注意力", 12))
        return 0;
    *word = "自注意力";
    return 12;
}

size_t qz_ime_slip_at(const char *s, const char **word)
{
    size_t best = 0;
    if ((unsigned char)*s < 0x80)
        return 0;
    const char *w;
    if (coder_slip_at(s, &w)) {
        *word = w;
        return 9;
    }
    if (self_attention_slip_at(s, &w)) {
        *word = w;
        return 12;
    }
    for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++) {
        size_t n = strlen(slips[i].slip);
        if (n > best && !strncmp(s, slips[i].slip, n)) {
            best = n;
            *word = slips[i].word;
        }
    }
    return best;
}

/* Pinyin the input method never turned into characters ("jie ma qi 出 Q", "bianmaqi"):
 * the field's words, their syllables apart or together, any case, whole words only. Its
 * length at s (which starts a word), and *word the word meant; 0 if none. */
static size_t pinyin_at(const char *s, const char **word)
{
    static const struct {
        const char *py, *word;
    } words[] = {
        {"jiemaqi", "解码器"}, {"bianmaqi", "编码器"}, {"zizhuyili", "自注意力"},
        {"zhuyili", "注意力"}, {"buxuyao", "不需要"}, {"xuyao", "需要"},
        {"zhuanzhi", "转置"}, {"genhao", "根号"}, {"weidu", "维度"}, {"tidu", "梯度"},
        {"baohe", "饱和"}, {"fangcha", "方差"},
    };
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        const char *p = words[w].py, *q = s;
        while (*p) {
            if (tolower((unsigned char)*q) == *p) {
                p++;
                q++;
            } else if (*q == ' ' && q > s && q[1] != ' ') {
                q++;   /* syllables typed apart */
            } else {
                break;
            }
        }
        if (!*p && !isalpha((unsigned char)*q)) {
            *word = words[w].word;
            return (size_t)(q - s);
        }
    }
    return 0;
}

size_t qz_ime_pinyin_at(const char *s, const char **word)
{
    return pinyin_at(s, word);
}

char *qz_ime_fix(const char *s)
{
    size_t n = strlen(s), cap = 2 * n + 1, o = 0;
    char *out = malloc(cap);
    for (size_t i = 0; out && i < n;) {
        const char *w;
        size_t l = qz_ime_slip_at(s + i, &w);
        if (!l && isalpha((unsigned char)s[i]) && (i == 0 || !isalpha((unsigned char)s[i - 1])))
            l = pinyin_at(s + i, &w);
        if (l) {
            size_t wl = strlen(w);
            if (o + wl >= cap) {
                char *t = realloc(out, cap = 2 * cap + wl);
                if (!t) {
                    free(out);
                    return NULL;
                }
                out = t;
            }
            memcpy(out + o, w, wl);
            o += wl;
            i += l;
            continue;
        }
        if (o + 1 >= cap) {
            char *t = realloc(out, cap *= 2);
            if (!t) {
                free(out);
                return NULL;
            }
            out = t;
        }
        out[o++] = s[i++];
    }
    if (out)
        out[o] = '\0';
    return out;
}
