/* Text that no reader can read, whatever the question: characters decoded with the wrong
 * encoding (mojibake), a scan's shading, keys hit at random (see quiz/garble.h). */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/garble.h"
#include "quiz/lang.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

/* from → to of the whole of s into a new buffer (*n bytes); 0 when a character has no
 * place in the target encoding or iconv cannot convert at all. With lenient, an
 * undecodable byte is skipped and counted in *bad. */
static char *convert(const char *s, size_t len, const char *from, const char *to, int lenient,
                     size_t *n, size_t *bad)
{
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1)
        return NULL;
    size_t cap = 4 * len + 8, left_out = cap, left_in = len;
    char *out = malloc(cap), *o = out, *in = (char *)s;
    *bad = 0;
    while (out && left_in) {
        if (iconv(cd, &in, &left_in, &o, &left_out) != (size_t)-1)
            continue;
        if (!lenient || (errno != EILSEQ && errno != EINVAL)) {
            free(out);
            out = NULL;
            break;
        }
        ++*bad;
        in++;
        left_in--;
    }
    iconv_close(cd);
    if (out)
        *n = cap - left_out;
    return out;
}

static int is_cjk(ucs4_t c)
{
    return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff) ||
           (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xac00 && c <= 0xd7af);
}

/* What a student's text holds outside ASCII: CJK and its punctuation, full-width forms,
 * Latin-1's letters and signs, general punctuation, arrows and mathematical operators,
 * superscripts and subscripts (ᵀ, ₖ), the Greek alphabet (α–ω, Α–Ω; not the archaic
 * letters around it, which GBK bytes read as UTF-8 give: 头 is CD B7, "ͷ"), box drawing
 * and blocks, and the replacement
 * character an earlier lossy decoding left (U+FFFD: 锟斤拷 is two of them read as GBK).
 * Bytes decoded by chance give Hebrew, Arabic, Cyrillic, private-use and other scripts
 * instead. */
static int is_plausible(ucs4_t c)
{
    return is_cjk(c) || (c >= 0x3000 && c <= 0x303f) || (c >= 0xff00 && c <= 0xffef) ||
           (c >= 0x00a0 && c <= 0x00ff) || (c >= 0x2000 && c <= 0x22ff) ||
           (c >= 0x1d00 && c <= 0x1dbf) || (c >= 0x0391 && c <= 0x03c9) ||
           (c >= 0x2500 && c <= 0x259f) || c == 0xfffd;
}

/* The characters of UTF-8 s[0, n) outside ASCII, the CJK ones, and the plausible ones
 * among them (is_plausible). */
static void count_kinds(const char *s, size_t n, size_t *wide, size_t *cjk, size_t *plausible)
{
    *wide = *cjk = *plausible = 0;
    for (const uint8_t *p = (const uint8_t *)s, *e = p + n; p < e;) {
        ucs4_t c;
        int k = u8_mbtouc(&c, p, (size_t)(e - p));
        *wide += c >= 0x80;
        *cjk += is_cjk(c);
        *plausible += c >= 0x80 && is_plausible(c);
        p += k > 0 ? k : 1;
    }
}

/* s written in UTF-8, read by someone as legacy, and saved again as UTF-8: encoding s
 * back into legacy gives bytes that read as text in original. True when those bytes
 * decode (as original) into at least three characters outside ASCII, four in five of
 * them of the kinds a student writes (is_plausible), and at most two in five of their
 * bytes outside ASCII do not decode (the reader lost the bytes legacy has
 * no character for: about one in four). Chinese or European text that was never garbled
 * leaves three in five or more undecoded. */
static int reads_back(const char *s, size_t len, const char *legacy, const char *original)
{
    size_t n = 0, bad = 0, m = 0, high = 0;
    char *bytes = convert(s, len, "UTF-8", legacy, 0, &n, &bad);
    if (!bytes)
        return 0;
    for (size_t i = 0; i < n; i++)
        high += (unsigned char)bytes[i] >= 0x80;
    char *text = convert(bytes, n, original, "UTF-8", 1, &m, &bad);
    free(bytes);
    if (!text)
        return 0;
    size_t wide, cjk, plausible;
    count_kinds(text, m, &wide, &cjk, &plausible);
    free(text);
    /* Read back as Japanese, most of what is not ASCII must be kana or kanji. */
    int japanese = !strcmp(original, "SHIFT_JIS");
    return wide >= 3 && 5 * bad <= 2 * high && 5 * plausible >= 4 * wide &&
           (!japanese || 2 * cjk >= wide);
}

/* Characters that stand for what a scan or a terminal could not show: block elements
 * and shades (U+2580–U+259F), the boxes a font shows for a missing glyph (□ ▯ ⍰) and
 * the replacement character U+FFFD. */
static size_t shades(const char *s, size_t len)
{
    size_t k = 0;
    for (const uint8_t *p = (const uint8_t *)s, *e = p + len; p < e;) {
        ucs4_t c;
        int n = u8_mbtouc(&c, p, (size_t)(e - p));
        k += (c >= 0x2580 && c <= 0x259f) || c == 0x25a1 || c == 0x25af || c == 0x2370 ||
             c == 0xfffd;
        p += n > 0 ? n : 1;
    }
    return k;
}

static const char *const common[] = {
    "the", "is", "are", "a", "an", "of", "to", "and", "in", "it", "on", "for", "by", "from",
    "with", "that", "this", "not", "no", "so", "as", "be", "at", "or", "its", "one", "two",
    "all", "each", "any", "we", "you", "i", "rnn", "attn", "attention", "softmax", "query",
    "key", "value", "encoder", "decoder", "cls", "token", "dk", "dim", "seq", "qkv", "kv",
    "sqrt", "exp", "idk", "dunno", "lol", "ok", "yes", "enc", "dec", "emb", "hid", "len",
    "pos", "vec", "mat", "src", "tgt", "ctx", "mlp", "ffn", "grad", "var", "std", "avg",
    "np", "torch", "matmul", "bmm", "einsum", "dims", "ctrl", "msgid", "lm", "nlp", "wrt", NULL};

/* Is the lower-case word w one of the short words of English or the field (common)? */
static int field_word(const char *w)
{
    for (size_t m = 0; common[m]; m++)
        if (!strcmp(w, common[m]))
            return 1;
    return 0;
}

/* Which of the words are in the English word list (found[i] set; one pass over it)? 0
 * when there is no list. */
static int in_word_list(char words[][24], size_t n, unsigned char *found)
{
    static const char *const lists[] = {"/usr/share/dict/words", "/usr/share/dict/american-english"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        FILE *f = fopen(lists[i], "r");
        if (!f)
            continue;
        char line[128];
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = '\0';
            for (size_t w = 0; w < n; w++)
                found[w] |= !strcasecmp(line, words[w]);
        }
        fclose(f);
        return 1;
    }
    return 0;
}

/* Is every one of the words a stranger to the word list? */
static int none_in_word_list(char words[][24], size_t n)
{
    unsigned char found[32] = {0};
    if (n > sizeof found || !in_word_list(words, n, found))
        return 0;   /* no word list: nothing is called random */
    for (size_t w = 0; w < n; w++)
        if (found[w])
            return 0;
    return 1;
}

/* Keys hit at random: five or more words of ASCII letters, none longer than six letters
 * and none twice, no digit, no character outside ASCII, none of = ( * & (code or a
 * formula), not one word that the field
 * knows, and not one of three letters or more (at least three of them) in the English
 * word list. */
static int keyboard_mash(const char *s)
{
    if (strpbrk(s, "=(*&"))
        return 0;   /* code or a formula, whatever its names */
    char words[16][24];
    size_t n = 0;
    for (const char *p = s; *p;) {
        if ((unsigned char)*p >= 0x80 || isdigit((unsigned char)*p))
            return 0;
        if (!isalpha((unsigned char)*p)) {
            p++;
            continue;
        }
        size_t l = 0;
        char w[24];
        while (isalpha((unsigned char)p[l])) {
            if (l < sizeof w - 1)
                w[l] = (char)tolower((unsigned char)p[l]);
            l++;
        }
        p += l;
        if (l >= sizeof w)
            continue;
        w[l] = '\0';
        if (field_word(w))
            return 0;
        /* keys hit at random are short, and not the same twice; names in code are long */
        if (l > 6)
            return 0;
        for (size_t k = 0; k < n; k++)
            if (!strcmp(words[k], w))
                return 0;
        if (n < sizeof words / sizeof words[0])
            memcpy(words[n++], w, l + 1);
    }
    /* two-letter words are too often abbreviations in the list ("rr", "pp") */
    size_t k = 0;
    for (size_t w = 0; w < n; w++)
        if (strlen(words[w]) >= 3)
            memmove(words[k++], words[w], sizeof words[0]);
    return n >= 5 && k >= 3 && none_in_word_list(words, k);
}

/* One key held: every letter the first ("kkk", "xxx"). */
static int held_key(const char *w)
{
    return w[0] && strspn(w, (char[]){w[0], 0}) == strlen(w);
}

/* A word typed by running a finger along one row of the keyboard ("asdf", "uiop", "lkj",
 * "xcvb") or holding one key ("mmm", "xxx"): three letters or more. */
static int key_run(const char *w)
{
    static const char *const rows[] = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};
    size_t l = strlen(w);
    if (l < 3)
        return 0;
    if (held_key(w))
        return 1;
    for (size_t r = 0; r < 3; r++) {
        size_t i = 0;
        while (i < l && strchr(rows[r], w[i]))
            i++;
        if (i == l)
            return 1;
    }
    return 0;
}

/* Keys run along at random among a few readable bits ("jfkd ;sl RNN ,,,, qwe rty uiop",
 * "√dk = … ;lkj ;lkj sdf", "ggjhh 的的 dk√√ 酱 ,,, ahsj"): two or more words of a key run
 * (key_run) that the word list does not hold, no more readable units beside them than
 * runs and never more than three (a word of the list or the field, a number, a Han
 * character other than a particle or a repeat), and fewer other strangers than runs. */
static int key_runs(const char *s)
{
    size_t len = strlen(s), nl = 0;
    uint8_t *f = u8_normalize(UNINORM_NFKC, (const uint8_t *)s, len, NULL, &nl);
    if (!f)
        return 0;
    char words[32][24];
    size_t n = 0, readable = 0;
    ucs4_t prev = 0;
    for (size_t i = 0; i < nl;) {
        ucs4_t c;
        int k = u8_mbtouc(&c, f + i, nl - i);
        if (k <= 0)
            break;
        if (c < 0x80 && isalpha((int)c)) {
            size_t l = 0;
            char w[24];
            while (i + l < nl && f[i + l] < 0x80 && isalpha(f[i + l])) {
                if (l < sizeof w - 1)
                    w[l] = (char)tolower(f[i + l]);
                l++;
            }
            i += l;
            prev = 0;
            if (l >= sizeof w || l < 2)
                continue;
            w[l] = '\0';
            if (field_word(w))
                readable++;
            else if (l >= 3 && n < sizeof words / sizeof words[0])
                memcpy(words[n++], w, l + 1);   /* two letters: too often an abbreviation */
            continue;
        }
        if (c < 0x80 && isdigit((int)c)) {
            while (i < nl && f[i] < 0x80 && isdigit(f[i]))
                i++;
            readable++;
            prev = 0;
            continue;
        }
        if (is_cjk(c)) {
            static const ucs4_t particles[] = {0x7684, 0x4e86, 0x5417, 0x5462, 0x554a, 0x5427,
                                               0x5440, 0x54e6, 0x55ef, 0x54c8};   /* 的了吗呢啊吧呀哦嗯哈 */
            int particle = 0;
            for (size_t m = 0; m < sizeof particles / sizeof *particles; m++)
                particle |= c == particles[m];
            readable += !particle && c != prev;
        }
        prev = c;
        i += (size_t)k;
    }
    free(f);
    unsigned char found[32] = {0};
    if (n && !in_word_list(words, n, found))
        return 0;   /* no word list: nothing is called random */
    size_t runs = 0, strangers = 0;
    for (size_t w = 0; w < n; w++) {
        /* one key held is no word, whatever the list holds ("kkk", "xxx") */
        if (found[w] && !held_key(words[w]))
            readable++;
        else if (key_run(words[w]))
            runs++;
        else
            strangers++;
    }
    return runs >= 2 && readable <= 3 && readable <= runs && strangers < runs;
}

/* Units of noise and of reading in an answer (qz_answer_mostly_noise). */
typedef struct noise_count {
    size_t noise, readable;
    size_t strong;   /* of noise: keys run along or held, sounds, Zhuyin, marks */
} noise_count;

/* A Han character a student types as a sound, not a word: 啊哦额呜啦嗯哈呀唉诶哎嘿呃 */
static int interjection(ucs4_t c)
{
    static const ucs4_t w[] = {0x554a, 0x54e6, 0x989d, 0x545c, 0x5566, 0x55ef, 0x54c8, 0x5440,
                               0x5509, 0x8bf6, 0x54ce, 0x563f, 0x5443};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++)
        if (c == w[i])
            return 1;
    return 0;
}

/* Zhuyin (ㄅ…ㄩ, its tone marks ˊˇˋ˙): typed with the Chinese input method left
 * unconverted. */
static int zhuyin(ucs4_t c)
{
    return (c >= 0x3100 && c <= 0x312f) || c == 0x02ca || c == 0x02c7 || c == 0x02cb ||
           c == 0x02d9;
}

/* A letter outside ASCII that is no CJK character nor Zhuyin (é, ç, ß, я). */
static int letter(ucs4_t c)
{
    return uc_is_alpha(c) && !is_cjk(c) && !zhuyin(c);
}

/* An ellipsis alone ("...", "…", "……", "。。。"): a pause, not noise. */
static int ellipsis(const uint8_t *a, size_t n)
{
    for (size_t i = 0; i < n;) {
        ucs4_t c;
        int k = u8_mbtouc(&c, a + i, n - i);
        if (k <= 0 || (c != '.' && c != 0x2026 && c != 0x3002))
            return 0;
        i += (size_t)k;
    }
    return 1;
}

int qz_answer_mostly_noise(const char *s)
{
    size_t nl = 0;
    uint8_t *f = u8_normalize(UNINORM_NFKC, (const uint8_t *)s, strlen(s), NULL, &nl);
    if (!f)
        return 0;
    noise_count nc = {0};
    char words[32][24];
    size_t n = 0, seen_words = 0;
    for (size_t i = 0; i < nl;) {
        ucs4_t c;
        int k = u8_mbtouc(&c, f + i, nl - i);
        if (k <= 0)
            break;
        if ((c < 0x80 && isalpha((int)c)) || (c >= 0x80 && letter(c))) {
            size_t l = 0, bytes = 0;
            int foreign = 0;   /* a letter outside ASCII: a word of another language */
            char w[24];
            while (i + bytes < nl) {
                ucs4_t d;
                int kk = u8_mbtouc(&d, f + i + bytes, nl - i - bytes);
                if (kk <= 0 || !((d < 0x80 && isalpha((int)d)) || (d >= 0x80 && letter(d))))
                    break;
                foreign |= d >= 0x80;
                if (d < 0x80 && l < sizeof w - 1)
                    w[l] = (char)tolower((int)d);
                l++;
                bytes += (size_t)kk;
            }
            i += bytes;
            if (foreign) {
                nc.readable++;   /* keys hit at random give no accented letter */
                continue;
            }
            if (l >= sizeof w)
                continue;
            w[l] = '\0';
            int again = 0;   /* the same word again ("dk dk dk", "qkv qkv"): noise */
            for (size_t m = 0; m < n && !again; m++)
                again = !strcmp(words[m], w);
            if (again) {
                nc.noise++;
                continue;
            }
            if (n < sizeof words / sizeof *words)
                memcpy(words[n++], w, l + 1);
            if (field_word(w))
                nc.readable++;
            else if (l >= 3)
                seen_words++;   /* judged against the word list below */
            continue;
        }
        if (c < 0x80 && isdigit((int)c)) {
            while (i < nl && f[i] < 0x80 && (isdigit(f[i]) || f[i] == '.'))
                i++;
            nc.readable++;
            continue;
        }
        if (is_cjk(c) || zhuyin(c)) {
            size_t run = 0, sounds = 0, marks = 0;
            ucs4_t prev = 0;
            size_t j = i;
            while (j < nl) {
                ucs4_t d;
                int kk = u8_mbtouc(&d, f + j, nl - j);
                if (kk <= 0 || !(is_cjk(d) || zhuyin(d)))
                    break;
                run++;
                sounds += interjection(d) || d == prev;   /* 啊啊啊, 呜呜呜, 啦啦啦 */
                marks += zhuyin(d);
                prev = d;
                j += (size_t)kk;
            }
            i = j;
            if (marks || sounds * 2 >= run) {
                nc.noise++;
                nc.strong++;
            }
            else
                nc.readable += (run - sounds + 1) / 2;   /* about one word in two characters */
            continue;
        }
        if (c < 0x80 ? isspace((int)c) : uc_is_property_white_space(c)) {
            i += (size_t)k;
            continue;
        }
        /* a run of marks: three or more, not an ellipsis ("////", ",,,", "；；；；", "√√√") */
        size_t j = i, marks = 0;
        while (j < nl) {
            ucs4_t d;
            int kk = u8_mbtouc(&d, f + j, nl - j);
            if (kk <= 0 || (d < 0x80 && (isalnum((int)d) || isspace((int)d))) || is_cjk(d) ||
                zhuyin(d) || (d >= 0x80 && uc_is_property_white_space(d)))
                break;
            marks++;
            j += (size_t)kk;
        }
        if (marks >= 3 && !ellipsis(f + i, j - i)) {
            nc.noise++;
            nc.strong++;
        }
        i = j > i ? j : i + (size_t)k;
    }
    free(f);
    if (seen_words) {
        unsigned char found[32] = {0};
        if (!in_word_list(words, n, found))
            return 0;   /* no word list: nothing is called random */
        for (size_t w = 0; w < n; w++) {
            if (field_word(words[w]) || strlen(words[w]) < 3)
                continue;
            if (found[w] && !key_run(words[w]))
                nc.readable++;
            else {
                nc.noise++;
                nc.strong += key_run(words[w]);
            }
        }
    }
    /* words the list does not hold alone may be another language's: a key run, a sound
     * or a run of marks must be among them */
    return nc.noise >= 2 && nc.noise >= nc.readable && nc.strong;
}

/* Shift-JIS read as Windows-1252 shows its lead bytes 0x81–0x9F as ‚ ƒ „ † ‡ ˆ ‰ Š ‹ Œ Ž
 * ˜ š › œ ž Ÿ (‚±‚ñ for こん); French or Portuguese ("Crème brûlée", "Ação") has none,
 * though its bytes may read as kanji. Typographic quotes and dashes (‘ ’ “ ” – — …) are
 * not counted: students type them. */
static int sjis_leads(const char *s)
{
    static const char *const leads[] = {"‚", "ƒ", "„", "†", "‡", "ˆ", "‰", "Š", "‹", "Œ", "Ž",
                                        "˜", "š", "›", "œ", "ž", "Ÿ"};
    for (size_t i = 0; i < sizeof leads / sizeof leads[0]; i++)
        if (strstr(s, leads[i]))
            return 1;
    return 0;
}

/* Text garbled twice (UTF-8 read as Windows-1252 and saved, then again: "Ã¢Ë†Å¡" is "√"),
 * or U+FFFD itself read as Mac Roman ("ÔøΩÔøΩ"): one layer taken off, the rest is
 * garbled text or missing-glyph marks. Bytes of the first layer that are no UTF-8 are
 * dropped. */
static int garbled_deeper(const char *s, size_t len)
{
    static const char *const legacy[] = {"CP1252", "MACINTOSH"};
    for (size_t k = 0; k < sizeof legacy / sizeof *legacy; k++) {
        size_t n = 0, m = 0, bad = 0;
        char *bytes = convert(s, len, "UTF-8", legacy[k], 0, &n, &bad);
        if (!bytes)
            continue;
        char *text = convert(bytes, n, "UTF-8", "UTF-8", 1, &m, &bad);
        free(bytes);
        if (!text)
            continue;
        size_t wide = 0;
        for (size_t i = 0; i < m; i++)
            wide += (unsigned char)text[i] >= 0xc0;
        int r = m && (shades(text, m) >= 2 ||
                      (k == 0 && wide >= 3 && reads_back(text, m, "CP1252", "UTF-8")));
        free(text);
        if (r)
            return 1;
    }
    return 0;
}

/* What a program pasted in place of text: an image as a data URL
 * ("data:image/png;base64,iVBOR…"), a script's "[object Object]". */
static int machine_paste(const char *s)
{
    while (*s == ' ')
        s++;
    if (!strncasecmp(s, "data:", 5) && strstr(s, ";base64,"))
        return 1;
    size_t l = strlen(s);
    while (l && s[l - 1] == ' ')
        l--;
    return l == strlen("[object Object]") && !strncasecmp(s, "[object Object]", l);
}

int qz_answer_unreadable_text(const char *s)
{
    size_t len = strlen(s);
    if (!len || u8_check((const uint8_t *)s, len))
        return 0;
    if (shades(s, len) >= 2 || machine_paste(s))
        return 1;
    size_t wide = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        wide += *p >= 0xc0;
    if (wide >= 3 && (reads_back(s, len, "CP1252", "UTF-8") || reads_back(s, len, "CP936", "UTF-8") ||
                      (sjis_leads(s) && reads_back(s, len, "CP1252", "SHIFT_JIS")) ||
                      garbled_deeper(s, len)))
        return 1;
    return keyboard_mash(s) || key_runs(s);
}

/* The Windows-1252 byte of character c, or -1: Latin-1 and the C1 controls (what a
 * decoder keeps of the five bytes Windows-1252 leaves undefined) as themselves, and the
 * 27 signs of 0x80–0x9F. */
static int cp1252_byte(ucs4_t c)
{
    static const unsigned short signs[32] = {
        0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
        0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013,
        0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178};
    if (c <= 0xff)
        return (int)c;
    for (int b = 0; b < 32; b++)
        if (signs[b] && signs[b] == c)
            return 0x80 + b;
    return -1;
}

char *qz_answer_repaired(const char *s)
{
    size_t len = strlen(s), n = 0;
    if (!len || u8_check((const uint8_t *)s, len))
        return NULL;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    /* every character back to its byte; one Windows-1252 has none (a √ typed after the
     * garbling) stays as it is */
    int moved = 0;
    for (const uint8_t *p = (const uint8_t *)s, *e = p + len; p < e;) {
        ucs4_t c;
        int k = u8_mbtouc(&c, p, (size_t)(e - p));
        int b = c >= 0x80 ? cp1252_byte(c) : (int)c;
        if (b >= 0) {
            out[n++] = (char)b;
            moved |= b >= 0x80;
        } else {
            memcpy(out + n, p, (size_t)k);
            n += (size_t)k;
        }
        p += k > 0 ? k : 1;
    }
    out[n] = '\0';
    int ok = moved;   /* no escape codes made of the bytes: nothing is shown back raw */
    for (size_t i = 0; i < n; i++)
        ok &= !((unsigned char)out[i] < 0x20 && out[i] != '\n' && out[i] != '\t') && out[i] != 0x7f;
    /* what it reads as: whole UTF-8, one character at least outside ASCII, all of the
     * kinds a student writes (text never garbled, "café", "it’s", is not whole UTF-8
     * once its characters are bytes again; a C1 control is not plausible) */
    size_t wide = 0, cjk, plausible = 0;
    ok = ok && !u8_check((const uint8_t *)out, n);
    if (ok)
        count_kinds(out, n, &wide, &cjk, &plausible);
    if (!ok || !wide || plausible < wide || qz_answer_unreadable_text(out)) {
        free(out);
        return NULL;
    }
    return out;
}

/* out, o bytes long, ended and returned when something changed; else freed, NULL. */
static char *changed_or_null(char *out, size_t o, int changed)
{
    out[o] = '\0';
    if (!changed) {
        free(out);
        return NULL;
    }
    return out;
}

/* An emoji: a pictograph (Unicode's Extended_Pictographic: faces, hands, ✌, ✅; not
 * © and ®), with its skin tone, the joiner and variation selector that build it, a
 * flag's letters or a tag. */
static int emoji_mark(ucs4_t c)
{
    return (c >= 0x2000 && uc_is_property_extended_pictographic(c)) || uc_is_property_emoji_modifier(c) ||
           (c >= 0x1F1E6 && c <= 0x1F1FF) || c == 0x200D || c == 0xFE0F || (c >= 0xE0020 && c <= 0xE007F);
}

char *qz_answer_without_emoji(const char *s)
{
    size_t len = strlen(s);
    if (u8_check((const uint8_t *)s, len))
        return NULL;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    int changed = 0, run = 0;
    for (size_t i = 0; i < len;) {
        ucs4_t c;
        int n = u8_mbtouc(&c, (const uint8_t *)s + i, len - i);
        if (emoji_mark(c)) {
            if (!run && o && out[o - 1] != ' ')
                out[o++] = ' ';
            changed = run = 1;
        } else if (run && c == ' ' && o && out[o - 1] == ' ') {
            run = 0;   /* "softmax 😂 (…": one space for the run and the spaces around it */
        } else {
            memcpy(out + o, s + i, (size_t)n);
            o += (size_t)n;
            run = 0;
        }
        i += (size_t)n;
    }
    while (changed && o && out[o - 1] == ' ')
        o--;
    return changed_or_null(out, o, changed);
}

/* The marks that end a statement or a part of one, in both languages. */
static const char *const statement_marks[] = {".", ";", ":", ",", "!", "?", "。", "；", "：",
                                              "，", "！", "？", "、"};

/* Is the last character written to out[0, o) (spaces aside) a mark that already parts
 * two statements? */
static int parted(const char *out, size_t o)
{
    while (o && out[o - 1] == ' ')
        o--;
    if (!o)
        return 1;
    for (size_t i = 0; i < sizeof statement_marks / sizeof *statement_marks; i++) {
        size_t l = strlen(statement_marks[i]);
        if (o >= l && !memcmp(out + o - l, statement_marks[i], l))
            return 1;
    }
    if ((o >= 1 && out[o - 1] == '(') || (o >= 3 && !memcmp(out + o - 3, "（", 3)))
        return 1;   /* an opening bracket: what follows starts a part */
    return 0;
}

/* Does the bold text at s (after its opening mark, c the mark's character) label what
 * follows: a colon at its end or right after it ("**Q来源**：", "**本质区别：**")? */
static int bold_label(const char *s, char c)
{
    const char *end = s;
    while (*end && !(end[0] == c && end[1] == c))
        end++;
    if (!*end)
        return 0;
    const char *after = end + 2;
    while (*after == ' ')
        after++;
    size_t l = strlen("：");
    return (end > s && end[-1] == ':') || (end - s >= (long)l && !memcmp(end - l, "：", l)) ||
           *after == ':' || !strncmp(after, "：", l);
}

/* The bytes of the emoji (pictographs and what builds them) that start s, or 0. */
static size_t emoji_run(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        ucs4_t c;
        int n = u8_mbtouc(&c, (const uint8_t *)s + i, len - i);
        if (n <= 0 || !emoji_mark(c))
            break;
        i += (size_t)n;
    }
    return i;
}

/* Does s start with a mark that parts two statements (then no other is added)? */
static int parted_at(const char *s)
{
    for (size_t i = 0; i < sizeof statement_marks / sizeof *statement_marks; i++)
        if (!strncmp(s, statement_marks[i], strlen(statement_marks[i])))
            return 1;
    return *s == ')' || !strncmp(s, "）", 3);   /* a closing bracket ends the part before */
}

/* Does the item at s (after a hyphen bullet "- ") open with a label: a colon after a name
 * of 30 bytes at most, no punctuation before it ("- RNN：…", "- Self-Attention: …")? */
static int dash_label(const char *s)
{
    for (size_t i = 0; s[i] && i < 30; i++) {
        if (s[i] == ':' || !strncmp(s + i, "：", strlen("：")))
            return i > 0;
        if (strchr(".,;!?()", s[i]) || !strncmp(s + i, "，", strlen("，")) ||
            !strncmp(s + i, "。", strlen("。")))
            return 0;
    }
    return 0;
}

/* The bytes of a list's bullet at s (•, ●, ▪, ◦, ‣, ∙), or 0. */
static size_t bullet_at(const char *s)
{
    static const char *const bullets[] = {"•", "●", "▪", "◦", "‣", "∙"};
    for (size_t i = 0; i < sizeof bullets / sizeof *bullets; i++)
        if (!strncmp(s, bullets[i], strlen(bullets[i])))
            return strlen(bullets[i]);
    return 0;
}

/* Is byte c of s (or the start or end) no letter, digit or closing bracket? */
static int emphasis_edge(const char *s, size_t c, size_t len)
{
    if (c >= len)
        return 1;
    unsigned char ch = (unsigned char)s[c];
    return ch != ')' && ch != ']' && ch != '*' && ch != '_' && (ch >= 0x80 || !isalnum(ch));
}

/* Is the "**" or "__" at byte i of s (len bytes) Markdown emphasis: a mark that opens after
 * a space, a mark or the start, or closes before one? A power in code ("e**0.3",
 * "2**-1", "d_k**.5", "math.e ** 0.5") is not. */
static int emphasis_at(const char *s, size_t i, size_t len)
{
    if (!((s[i] == '*' || s[i] == '_') && s[i + 1] == s[i] && s[i + 2] != s[i]))
        return 0;
    int opens = (i == 0 || emphasis_edge(s, i - 1, len)) && i + 2 < len && s[i + 2] != ' ';
    int closes = i && s[i - 1] != ' ' && emphasis_edge(s, i + 2, len) && s[i + 2] != '-' &&
                 s[i + 2] != '+' && s[i + 2] != '(' &&
                 !(s[i + 2] == '.' && isdigit((unsigned char)s[i + 3]));   /* d_k**.5 */
    return opens || closes;
}

char *qz_answer_unmarked(const char *s)
{
    size_t len = strlen(s);
    char *out = malloc(2 * len + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    int changed = 0, bold = 0;
    for (size_t i = 0; i < len;) {
        int start = i == 0 || s[i - 1] == ' ' || s[i - 1] == '\n';
        size_t hashes = 0;
        while (start && s[i + hashes] == '#')
            hashes++;
        if (emphasis_at(s, i, len)) {
            if (!bold && start && !parted(out, o) && bold_label(s + i + 2, s[i])) {
                /* "…解码器 **K、V来源**：…": a label opens an item; "is **enough**" not */
                memcpy(out + o, "; ", 2);
                o += 2;
            }
            bold = !bold;
            changed = 1;
            i += 2;
        } else if (hashes && hashes <= 6 && (s[i + hashes] == ' ' || !s[i + hashes])) {
            if (!parted(out, o)) {   /* a heading: "## √dₖ 的作用 …" */
                memcpy(out + o, "; ", 2);
                o += 2;
            }
            changed = 1;
            i += hashes + (s[i + hashes] == ' ');
        } else if (start && (s[i] == '-' || s[i] == '*') && s[i + 1] == ' ' &&
                   (i + 2 < len && (s[i + 2] == '*' || s[i + 2] == '_' ||
                                    (s[i] == '-' && dash_label(s + i + 2))))) {
            /* a bullet before a bold label, "- **RNN**：…", or a label, "- RNN：…" */
            if (!parted(out, o)) {
                memcpy(out + o, "; ", 2);
                o += 2;
            }
            changed = 1;
            i += 2;
        } else if (start && bullet_at(s + i) && (s[i + bullet_at(s + i)] == ' ' || !s[i + bullet_at(s + i)])) {
            if (!parted(out, o)) {   /* a bullet opens an item: "… (n steps) • Self-attention: …" */
                memcpy(out + o, "; ", 2);
                o += 2;
            }
            changed = 1;
            i += bullet_at(s + i);
        } else if (emoji_run(s + i, len - i)) {
            /* "…越传越歪😂 自注意力是…": an emoji between two statements ends the first */
            size_t n = emoji_run(s + i, len - i), j = i + n;
            int before = o && !parted(out, o);
            memcpy(out + o, s + i, n);
            o += n;
            i = j;
            while (j < len && s[j] == ' ')
                j++;
            if (before && j < len && !parted_at(s + j)) {
                memcpy(out + o, "; ", 2);
                o += 2;
                changed = 1;
            }
        } else {
            out[o++] = s[i++];
        }
    }
    return changed_or_null(out, o, changed);
}

char *qz_answer_unbolded(const char *s)
{
    size_t len = strlen(s), o = 0;
    if (!strstr(s, "**") && !strstr(s, "__"))
        return NULL;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    int changed = 0;
    for (size_t i = 0; i < len;) {
        if (emphasis_at(s, i, len)) {
            changed = 1;
            i += 2;
        } else {
            out[o++] = s[i++];
        }
    }
    return changed_or_null(out, o, changed);
}

/* Does a struck span stand apart at byte c of s (an edge, a space, or a mark that is no
 * letter, digit or dot)? */
static int struck_edge(const char *s, size_t c)
{
    unsigned char ch = (unsigned char)s[c];
    return !ch || ch == ' ' || (ch < 0x80 && !isalnum(ch) && ch != '.' && ch != '~') ||
           (ch >= 0xe3 && ch <= 0xef && !strncmp(s + c, "\xef\xbc", 2)) ||   /* ，（ ） */
           !strncmp(s + c, "\xe3\x80", 2) || qz_han_len(s + c) ||   /* 。、 and Han: a new word */
           ch >= 0xf0;   /* as an emoji is */
}

/* A note right after a struck span saying so ("~~最后一个 token~~（划掉）", "~~K~~ (crossed
 * out)"): its length with the spaces before it, 0 if none. It is no correction of what
 * came before the span: the span itself is what it takes back. */
static size_t struck_note(const char *s)
{
    static const char *const notes[] = {"(划掉)", "（划掉）", "(删掉)", "（删掉）", "(删去)", "（删去）",
                                        "(删除)", "（删除）", "(crossed out)", "（crossed out）",
                                        "(struck out)", "(struck)", "(deleted)", "(scratched)",
                                        "[crossed out]", "[struck out]", "[deleted]", NULL};
    size_t sp = strspn(s, " ");
    for (size_t k = 0; notes[k]; k++)
        if (!strncasecmp(s + sp, notes[k], strlen(notes[k])))
            return sp + strlen(notes[k]);
    return 0;
}

char *qz_answer_unstruck(const char *s)
{
    /* a Chinese input method types the full-width ～～ for ~~ */
    if (strstr(s, "～～")) {
        char *half = strdup(s);
        if (!half)
            return NULL;
        size_t o = 0;
        for (size_t i = 0; s[i];) {
            if (!strncmp(s + i, "～～", strlen("～～"))) {
                half[o++] = '~';
                half[o++] = '~';
                i += strlen("～～");
            } else {
                half[o++] = s[i++];
            }
        }
        half[o] = '\0';
        char *out = strstr(half, "～") ? NULL : qz_answer_unstruck(half);
        free(half);
        return out;
    }
    if (!strstr(s, "~~") || strstr(s, "~~~"))
        return NULL;
    size_t n = strlen(s), o = 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    int struck = 0, kept = 0;
    for (size_t i = 0; i < n;) {
        if (strncmp(s + i, "~~", 2)) {
            kept |= isalnum((unsigned char)s[i]) || (unsigned char)s[i] >= 0x80;
            out[o++] = s[i++];
            continue;
        }
        const char *e = strstr(s + i + 2, "~~");
        size_t after = e ? (size_t)(e - s) + 2 : 0;
        /* the character before the span, from its first byte */
        size_t b = i ? i - 1 : 0;
        while (b > 0 && ((unsigned char)s[b] & 0xc0) == 0x80)
            b--;
        int apart_before = i == 0 || struck_edge(s, b);
        if (!e || e == s + i + 2 || !apart_before || !struck_edge(s, after)) {
            free(out);
            return NULL;
        }
        i = after + struck_note(s + after);
        if ((!o || out[o - 1] == ' ') && s[i] == ' ')
            i++;   /* one space between what stands on either side */
        struck = 1;
    }
    out[o] = '\0';
    if (!struck) {
        free(out);
        return NULL;
    }
    if (!kept)
        out[0] = '\0';   /* all of it struck out: nothing was answered */
    return out;
}

/* Does s hold, outside bytes [a, b), nothing an answer is made of: no number, at most
 * `words` Latin words of two letters or more and 4 Chinese characters? ("see pic: 0.14 0.17" holds its values.) */
static int nothing_else(const char *s, size_t a, size_t b, int words)
{
    int latin = 0, han = 0;
    for (size_t i = 0; s[i];) {
        if (i >= a && i < b) {
            i = b;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        /* a number of its own; digits inside a name ("IMG_2031.jpg") are the name's */
        if (isdigit(c) && (!i || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')))
            return 0;
        if (isdigit(c)) {
            i++;
            continue;
        }
        if (isalpha(c)) {   /* a word; one letter alone ("Q:", "K:") is a label */
            size_t l = 0;
            while (isalpha((unsigned char)s[i + l]))
                l++;
            latin += l > 1;
            i += l;
            continue;
        }
        size_t h = qz_han_len(s + i);
        if (h) {
            han++;
            i += h;
            continue;
        }
        i++;
    }
    return latin <= words && han <= 4;
}

/* A word pointing to a place no grader sees, then that place, and nothing else an answer
 * is made of: "see pic", "check the formula on slide 14", "look at my notes", 见草稿纸,
 * 看我的笔记, 参考课件; or a picture that did not come through ("(图片无法显示)", "image
 * not shown"). Only a few small words may stand between the pointer and the place, so
 * "can see the whole source picture" is no pointer; and an answer beside the pointer
 * ("see pic: 0.14 0.17", "0.14 0.17（过程见草稿纸）", 看图可知：…) is graded. */
static int points_to_place(const char *s)
{
    static const char *const lost[] = {"图片无法显示", "图片加载失败", "图片显示不了", "图挂了",
                                       "image not shown", "image missing", "image failed",
                                       "picture missing", "picture not shown", NULL};
    /* words are read without a final '.': "cf." is "cf", "fig." is "fig" */
    static const char *const en_point[] = {"see", "look at", "refer to", "check", "cf", "in the",
                                           "on the", NULL};
    static const char *const en_skip[] = {"the", "my", "our", "attached", "this", "that", "a",
                                          "formula", "answer", "equation", "on", "in", "below",
                                          "above", "drawn", "hand-drawn", "handwritten",
                                          "previous", "next", "last", NULL};
    static const char *const en_place[] = {"pic", "pics", "picture", "pictures", "image", "img",
                                           "figure", "fig", "diagram", "drawing", "sketch",
                                           "photo", "screenshot", "slide", "slides", "notes",
                                           "notebook", "whiteboard", "board", "scratch", "draft",
                                           "attachment", "handout", "link", "page", NULL};
    static const char *const zh_point[] = {"见", "看", "参见", "参考", "详见", "请看", NULL};
    static const char *const zh_mid[] = {"", "我的", "下", "上", "附", "这张", "那张", "下面的",
                                         "上面的", "上页", "上一页", "下页", "下一页", "前一页",
                                         "前面的", "后面的", "第一页", NULL};
    static const char *const zh_place[] = {"图", "草稿", "笔记", "课件", "幻灯片", "ppt", "PPT",
                                           "附件", "黑板", "板书", "链接", "照片", "截图", NULL};
    for (size_t i = 0; lost[i]; i++) {
        const char *p = strcasestr(s, lost[i]);
        if (p && nothing_else(s, (size_t)(p - s), (size_t)(p - s) + strlen(lost[i]), 0))
            return 1;
    }
    char buf[256];
    for (size_t p = 0; zh_point[p]; p++)
        for (size_t m = 0; zh_mid[m]; m++)
            for (size_t k = 0; zh_place[k]; k++) {
                snprintf(buf, sizeof buf, "%s%s%s", zh_point[p], zh_mid[m], zh_place[k]);
                const char *at = strstr(s, buf);
                /* the place's own number goes with it: 见图 2 */
                if (at) {
                    size_t b = (size_t)(at - s) + strlen(buf);
                    b += strspn(s + b, " ");
                    b += strspn(s + b, "0123456789");
                    if (nothing_else(s, (size_t)(at - s), b, 0))
                        return 1;
                }
            }
    /* English: words of letters, in order, with where they stand */
    char w[24][24];
    size_t from[24], to[24], n = 0;
    for (const char *q = s; *q && n < 24;) {
        while (*q && !isalpha((unsigned char)*q))
            q++;
        if (!*q)
            break;
        size_t l = 0;
        from[n] = (size_t)(q - s);
        while (*q && (isalpha((unsigned char)*q) || *q == '-' || *q == '.') && l + 1 < sizeof w[0])
            w[n][l++] = (char)tolower((unsigned char)*q++);
        while (*q && (isalpha((unsigned char)*q) || *q == '-' || *q == '.'))
            q++;
        while (l && w[n][l - 1] == '.')
            l--;
        w[n][l] = '\0';
        to[n] = (size_t)(q - s);
        if (l)
            n++;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t p = 0; en_point[p]; p++) {
            char a[24], b[24] = "";
            if (sscanf(en_point[p], "%23s %23s", a, b) < 1 || strcmp(w[i], a) ||
                (*b && (i + 1 >= n || strcmp(w[i + 1], b))))
                continue;
            size_t j = i + 1 + (*b != 0);
            for (size_t skipped = 0; j < n && skipped <= 3; j++, skipped++) {
                int place = 0;
                for (size_t k = 0; en_place[k] && !place; k++)
                    place = !strcmp(w[j], en_place[k]);
                if (place) {
                    /* the place's own number goes with it: "slide 14", "fig. 2" */
                    size_t e = to[j] + strspn(s + to[j], " .");
                    e += strspn(s + e, "0123456789");
                    if (nothing_else(s, from[i], e, 1))
                        return 1;
                    break;
                }
                int skip = 0;
                for (size_t k = 0; en_skip[k] && !skip; k++)
                    skip = !strcmp(w[j], en_skip[k]);
                if (!skip)
                    break;
            }
        }
    return 0;
}

int qz_answer_points_elsewhere(const char *s)
{
    /* marks of a picture that no pointer word names; "see the figure", 见图, 见附件 and
     * the like are points_to_place's */
    static const char *const marks[] = {"[图片]", "[图]", "[圖片]", "見圖", "見附件", "截图", "截圖",
                                        "[image", "[img", "screenshot", "see attached", "[figure",
                                        "attached photo", ".jpg", ".jpeg", ".png", NULL};
    if (u8_mbsnlen((const uint8_t *)s, strlen(s)) > 40)
        return 0;
    for (size_t i = 0; marks[i]; i++)
        if (strcasestr(s, marks[i]))
            return 1;
    return points_to_place(s);
}

/* s without the numbers of its parts and an answer's opening ("(1)(2) 同 q4", "答：同上",
 * "Ans: see q2"). */
static const char *after_opening(const char *s)
{
    static const char *const opens[] = {"ans:-", "ans:", "ans -", "answer:", "答：", "答:", "答 ",
                                        NULL};
    for (int again = 1; again;) {
        again = 0;
        while (*s == ' ' || *s == '\n')
            s++;
        if (*s == '(' && s[1] && s[2] == ')') {   /* (1) */
            s += 3;
            again = 1;
        }
        for (size_t i = 0; opens[i] && !again; i++)
            if (!strncasecmp(s, opens[i], strlen(opens[i]))) {
                s += strlen(opens[i]);
                again = 1;
            }
    }
    return s;
}

int qz_answer_no_attempt(const char *s)
{
    /* pointing to another answer, the slides or a message */
    static const char *const pointing[] = {"同上", "同 q", "同q", "同第", "同前", "见上", "见前", "参见",
                                           "如上", "see q", "see above", "see my", "see the slides",
                                           "see slides", "see thread", "see the thread", "see previous",
                                           "see earlier", "see prev", "same as q", "same as above",
                                           "as above", NULL};
    /* saying it will come later (回头看, "look at it later", only as the answer's end: 回头看原文
     * is an answer) */
    static const char *const later[] = {"晚点补", "回头补", "待补", "稍后补", "之后补", "改天补", "todo",
                                        "tbd", "answer later", "will answer later", "fill in later",
                                        NULL};
    static const char *const later_end[] = {"回头看", "回头再看", "回头再说", "晚点看", NULL};
    /* agreeing or acknowledging, nothing else (letters and digits only, folded) */
    static const char *const nods[] = {"lgtm", "+1", "收到", "ok", "okay", "好的", "mark", "mark一下",
                                       "+1楼上", "楼上", "同意", "赞", "顶", "略", NULL};
    if (u8_mbsnlen((const uint8_t *)s, strlen(s)) > 60)
        return 0;
    const char *a = after_opening(s);
    for (size_t i = 0; pointing[i]; i++)
        if (!strncasecmp(a, pointing[i], strlen(pointing[i])))
            return 1;
    for (size_t i = 0; later[i]; i++)
        if (strcasestr(s, later[i]))
            return 1;
    for (size_t i = 0; later_end[i]; i++) {
        const char *p = strstr(s, later_end[i]);
        if (!p)
            continue;
        p += strlen(later_end[i]);
        while (*p && (*p == ' ' || ispunct((unsigned char)*p) || (unsigned char)*p >= 0x80) &&
               !qz_han_len(p))   /* no character after */
            p++;
        if (!*p)
            return 1;
    }
    char folded[128];
    size_t o = 0;
    for (const char *p = a; *p && o + 4 < sizeof folded;) {
        ucs4_t c;
        int n = u8_mbtouc(&c, (const uint8_t *)p, strlen(p));
        if (n <= 0)
            return 0;
        if (c == '+' || (c < 0x80 && isalnum((int)c)) || qz_is_han(c)) {
            for (int k = 0; k < n; k++)
                folded[o++] = (char)(c < 0x80 ? tolower((unsigned char)p[k]) : p[k]);
        }
        p += n;
    }
    folded[o] = '\0';
    for (size_t i = 0; nods[i]; i++)
        if (!strcmp(folded, nods[i]))
            return 1;
    return 0;
}

int qz_answer_lost_characters(const char *s)
{
    static const char *const marks[] = {"▯", "□", "\xef\xbf\xbd", "锟斤拷", "烫烫烫", "屯屯屯"};
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (strstr(s, marks[i]))
            return 1;
    /* ■ blots out what could not be read ("0.■■", "作■"); alone between spaces it is a
     * bullet ("■ Q 来自 decoder") */
    for (const char *p = strstr(s, "■"); p; p = strstr(p + 1, "■")) {
        int open_before = p == s || p[-1] == ' ' || p[-1] == '\n';
        int open_after = !p[3] || p[3] == ' ' || p[3] == '\n';
        if (!open_before || !open_after)
            return 1;
    }
    return 0;
}
