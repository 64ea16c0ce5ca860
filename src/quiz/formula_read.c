/* Reading a formula as students type it: one normalising pass (full-width forms as a
 * Chinese input method types them, and the wrong characters it offers for the formula's
 * words, 跟号 for 根号; Unicode operators, LaTeX delimiters, sizing and font commands; the
 * matrix languages' marks: MATLAB's and Julia's element-wise dot, Mathematica's comments
 * and named characters) and a tokeniser that knows the words of English and Chinese that
 * stand for operators ("times", "over", 乘以, 除以, 根号, 的转置). Every token keeps
 * the bytes of the original answer it came from. See quiz/formula_impl.h. */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/formula_impl.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistr.h>

#include "quiz/code.h"
#include "quiz/imeslip.h"
#include "quiz/lang.h"

/* ---- normalising pass ---- */

typedef struct nbuf {
    char *s;
    long *at, *end;     /* per byte of s: the original bytes it came from */
    size_t n, cap;
    int elementwise;    /* an elementwise product before V was read as a product */
} nbuf;

static void put(nbuf *b, const char *s, size_t len, long at, long end)
{
    for (size_t i = 0; i < len && b->n + 1 < b->cap; i++) {
        b->s[b->n] = s[i];
        b->at[b->n] = at;
        b->end[b->n] = end;
        b->n++;
    }
}

/* The character at s (NUL-terminated) and its length in bytes: U+FFFD of length 1 at
 * invalid UTF-8, 0 of length 1 at the end. */
static uint32_t utf8_next(const unsigned char *s, size_t *len)
{
    ucs4_t c;
    int n = u8_strmbtouc(&c, s);
    *len = n > 0 ? (size_t)n : 1;
    return n > 0 ? c : n == 0 ? 0 : 0xfffd;
}

/* The letter or digit a Unicode subscript stands for (ᵢ i, ⱼ j, ₖ k, ₗ l, ₀ 0), or 0. */
static char subscript_letter(uint32_t c)
{
    if (c >= 0x2080 && c <= 0x2089)
        return (char)('0' + (c - 0x2080));
    static const struct { uint32_t c; char l; } sub[] = {
        {0x2090, 'a'}, {0x2091, 'e'}, {0x2092, 'o'}, {0x2093, 'x'}, {0x2095, 'h'}, {0x2096, 'k'},
        {0x2097, 'l'}, {0x2098, 'm'}, {0x2099, 'n'}, {0x209a, 'p'}, {0x209b, 's'}, {0x209c, 't'},
        {0x1d62, 'i'}, {0x1d63, 'r'}, {0x1d64, 'u'}, {0x1d65, 'v'}, {0x2c7c, 'j'},
    };
    for (size_t i = 0; i < sizeof sub / sizeof *sub; i++)
        if (sub[i].c == c)
            return sub[i].l;
    return 0;
}

/* Unicode characters spelt in ASCII (or in the spelling the tokeniser reads). */
static const char *unicode_as(uint32_t c, char *one)
{
    if (c >= 0xff01 && c <= 0xff5e) {      /* full-width ASCII: （）／＊＝，ｄｋ */
        one[0] = (char)(c - 0xfee0);
        one[1] = '\0';
        return one;
    }
    switch (c) {
    case 0x3000: case 0x00a0: case 0x2009: case 0x202f: return " ";
    case 0x200b: case 0xfeff: return "";
    case 0x3002: case 0xff61: return ".";          /* 。 */
    case 0x3001: return ",";                        /* 、 */
    case 0x3010: case 0x3014: return "(";           /* 【 〔 */
    case 0x3011: case 0x3015: return ")";
    case 0x2212: case 0x2013: return "-";           /* − – */
    case 0x2014: return ";";                        /* — between a formula and words */
    case 0x2217: case 0x22c5: case 0x00b7: case 0x2219: case 0x2022: case 0x00d7: return "*";
    case 0x2215: case 0x2044: case 0x00f7: return "/";
    case 0x2227: case 0x02c6: return "^";           /* ∧ ˆ: a caret as input methods type it */
    case 0x1d40: case 0x1d57: return "^T";          /* ᵀ, and ᵗ typed for it */
    case 0x22a4: return "\\top ";                   /* ⊤ */
    case 0x221a: return "\\sqrt ";                  /* √ */
    case 0x2032: return "'";                        /* ′ */
    case 0x00bd: return "(1/2)";                    /* ½ */
    case 0x03c3: return "\\sigma ";                 /* σ */
    /* Greek letters that name weights or scores (α_ij = …): names, as LaTeX spells them */
    case 0x03b1: return "\\alpha";
    case 0x03b2: return "\\beta";
    case 0x03b3: return "\\gamma";
    case 0x03c9: return "\\omega";
    case 0x03c0: return "\\pi";                    /* π_ij: the probabilities */
    case 0x03c1: return "\\rho";
    case 0x03b7: return "\\eta";
    case 0x03c6: case 0x03d5: return "\\phi";
    case 0x03c8: return "\\psi";
    /* and a scale or temperature named by one ("softmax(QKᵀ/τ)V with τ = √dₖ") */
    case 0x03c4: return "\\tau";
    case 0x03bb: return "\\lambda";
    case 0x03b8: return "\\theta";
    case 0x27e8: return "(";                        /* ⟨q_i, k_j⟩: a dot product */
    case 0x27e9: return ")";
    case 0x03a3: case 0x2211: return "\\sum ";       /* Σ ∑ */
    case 0x2299: return "\\odot ";                    /* ⊙: elementwise, no matrix product */
    case 0x2218: return "\\circ ";
    case 0x2297: return "\\otimes ";
    case 0x2192: case 0x21d2: case 0x27f6: return ",";   /* → ⇒ ⟶: the next step */
    default: return NULL;
    }
}

/* LaTeX commands that only size or space or style what follows. */
static int dropped_command(const char *name, size_t len, int *transparent_group)
{
    static const char *const sizing[] = {
        "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr",
        "biggl", "biggr", "Biggl", "Biggr", "displaystyle", "textstyle", "quad", "qquad", "limits",
        "nolimits",
    };
    static const char *const fonts[] = {
        "mathrm", "text", "textrm", "textit", "textbf", "textsf", "texttt", "mathit", "mathbf",
        "mathsf", "mathtt", "mathcal", "mathbb", "mathnormal", "boldsymbol", "bm", "operatorname",
        "mathop", "rm", "bf", "it", "sf", "tt", "mbox", "hbox",
    };
    for (size_t i = 0; i < sizeof sizing / sizeof *sizing; i++)
        if (strlen(sizing[i]) == len && !memcmp(name, sizing[i], len)) {
            *transparent_group = 0;
            return 1;
        }
    for (size_t i = 0; i < sizeof fonts / sizeof *fonts; i++)
        if (strlen(fonts[i]) == len && !memcmp(name, fonts[i], len)) {
            *transparent_group = 1;
            return 1;
        }
    return 0;
}

#define MAX_BRACES 64

/* Is V (or v) the next thing after s[i] (spaces passed), a name of its own? */
static int v_next(const unsigned char *s, size_t i, size_t len)
{
    while (i < len && s[i] == ' ')
        i++;
    return i < len && (s[i] == 'V' || s[i] == 'v') &&
           (i + 1 >= len || !(isalnum(s[i + 1]) || s[i + 1] == '_'));
}

/* Does the answer say its '*' is elementwise: code whose matrix products are '@' (or
 * R's %*%), or the word (逐元素, Hadamard)? */
static int says_elementwise(const char *answer)
{
    static const char *const w[] = {"elementwise", "element-wise", "element wise", "逐元素",
                                    "按元素", "hadamard", "pointwise", "point-wise", "逐点", NULL};
    if (strstr(answer, "%*%"))
        return 1;
    for (const char *at = strchr(answer, '@'); at; at = strchr(at + 1, '@')) {
        const char *b = at;   /* Python's A @ B, not MATLAB's handle bsxfun(@rdivide, …) */
        while (b > answer && b[-1] == ' ')
            b--;
        if (b > answer && (isalnum((unsigned char)b[-1]) || strchr("_)]'", b[-1])))
            return 1;
    }
    for (size_t k = 0; w[k]; k++)
        if (strcasestr(answer, w[k]))
            return 1;
    return 0;
}

/* "_{ij}", "_{i,j}", "_{i j}", "_{j'}" at s: a subscript of index letters (three at most),
 * maybe parted by commas or spaces; its length, 0 when s holds no such subscript. */
static size_t index_subscript(const unsigned char *s)
{
    if (s[0] != '_' || s[1] != '{')
        return 0;
    size_t k = 2, letters = 0;
    for (; s[k] && s[k] != '}'; k++) {
        if (islower(s[k]))
            letters++;
        else if (s[k] != ',' && s[k] != ' ' && s[k] != '\'')
            return 0;
    }
    return s[k] == '}' && letters >= 1 && letters <= 3 ? k + 1 : 0;
}

/* ---- the matrix languages' own marks (MATLAB, Octave, Julia, R, Mathematica) ---- */

/* The functions Julia's broadcast call is written with in a formula: exp.(S), sqrt.(d). */
static int broadcast_function(const unsigned char *s, size_t i)
{
    static const char *const f[] = {"exp", "sqrt", "log", "abs", "tanh", "max", "maximum",
                                    "sum", "softmax", "inv", NULL};
    size_t a = i;
    while (a > 0 && (isalnum(s[a - 1]) || s[a - 1] == '_'))
        a--;
    if (a > 0 && s[a - 1] == '.')
        a = i;   /* a method's name (x.exp), not a function */
    for (size_t k = 0; f[k]; k++)
        if (strlen(f[k]) == i - a && !strncasecmp((const char *)s + a, f[k], i - a))
            return 1;
    return 0;
}

/* The dot at s[i] that only says "element by element" in MATLAB, Octave and Julia: of the
 * operators .* ./ .\ .^ .+ .- (after an operand, spaces allowed: "S .- maximum(S, dims=2)"),
 * of the plain transpose .' (glued to its matrix, an operator or a bracket after it: not
 * the full stop before a closing quote, "…V.'"), and of Julia's broadcast call (exp.(S)).
 * The reader's operators already mean what those do where it matters (a scalar factor, a
 * row's normaliser), so the dot goes; an element-wise product before V is flagged by the
 * caller. 1 when it is such a dot. */
static int elementwise_dot(const unsigned char *s, size_t i, size_t len)
{
    if (s[i] != '.' || i + 1 >= len || i == 0)
        return 0;
    unsigned char n = s[i + 1], b = s[i - 1];
    size_t k = i;
    while (k > 0 && s[k - 1] == ' ')
        k--;
    unsigned char before = k ? s[k - 1] : ' ';
    int glued = isalnum(b) || b == '_' || b == ')' || b == ']';
    if (n == '(')
        return isalpha(b) && broadcast_function(s, i);
    if (n == '\'') {
        size_t j = i + 2;
        while (j < len && s[j] == ' ')
            j++;
        return glued && j < len && strchr("*/)]};,+-^@.\n", s[j]);   /* (K.'./d: then the dot of ./) */
    }
    if (!(isalnum(before) || before == '_' || before == ')' || before == ']' || before == '\'') ||
        !strchr("*/\\^+-", n))
        return 0;
    return !(n == '-' && i + 2 < len && (s[i + 2] == '>' || s[i + 2] == '-'));   /* (not .->, .--) */
}

/* "<q_i, k_j>", "<q,k_j>": an inner product in ASCII angle brackets, as ⟨q_i, k_j⟩. At s
 * (a '<'): the length up to and with the '>' when two names parted by one comma stand
 * between (subscripts, primes and a transpose mark allowed), else 0 ("<-", "a < b"). */
static size_t angle_pair(const unsigned char *s, size_t len)
{
    size_t k = 1;
    int comma = 0, names = 0, in_name = 0;
    for (; k < len && k < 48 && s[k] != '>'; k++) {
        unsigned char c = s[k];
        if (isalnum(c) || c == '_' || c == '{' || c == '}' || c == '\'' || c == '^' || c == '\\') {
            names += !in_name;
            in_name = 1;
        } else if (c == ',') {
            comma++;
            in_name = 0;
        } else if (c == ' ') {
            in_name = 0;
        } else {
            return 0;
        }
    }
    return k < len && s[k] == '>' && comma == 1 && names == 2 ? k + 1 : 0;
}

/* Mathematica's named characters, as its notebooks copy them: K\[Transpose], \[Sum],
 * \[CenterDot]. At s (a backslash): the spelling the reader reads, *n the length of the
 * name with its brackets; NULL when s opens none of them (\[ then is LaTeX's display
 * math). */
static const char *mathematica_character(const char *s, size_t *n)
{
    static const struct { const char *name, *as; } ch[] = {
        {"\\[Transpose]", "^T"}, {"\\[ConjugateTranspose]", "^T"}, {"\\[HermitianConjugate]", "^T"},
        {"\\[Sum]", "\\sum "}, {"\\[CenterDot]", "*"}, {"\\[Times]", "*"}, {"\\[Alpha]", "\\alpha"},
        {"\\[Divide]", "/"}, {"\\[Sqrt]", "\\sqrt "}, {"\\[Infinity]", "inf"},
    };
    for (size_t k = 0; k < sizeof ch / sizeof *ch; k++)
        if (!strncmp(s, ch[k].name, strlen(ch[k].name))) {
            *n = strlen(ch[k].name);
            return ch[k].as;
        }
    return NULL;
}

/* The answer with full-width forms in ASCII, math delimiters ($, \[ \], \( \)) and
 * sizing commands gone, and font wrappers (\text{softmax}, \mathbf{Q}, d_{k}) without
 * their braces. An elementwise product right before V (⊙, ∘, \odot, or a '*' that
 * says_elementwise) is read as a product and flagged in b->elementwise. */
static int normalise_text(const char *answer, nbuf *b)
{
    int star_elementwise = says_elementwise(answer);
    size_t len = strlen(answer);
    b->cap = 3 * len + 16;
    b->s = malloc(b->cap);
    b->at = malloc(b->cap * sizeof *b->at);
    b->end = malloc(b->cap * sizeof *b->end);
    b->n = 0;
    if (!b->s || !b->at || !b->end)
        return AT_ENOMEM;
    unsigned char transparent[MAX_BRACES];   /* per open brace: 1 = its braces are dropped */
    int depth = 0, next_transparent = 0;
    const unsigned char *s = (const unsigned char *)answer;
    size_t i = 0, angle_close = SIZE_MAX;   /* the '>' of "<q_i, k_j>" */
    while (i < len) {
        long at = (long)i;
        if (i == angle_close) {
            put(b, ")", 1, at, at + 1);
            angle_close = SIZE_MAX;
            i++;
            continue;
        }
        if (isalpha(s[i]) && (i == 0 || !isalnum(s[i - 1]))) {   /* pinyin: "K 的 zhuanzhi" */
            const char *meant;
            size_t n = qz_ime_pinyin_at((const char *)s + i, &meant);
            if (n) {
                put(b, meant, strlen(meant), at, at + (long)n);
                i += n;
                continue;
            }
        }
        if (s[i] >= 0x80) {
            const char *meant;
            size_t n = qz_ime_slip_at((const char *)s + i, &meant);
            if (n) {   /* 跟号 typed for 根号 (quiz/imeslip.h) */
                put(b, meant, strlen(meant), at, at + (long)n);
                i += n;
                continue;
            }
            uint32_t c = utf8_next(s + i, &n);
            if ((c == 0x2299 || c == 0x2218) && v_next(s, i + n, len)) {   /* ⊙ V, ∘ V */
                put(b, " ", 1, at, at + (long)n);
                b->elementwise = 1;
                i += n;
                continue;
            }
            if (subscript_letter(c)) {   /* αᵢⱼ, Σⱼ, vⱼ, x₁: a run of subscripts is one index */
                char sub[40] = "_";
                size_t k = 1, from = i;
                while (i < len && s[i] >= 0x80 && k + 1 < sizeof sub) {
                    size_t m;
                    char l = subscript_letter(utf8_next(s + i, &m));
                    if (!l)
                        break;
                    sub[k++] = l;
                    i += m;
                }
                sub[k] = '\0';
                put(b, sub, k, at, at + (long)(i - from));
                continue;
            }
            char one[2];
            const char *as = unicode_as(c, one);
            if (c == 0x2026 && i + 2 * n <= len && utf8_next(s + i + n, &(size_t){0}) == 0x2026) {
                put(b, ";", 1, at, at + (long)(2 * n));   /* "……": a Chinese pause, words follow */
                i += 2 * n;
                continue;
            }
            if (c == 0x2022 && (i == 0 || s[i - 1] == '\n' || (i >= 2 && s[i - 1] == ' ' && s[i - 2] == ' ')))
                as = ";";   /* "…)·V  • QKᵀ → scores • …": a bullet opens an item of a list */
            if (as)
                put(b, as, strlen(as), at, at + (long)n);
            else
                put(b, (const char *)s + i, n, at, at + (long)n);
            i += n;
            continue;
        }
        char c = (char)s[i];
        /* "[Q;K]", "[q_i; k_j]": a concatenation (additive attention), not a statement
         * break inside a bracket; read as a function of its parts, which no right formula
         * has */
        if (c == '[') {
            size_t j = i + 1;
            int semi = 0;
            while (j < len && s[j] != ']' && s[j] != '[' && s[j] != '(' && s[j] != ')')
                semi |= s[j++] == ';';
            if (semi && j < len && s[j] == ']') {
                put(b, "cat(", 4, at, at + 1);
                for (size_t k = i + 1; k < j; k++)
                    put(b, s[k] == ';' ? "," : (const char *)s + k, 1, (long)k, (long)k + 1);
                put(b, ")", 1, (long)j, (long)j + 1);
                i = j + 1;
                continue;
            }
        }
        /* MATLAB's and Julia's element-wise dot (.* ./ .^ .' exp.(S)) goes; an
         * element-wise product before V is flagged, as ⊙ V is */
        if (c == '.' && elementwise_dot(s, i, len)) {
            if (s[i + 1] == '*' && v_next(s, i + 2, len)) {
                put(b, " ", 1, at, at + 2);
                b->elementwise = 1;
                i++;
            }
            i++;
            continue;
        }
        /* Mathematica's comment (* … *) goes; its named characters are read as what they
         * stand for (K\[Transpose]: Kᵀ) */
        if (c == '(' && i + 1 < len && s[i + 1] == '*') {
            const char *close = strstr((const char *)s + i + 2, "*)");
            if (close) {
                size_t e = (size_t)(close - (const char *)s) + 2;
                put(b, " ", 1, at, (long)e);
                i = e;
                continue;
            }
        }
        if (c == '@' && i + 1 < len && s[i + 1] == '.' && (i + 2 == len || s[i + 2] == ' ' || s[i + 2] == '(')) {
            put(b, " ", 1, at, at + 2);   /* Julia's @. (every operation element-wise) */
            i += 2;
            continue;
        }
        size_t named;
        const char *named_as = c == '\\' ? mathematica_character((const char *)s + i, &named) : NULL;
        if (named_as) {
            put(b, named_as, strlen(named_as), at, at + (long)named);
            i += named;
            continue;
        }
        /* p(j|i), the statistician's weight of key j for query i: p_ij */
        if (c == '(' && i > 0 && isalpha(s[i - 1]) && i + 4 < len && islower(s[i + 1]) && s[i + 2] == '|' &&
            islower(s[i + 3]) && s[i + 4] == ')') {
            char sub[4] = {'_', (char)s[i + 3], (char)s[i + 1], 0};
            put(b, sub, 3, at, at + 5);
            i += 5;
            continue;
        }
        size_t angle = c == '<' && angle_close == SIZE_MAX ? angle_pair(s + i, len - i) : 0;
        if (angle) {   /* <q_i, k_j>: read as ⟨q_i, k_j⟩ */
            put(b, "(", 1, at, at + 1);
            angle_close = i + angle - 1;
            i++;
            continue;
        }
        /* in code that writes the matrix product with @, or beside words that call it
         * elementwise, a single * before V multiplies element by element
         * ("softmax(Q @ K.T / …) * V"); so does \odot before V */
        if (c == '*' && star_elementwise && (i + 1 >= len || s[i + 1] != '*') &&
            (i == 0 || s[i - 1] != '*') && v_next(s, i + 1, len)) {
            put(b, " ", 1, at, at + 1);
            b->elementwise = 1;
            i++;
            continue;
        }
        if (c == '\\' && !strncmp((const char *)s + i, "\\odot", 5) && !isalpha(s[i + 5]) &&
            v_next(s, i + 5, len)) {
            put(b, " ", 1, at, at + 5);
            b->elementwise = 1;
            i += 5;
            continue;
        }
        if (c == '\\' && i + 1 < len && isalpha(s[i + 1])) {
            size_t j = i + 1;
            while (j < len && isalpha(s[j]))
                j++;
            int tg = 0;
            if (j < len && s[j] == '*')
                j++;      /* \operatorname* */
            if (dropped_command((const char *)s + i + 1, j - i - 1 - (s[j - 1] == '*'), &tg)) {
                next_transparent = tg;
                if (!tg && j < len && s[j] == '.')
                    j++;  /* \left. : an invisible delimiter */
                if (!tg)  /* a font command leaves its text glued: d_{\text{k}} */
                    put(b, " ", 1, at, (long)j);
                i = j;
                continue;
            }
            if ((j - i == 6 && !strncmp((const char *)s + i, "\\begin", 6)) ||
                (j - i == 4 && !strncmp((const char *)s + i, "\\end", 4))) {
                if (j < len && s[j] == '{') {   /* \begin{equation}: the whole name goes */
                    while (j < len && s[j] != '}')
                        j++;
                    j += j < len;
                }
                put(b, "\n", 1, at, (long)j);
                i = j;
                continue;
            }
            put(b, (const char *)s + i, j - i, at, (long)j);
            i = j;
            continue;
        }
        if (c == '\\' && i + 1 < len) {
            char d = (char)s[i + 1];
            const char *as = NULL;
            if (strchr("[]()", d))
                as = " ";                /* \[ \] \( \): display and inline math */
            else if (strchr(",;:! ", d))
                as = " ";                /* thin and other spaces */
            else if (d == '\\')
                as = "\n";               /* a LaTeX line break */
            else if (d == '{')
                as = "(";
            else if (d == '}')
                as = ")";
            if (as) {
                put(b, as, strlen(as), at, at + 2);
                i += 2;
                continue;
            }
        }
        if (c == '$' || c == '&' || c == '`' || c == '~') {
            put(b, " ", 1, at, at + 1);
            i++;
            continue;
        }
        size_t sub = index_subscript(s + i);
        if (sub) {   /* a_{i,j}, \alpha_{i j}: a_ij; \alpha_{ij}v_j: a_ij v_j */
            put(b, "_", 1, at, at + 1);
            for (size_t k = i + 2; k + 1 < i + sub; k++)
                if (islower(s[k]) || s[k] == '\'')
                    put(b, (const char *)s + k, 1, (long)k, (long)k + 1);
            i += sub;
            if (isalnum(s[i]) || s[i] == '\\')
                put(b, " ", 1, (long)i, (long)i);
            continue;
        }
        if (c == '_' && i + 1 < len && s[i + 1] == '{') {   /* d_{k}: d_k */
            put(b, "_", 1, at, at + 1);
            next_transparent = 1;
            i++;
            continue;
        }
        if (c == '{') {
            int tr = next_transparent;
            next_transparent = 0;
            if (depth < MAX_BRACES)
                transparent[depth] = (unsigned char)tr;
            depth++;
            if (!tr)
                put(b, "{", 1, at, at + 1);
            i++;
            continue;
        }
        if (c == '}') {
            int tr = depth > 0 && depth <= MAX_BRACES && transparent[depth - 1];
            if (depth > 0)
                depth--;
            if (!tr)
                put(b, "}", 1, at, at + 1);
            i++;
            continue;
        }
        if (!isspace((unsigned char)c))
            next_transparent = 0;
        put(b, &c, 1, at, at + 1);
        i++;
    }
    b->s[b->n] = '\0';
    return AT_OK;
}

/* ---- tokens ---- */

typedef struct word {
    const char *text;
    enum ftok kind;
    int var;
    const char *name;   /* F_NAME: the name it stands for */
} word;

/* Words and phrases, longest first where one starts another. Latin ones match whole
 * words, without regard to case. */
static const word words[] = {
    {"the square root of", F_SQRT, 0, NULL}, {"square root of", F_SQRT, 0, NULL},
    {"square-root of", F_SQRT, 0, NULL}, {"the sqrt of", F_SQRT, 0, NULL}, {"sqrt of", F_SQRT, 0, NULL},
    {"the root of", F_SQRT, 0, NULL}, {"root of", F_SQRT, 0, NULL}, {"square root", F_SQRT, 0, NULL},
    /* the root in the student's own language: raiz (Spanish, Portuguese), racine, Wurzel */
    {"raiz", F_SQRT, 0, NULL}, {"raíz", F_SQRT, 0, NULL}, {"racine", F_SQRT, 0, NULL},
    {"wurzel", F_SQRT, 0, NULL},
    {"the transpose of", F_TRANS_PRE, 0, NULL}, {"transpose of", F_TRANS_PRE, 0, NULL},
    {"-transposed", F_TRANS, 0, NULL}, {"-transpose", F_TRANS, 0, NULL},
    /* the softmax's axis said in words: the keys' (right) */
    {"over the keys", F_FILLER, 0, NULL}, {"over keys", F_FILLER, 0, NULL},
    {"over all keys", F_FILLER, 0, NULL}, {"over all the keys", F_FILLER, 0, NULL},
    {"to each row", F_FILLER, 0, NULL}, {"each row", F_FILLER, 0, NULL},
    {"to every row", F_FILLER, 0, NULL}, {"every row", F_FILLER, 0, NULL},
    {"每一行", F_FILLER, 0, NULL}, {"每行", F_FILLER, 0, NULL},
    /* 对 before what the step applies to: "对每一行做 softmax", "对结果做 softmax" */
    {"对每一行", F_FILLER, 0, NULL}, {"对每行", F_FILLER, 0, NULL}, {"对结果", F_FILLER, 0, NULL},
    {"对它", F_FILLER, 0, NULL}, {"对其", F_FILLER, 0, NULL}, {"对这个结果", F_FILLER, 0, NULL},
    {"对每一列", F_FILLER, 2, NULL}, {"对每列", F_FILLER, 2, NULL},
    /* a gloss of the row: "对每一行（每个 query）做 softmax" */
    {"（每个 query）", F_FILLER, 0, NULL}, {"（每个查询）", F_FILLER, 0, NULL},
    {"(每个 query)", F_FILLER, 0, NULL}, {"(每个查询)", F_FILLER, 0, NULL},
    {"（每个 query 一行）", F_FILLER, 0, NULL}, {"(each query)", F_FILLER, 0, NULL},
    {"(one per query)", F_FILLER, 0, NULL}, {"(per query)", F_FILLER, 0, NULL},
    /* the steps said in words: quantifiers and the running result ("divide it by") */
    {"every", F_FILLER, 0, NULL}, {"each", F_FILLER, 0, NULL}, {"all", F_FILLER, 0, NULL},
    {"it", F_FILLER, 0, NULL}, {"them", F_FILLER, 0, NULL}, {"the result", F_FILLER, 0, NULL},
    {"每个", F_FILLER, 0, NULL}, {"每一个", F_FILLER, 0, NULL}, {"所有", F_FILLER, 0, NULL},
    {"compute", F_FILLER, 0, NULL}, {"calculate", F_FILLER, 0, NULL}, {"take", F_FILLER, 0, NULL},
    /* a scaling step: by what it says ("scale it down by √d_k"), or a scale not said
     * ("scale it, softmax, …": var 1, a divisor that is no 1/√d_k) */
    {"scale it by", F_MUL, 0, NULL}, {"scale them by", F_MUL, 0, NULL}, {"scale by", F_MUL, 0, NULL},
    {"scaled by", F_MUL, 0, NULL}, {"scale it down by", F_DIV, 0, NULL}, {"scale down by", F_DIV, 0, NULL},
    {"scaled down by", F_DIV, 0, NULL}, {"scale it", F_DIV, 1, NULL}, {"scale them", F_DIV, 1, NULL},
    {"scale the scores", F_DIV, 1, NULL}, {"缩放一下", F_DIV, 1, NULL}, {"做缩放", F_DIV, 1, NULL},
    {"the scaling factor", F_NUM, 1, NULL}, {"a scaling factor", F_NUM, 1, NULL},
    {"scaling factor", F_NUM, 1, NULL}, {"scale factor", F_NUM, 1, NULL}, {"缩放因子", F_NUM, 1, NULL},
    {"缩放系数", F_NUM, 1, NULL},
    {"先算", F_FILLER, 0, NULL}, {"先计算", F_FILLER, 0, NULL}, {"计算", F_FILLER, 0, NULL},
    /* the weights applied to V in words: "…, then use the weights to average the rows of V" */
    {"use the weights", F_FILLER, 0, NULL}, {"use those weights", F_FILLER, 0, NULL},
    {"use these weights", F_FILLER, 0, NULL}, {"to average the rows of", F_MUL, 0, NULL},
    {"average the rows of", F_MUL, 0, NULL}, {"to average", F_MUL, 0, NULL},
    {"a weighted sum of", F_MUL, 0, NULL}, {"the weighted sum of", F_MUL, 0, NULL},
    {"weighted sum of", F_MUL, 0, NULL}, {"a weighted average of", F_MUL, 0, NULL},
    {"the weighted average of", F_MUL, 0, NULL}, {"weighted average of", F_MUL, 0, NULL},
    {"to weight", F_MUL, 0, NULL},
    /* 对 V 加权求和: the weights applied to what stands between */
    {"加权求和", F_PRODVERB, 2, NULL}, {"加权平均", F_PRODVERB, 2, NULL}, {"做加权和", F_PRODVERB, 2, NULL},
    {"over the rows", F_FILLER, 0, NULL}, {"over rows", F_FILLER, 0, NULL},
    /* the index form's softmax over the keys' index: "softmax(q_i·k_j/√d_k over j)" */
    {"over j", F_FILLER, 0, NULL}, {"over l", F_FILLER, 0, NULL}, {"for every j", F_FILLER, 0, NULL},
    {"for all j", F_FILLER, 0, NULL}, {"for each j", F_FILLER, 0, NULL}, {"over all j", F_FILLER, 0, NULL},
    {"over each row", F_FILLER, 0, NULL}, {"over the last axis", F_FILLER, 0, NULL},
    {"over the last dimension", F_FILLER, 0, NULL}, {"along the last axis", F_FILLER, 0, NULL},
    {"along the last dimension", F_FILLER, 0, NULL}, {"along the rows", F_FILLER, 0, NULL},
    {"row-wise", F_FILLER, 0, NULL}, {"rowwise", F_FILLER, 0, NULL}, {"per row", F_FILLER, 0, NULL},
    {"for each row", F_FILLER, 0, NULL}, {"of", F_FILLER, 0, NULL}, {"the", F_FILLER, 0, NULL},
    /* … and the queries' (a slip of the axis: var 2) */
    {"over the queries", F_FILLER, 2, NULL}, {"over queries", F_FILLER, 2, NULL},
    {"over the columns", F_FILLER, 2, NULL}, {"over columns", F_FILLER, 2, NULL},
    {"along the columns", F_FILLER, 2, NULL}, {"column-wise", F_FILLER, 2, NULL},
    {"columnwise", F_FILLER, 2, NULL}, {"over the first axis", F_FILLER, 2, NULL},
    {"along the first axis", F_FILLER, 2, NULL}, {"over the first dimension", F_FILLER, 2, NULL},
    {"along the first dimension", F_FILLER, 2, NULL}, {"按列", F_FILLER, 2, NULL},
    {"逐列", F_FILLER, 2, NULL}, {"沿查询方向", F_FILLER, 2, NULL}, {"按查询方向", F_FILLER, 2, NULL},
    {"沿 query 方向", F_FILLER, 2, NULL}, {"沿query方向", F_FILLER, 2, NULL},
    {"along the query axis", F_FILLER, 2, NULL},
    /* "the dot products of Q and K": Q Kᵀ */
    /* d_k in words: "the square root of the key dimension" */
    {"the key dimension", F_VAR, V_DK, NULL}, {"key dimension", F_VAR, V_DK, NULL},
    {"the keys' dimension", F_VAR, V_DK, NULL}, {"the key's dimension", F_VAR, V_DK, NULL},
    {"the dimension of the keys", F_VAR, V_DK, NULL}, {"dimension of the keys", F_VAR, V_DK, NULL},
    {"the dimension of the key", F_VAR, V_DK, NULL}, {"dimension of the key", F_VAR, V_DK, NULL},
    {"the dimension of k", F_VAR, V_DK, NULL}, {"dimension of k", F_VAR, V_DK, NULL},
    {"the key size", F_VAR, V_DK, NULL}, {"key size", F_VAR, V_DK, NULL},
    {"the key dim", F_VAR, V_DK, NULL}, {"key dim", F_VAR, V_DK, NULL},
    {"the head dimension", F_VAR, V_DK, NULL}, {"head dimension", F_VAR, V_DK, NULL},
    {"键的维度", F_VAR, V_DK, NULL}, {"键向量的维度", F_VAR, V_DK, NULL},
    {"键维度", F_VAR, V_DK, NULL}, {"键向量维度", F_VAR, V_DK, NULL},
    {"key的维度", F_VAR, V_DK, NULL}, {"key 的维度", F_VAR, V_DK, NULL},
    {"k的维度", F_VAR, V_DK, NULL}, {"k 的维度", F_VAR, V_DK, NULL},
    /* a query "dot-producted" with the keys, said as a step: "take each query and
     * dot-product it with every key" */
    {"and dot-product it with", F_DOTMUL, 0, NULL}, {"and dot product it with", F_DOTMUL, 0, NULL},
    {"dot-product it with", F_DOTMUL, 0, NULL}, {"dot product it with", F_DOTMUL, 0, NULL},
    {"and dot it with", F_DOTMUL, 0, NULL}, {"dot it with", F_DOTMUL, 0, NULL},
    /* the matrices named by their rows ("the" before them is a filler of its own) */
    {"value vectors", F_VAR, V_V, NULL}, {"key vectors", F_VAR, V_K, NULL},
    {"query vectors", F_VAR, V_Q, NULL},
    /* the softmax step said with its result: "put them through softmax so they add up to 1" */
    {"put them through", F_FILLER, 0, NULL}, {"put it through", F_FILLER, 0, NULL},
    {"pass them through", F_FILLER, 0, NULL}, {"run them through", F_FILLER, 0, NULL},
    {"so they add up to 1", F_FILLER, 0, NULL}, {"so that they add up to 1", F_FILLER, 0, NULL},
    {"so they sum to 1", F_FILLER, 0, NULL}, {"so that they sum to 1", F_FILLER, 0, NULL},
    {"to make", F_FILLER, 0, NULL}, {"those", F_FILLER, 0, NULL}, {"these", F_FILLER, 0, NULL},
    {"the dot products of", F_DOTPRE, 0, NULL}, {"the dot product of", F_DOTPRE, 0, NULL},
    {"dot products of", F_DOTPRE, 0, NULL}, {"dot product of", F_DOTPRE, 0, NULL},
    {"the dot products between", F_DOTPRE, 0, NULL}, {"dot products between", F_DOTPRE, 0, NULL},
    {"divided by", F_DIV, 0, NULL}, {"divide by", F_DIV, 0, NULL}, {"dividing by", F_DIV, 0, NULL},
    {"multiplied by", F_MUL, 0, NULL}, {"multiply by", F_MUL, 0, NULL},
    /* d_k said aloud, as speech recognition types it: "root d k", "square root of D K",
     * "d sub k"; and the rest of a formula dictated: its brackets said as words (a bare
     * 括号 opens, or closes one open: var 1), "superscript T", 上标 T, "to the one half",
     * the transpose's homophones (转至, 专制: zhuǎnzhì) */
    {"d k", F_VAR, V_DK, NULL}, {"d sub k", F_VAR, V_DK, NULL}, {"d underscore k", F_VAR, V_DK, NULL},
    {"open bracket", F_LPAR, 0, NULL}, {"open paren", F_LPAR, 0, NULL},
    {"open parenthesis", F_LPAR, 0, NULL}, {"open parentheses", F_LPAR, 0, NULL},
    {"left bracket", F_LPAR, 0, NULL}, {"left paren", F_LPAR, 0, NULL},
    {"left parenthesis", F_LPAR, 0, NULL}, {"close bracket", F_RPAR, 0, NULL},
    {"closed bracket", F_RPAR, 0, NULL}, {"close paren", F_RPAR, 0, NULL},
    {"close parenthesis", F_RPAR, 0, NULL}, {"close parentheses", F_RPAR, 0, NULL},
    {"closed parenthesis", F_RPAR, 0, NULL}, {"right bracket", F_RPAR, 0, NULL},
    {"right paren", F_RPAR, 0, NULL}, {"right parenthesis", F_RPAR, 0, NULL},
    {"左括号", F_LPAR, 0, NULL}, {"前括号", F_LPAR, 0, NULL}, {"右括号", F_RPAR, 0, NULL},
    {"反括号", F_RPAR, 0, NULL}, {"后括号", F_RPAR, 0, NULL}, {"括号", F_LPAR, 1, NULL},
    {"superscript t", F_TRANS, 0, NULL}, {"superscript capital t", F_TRANS, 0, NULL},
    {"上标 t", F_TRANS, 0, NULL}, {"上标t", F_TRANS, 0, NULL}, {"转至", F_TRANS, 0, NULL},
    {"专制", F_TRANS, 0, NULL},
    {"to the one half", F_SQRT_POST, 0, NULL}, {"to the half", F_SQRT_POST, 0, NULL},
    {"to the power of one half", F_SQRT_POST, 0, NULL}, {"to the power one half", F_SQRT_POST, 0, NULL},
    {"to the power of a half", F_SQRT_POST, 0, NULL}, {"to the power of 0.5", F_SQRT_POST, 0, NULL},
    {"to the power 0.5", F_SQRT_POST, 0, NULL}, {"to the 0.5", F_SQRT_POST, 0, NULL},
    {"to the power of zero point five", F_SQRT_POST, 0, NULL},
    {"to the power zero point five", F_SQRT_POST, 0, NULL},
    {"的零点五次方", F_SQRT_POST, 0, NULL}, {"的0.5次方", F_SQRT_POST, 0, NULL},
    {"的 0.5 次方", F_SQRT_POST, 0, NULL}, {"的二分之一次方", F_SQRT_POST, 0, NULL},
    {"the quantity", F_FILLER, 0, NULL}, {"比上", F_DIV, 0, NULL},
    /* the softmax step said with an article ("run a softmax along each row") */
    {"run a softmax", F_NAME, 0, "softmax"}, {"apply a softmax", F_NAME, 0, "softmax"},
    {"take a softmax", F_NAME, 0, "softmax"}, {"do a softmax", F_NAME, 0, "softmax"},
    {"along each row", F_FILLER, 0, NULL}, {"along every row", F_FILLER, 0, NULL},
    /* the terms as a machine translation gives them: "soft maximum", 软最大值, 钥匙 (a
     * door's key), 价值 (worth), "note force" (注意力) */
    {"soft maximum", F_NAME, 0, "softmax"}, {"软最大值", F_NAME, 0, "softmax"},
    {"软最大", F_NAME, 0, "softmax"}, {"钥匙", F_VAR, V_K, NULL}, {"价值", F_VAR, V_V, NULL},
    {"note force", F_NAME, 0, "attention"}, {"关注", F_NAME, 0, "attention"},
    {"multiplied with", F_MUL, 0, NULL}, {"multiplying by", F_MUL, 0, NULL},
    {"multiply with", F_MUL, 0, NULL}, {"multiplying with", F_MUL, 0, NULL},
    {"the softmax of", F_NAME, 1, "softmax"}, {"softmax of", F_NAME, 1, "softmax"},
    /* over the keys' index, the right axis: "softmax over j of (q_i · k_j)/√d_k" */
    {"softmax over j of", F_NAME, 1, "softmax"}, {"softmax over the keys of", F_NAME, 1, "softmax"},
    {"softmax over k of", F_NAME, 1, "softmax"},
    {"the soft max of", F_NAME, 1, "softmax"}, {"soft max of", F_NAME, 1, "softmax"},
    {"soft max", F_NAME, 0, "softmax"}, {"soft-max", F_NAME, 0, "softmax"},
    /* shorthand and slips of the name: "sftmx(…)", "smax(…)" */
    {"sftmx", F_NAME, 0, "softmax"}, {"softmx", F_NAME, 0, "softmax"}, {"sofmax", F_NAME, 0, "softmax"},
    {"softamx", F_NAME, 0, "softmax"}, {"smax", F_NAME, 0, "softmax"},
    /* the axis in the name: "softmax_rows(…)", "row_softmax(…)" */
    {"softmax_rows", F_NAME, 0, "softmax"}, {"softmax_row", F_NAME, 0, "softmax"},
    {"softmax_rowwise", F_NAME, 0, "softmax"}, {"row_softmax", F_NAME, 0, "softmax"},
    {"rowwise_softmax", F_NAME, 0, "softmax"}, {"row-softmax", F_NAME, 0, "softmax"},
    /* what a phone's autocorrect makes of it */
    {"soft mac", F_NAME, 0, "softmax"}, {"softmac", F_NAME, 0, "softmax"},
    /* in katakana English */
    {"sofuto-max", F_NAME, 0, "softmax"}, {"sofutomax", F_NAME, 0, "softmax"},
    {"sofuto max", F_NAME, 0, "softmax"}, {"sofutomakkusu", F_NAME, 0, "softmax"},
    /* "…, softmax them, multiply by V": the softmax of what came before */
    {"softmax them", F_NAME, 0, "softmax"}, {"softmax it", F_NAME, 0, "softmax"},
    {"softmax that", F_NAME, 0, "softmax"}, {"softmax the result", F_NAME, 0, "softmax"},
    {"softmax these", F_NAME, 0, "softmax"}, {"softmax those", F_NAME, 0, "softmax"},
    /* "…, times V, i.e. softmax(QKᵀ/√dₖ)V": the same formula again */
    {"i.e.", F_SEP, 0, NULL}, {"i. e.", F_SEP, 0, NULL}, {"in other words", F_SEP, 0, NULL},
    {"也就是", F_SEP, 0, NULL}, {"即", F_SEP, 0, NULL},
    {"and then", F_FILLER, 0, NULL}, {"then", F_FILLER, 0, NULL}, {"apply", F_FILLER, 0, NULL},
    {"times", F_MUL, 0, NULL}, {"over", F_DIV, 0, NULL}, {"equals", F_ASSIGN, 0, NULL},
    /* the function's name said as a verb, no bracket after it: "…，然后再 matmul V" */
    {"matmul with", F_MUL, 0, NULL}, {"matmul by", F_MUL, 0, NULL}, {"matmul", F_MUL, 0, NULL},
    {"return", F_FILLER, 0, NULL}, {"do", F_FILLER, 0, NULL},
    /* the matrices by their names in words: "multiply the query matrix by the transpose of
     * the key matrix", "the keys (transposed)" */
    {"the query matrix", F_VAR, V_Q, NULL}, {"query matrix", F_VAR, V_Q, NULL},
    {"the key matrix", F_VAR, V_K, NULL}, {"key matrix", F_VAR, V_K, NULL},
    {"the value matrix", F_VAR, V_V, NULL}, {"value matrix", F_VAR, V_V, NULL},
    {"(transposed)", F_TRANS, 0, NULL}, {"（转置）", F_TRANS, 0, NULL}, {"(转置)", F_TRANS, 0, NULL},
    /* Chinese */
    {"乘以", F_MUL, 0, NULL}, {"乘上", F_MUL, 0, NULL}, {"点乘", F_MUL, 0, NULL}, {"乘", F_MUL, 0, NULL},
    {"除以", F_DIV, 0, NULL}, {"根号下", F_SQRT, 0, NULL}, {"根号", F_SQRT, 0, NULL},
    {"开根号", F_SQRT_POST, 0, NULL}, {"开方", F_SQRT_POST, 0, NULL},
    {"的平方根", F_SQRT_POST, 0, NULL}, {"平方根", F_SQRT, 0, NULL},
    {"的转置", F_TRANS, 0, NULL}, {"的 转置", F_TRANS, 0, NULL}, {"转置", F_TRANS, 0, NULL},
    /* what a pinyin input method offers for zhuanzhi and ruan max */
    {"的转制", F_TRANS, 0, NULL}, {"转制", F_TRANS, 0, NULL}, {"软max", F_NAME, 0, "softmax"},
    {"和", F_CONJ, 0, NULL}, {"与", F_CONJ, 0, NULL}, {"跟", F_CONJ, 0, NULL},
    {"相乘", F_PRODVERB, 0, NULL}, {"的内积", F_PRODVERB, 1, NULL}, {"内积", F_PRODVERB, 1, NULL}, {"做矩阵乘法", F_PRODVERB, 0, NULL}, {"矩阵相乘", F_PRODVERB, 0, NULL},
    {"矩阵乘法", F_PRODVERB, 0, NULL}, {"做乘法", F_PRODVERB, 0, NULL}, {"的乘积", F_PRODVERB, 0, NULL},
    {"乘积", F_PRODVERB, 0, NULL}, {"做点积", F_PRODVERB, 1, NULL}, {"的点积", F_PRODVERB, 1, NULL},
    {"点积", F_PRODVERB, 1, NULL}, {"右乘", F_MUL, 0, NULL}, {"以后", F_FILLER, 0, NULL},
    {"后", F_FILLER, 0, NULL},
    /* the axis said in words: the last one, the keys' ("对最后一维做 softmax") */
    {"在最后一个维度上", F_FILLER, 0, NULL}, {"在最后一维上", F_FILLER, 0, NULL},
    {"沿最后一个维度", F_FILLER, 0, NULL}, {"沿最后一维", F_FILLER, 0, NULL},
    {"对最后一个维度", F_FILLER, 0, NULL}, {"对最后一维", F_FILLER, 0, NULL},
    {"最后一个维度", F_FILLER, 0, NULL}, {"最后一维", F_FILLER, 0, NULL},
    {"对每一行", F_FILLER, 0, NULL}, {"每一行", F_FILLER, 0, NULL},
    {"过", F_FILLER, 0, NULL}, {"按行", F_FILLER, 0, NULL}, {"逐行", F_FILLER, 0, NULL},
    {"再", F_FILLER, 0, NULL}, {"然后", F_FILLER, 0, NULL}, {"最后", F_FILLER, 0, NULL},
    {"之后", F_FILLER, 0, NULL}, {"做", F_FILLER, 0, NULL}, {"取", F_FILLER, 0, NULL},
    {"经过", F_FILLER, 0, NULL}, {"进行", F_FILLER, 0, NULL}, {"一下", F_FILLER, 0, NULL},
    /* what a step gives, said after it: "先 QKᵀ 打分，除以 √dₖ…", "QKᵀ 算相似度" */
    {"打分", F_FILLER, 0, NULL}, {"算分数", F_FILLER, 0, NULL}, {"得到分数", F_FILLER, 0, NULL},
    {"算相似度", F_FILLER, 0, NULL}, {"求相似度", F_FILLER, 0, NULL},
    {"得到相似度", F_FILLER, 0, NULL}, {"得到注意力分数", F_FILLER, 0, NULL},
    {"等于", F_ASSIGN, 0, NULL}, {"自注意力", F_NAME, 0, "attention"},
    {"掩码矩阵", F_VAR, V_MASK, NULL}, {"掩码", F_VAR, V_MASK, NULL}, {"遮罩", F_VAR, V_MASK, NULL},
    /* Q, K, V by their Chinese names: alone, not inside a word (数值, 关键, 值得) */
    {"查询矩阵", F_VAR, V_Q, NULL}, {"查询向量", F_VAR, V_Q, NULL}, {"查询", F_VAR, V_Q, NULL},
    {"键矩阵", F_VAR, V_K, NULL}, {"键向量", F_VAR, V_K, NULL}, {"键", F_VAR, V_K, NULL},
    {"值矩阵", F_VAR, V_V, NULL}, {"值向量", F_VAR, V_V, NULL}, {"值", F_VAR, V_V, NULL},
    {"注意力", F_NAME, 0, "attention"},
};

static int is_word_char(unsigned char c)
{
    return isalnum(c) || c == '_';
}

/* A phrase of the table at s (whole words for Latin ones); its length, or 0. */
static size_t match_word(const char *s, const word **w)
{
    size_t best = 0;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t n = strlen(words[i].text);
        if (n <= best || strncasecmp(s, words[i].text, n))
            continue;
        if (isalpha((unsigned char)words[i].text[n - 1]) &&
            (is_word_char((unsigned char)s[n]) || (s[n] == '\'' && isalpha((unsigned char)s[n + 1]))))
            continue;   /* "it" is not the start of "it's" */
        if (!strcasecmp(words[i].text, "apply") && s[n] == '(')
            continue;   /* R's apply(S, 1, f) is the function */
        if (words[i].kind == F_MUL && !strcasecmp(words[i].text, "matmul")) {
            size_t k = n;   /* "matmul(Q, K.T)" is the function */
            while (s[k] == ' ')
                k++;
            if (s[k] == '(' || s[k] == '.' || s[k] == '_')
                continue;
        }
        best = n;
        *w = &words[i];
    }
    return best;
}

/* A Chinese name of Q, K or V (查询, 键, 值) at s[i, i + n)? */
static int han_symbol(const char *s, const word *w)
{
    return w->kind == F_VAR && w->var <= V_V && (unsigned char)*s >= 0x80;
}

/* d_k and the names code gives it. */
/* d_model: the model's width, not the keys' (a wrong scale, not an unknown symbol). */
static int is_dmodel(const char *s, size_t n)
{
    static const char *const names[] = {"d_model", "dmodel", "d_m", "d_embed", "embed_dim", "hidden_size"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == n && !strncasecmp(s, names[i], n))
            return 1;
    return 0;
}

/* The length of the sequence: another wrong scale ("softmax(QKᵀ/√n)V"). */
static int is_length(const char *s, size_t n)
{
    static const char *const names[] = {"n", "seq_len", "seqlen", "seq_length", "sequence_length",
                                        "n_tokens", "num_tokens", "n_ctx"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == n && !strncasecmp(s, names[i], n))
            return 1;
    return 0;
}

static int is_dk(const char *s, size_t n)
{
    static const char *const names[] = {"d", "dk", "d_k", "d_head", "head_dim", "d_h", "d_key",
                                        "key_dim", "dim_k", "d_q", "dim_head", "head_size",
                                        /* Hugging Face's names: BERT, T5, GPT-2 */
                                        "attention_head_size", "attn_head_size", "size_per_head",
                                        "dim_per_head", "key_value_proj_dim", "d_kv"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == n && !strncasecmp(s, names[i], n))
            return 1;
    return 0;
}

static int matrix_word(const char *s, size_t n)
{
    static const struct { const char *w; int var; } m[] = {
        {"query", V_Q}, {"queries", V_Q}, {"key", V_K}, {"keys", V_K}, {"value", V_V}, {"values", V_V},
        /* Q as speech recognition types the letter said aloud: "cue and key transpose" */
        {"cue", V_Q}, {"queue", V_Q},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++)
        if (strlen(m[i].w) == n && !strncasecmp(s, m[i].w, n))
            return m[i].var;
    return -1;
}

static int qkv(char c)
{
    c = (char)toupper((unsigned char)c);
    return c == 'Q' ? V_Q : c == 'K' ? V_K : c == 'V' ? V_V : -1;
}

typedef struct lexer {
    const nbuf *b;
    ftokens *out;
    size_t cap;
    int space;
    int depth;          /* brackets open at this point */
    int spoken;         /* of them, brackets said as words ("open bracket", 括号) */
} lexer;

static int emit(lexer *lx, enum ftok kind, size_t from, size_t to)
{
    if (lx->out->n + 1 >= lx->cap) {
        size_t cap = lx->cap * 2;
        ftoken *t = realloc(lx->out->t, cap * sizeof *t);
        if (!t)
            return -1;
        lx->out->t = t;
        lx->cap = cap;
    }
    ftoken *t = &lx->out->t[lx->out->n++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->text = lx->b->s + from;
    t->len = to - from;
    t->at = lx->b->at[from];
    t->end = lx->b->end[to > from ? to - 1 : from];
    t->space_before = lx->space;
    lx->space = 0;
    return 0;
}

/* Is the quote at s[i] one of the string 'inf', '-inf' or '+inf' (float('-inf'))? */
static int inf_quote(const char *s, size_t i)
{
    static const char *const strs[] = {"'inf'", "'-inf'", "'+inf'"};
    for (size_t k = 0; k < sizeof strs / sizeof *strs; k++) {
        size_t n = strlen(strs[k]);
        if (!strncmp(s + i, strs[k], n) || (i + 1 >= n && !strncmp(s + i + 1 - n, strs[k], n)))
            return 1;
    }
    return 0;
}

/* A MATLAB or Octave comment at s[i]: a '%' at a line's start or after a space or a ';',
 * not one of R's operators (%*%, %in%, %o%, %x%, and %% between operands). */
static int percent_comment(const char *s, size_t i)
{
    if (s[i] != '%' || s[i + 1] == '*' || !strncmp(s + i, "%in%", 4) || !strncmp(s + i, "%o%", 3) ||
        !strncmp(s + i, "%x%", 3))
        return 0;
    int start = i == 0 || s[i - 1] == '\n';
    if (s[i + 1] == '%' && !start && s[i + 2] != ' ')
        return 0;
    return start || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == ';';
}

/* "dims=2", " dims = 2": a keyword argument (a name, spaces, '=' but not "==") at s. */
static int keyword_after(const char *s)
{
    while (*s == ' ')
        s++;
    if (!isalpha((unsigned char)*s))
        return 0;
    while (is_word_char((unsigned char)*s))
        s++;
    while (*s == ' ')
        s++;
    return *s == '=' && s[1] != '=';
}

/* An einsum subscript string at s (a quote): letters, dots, commas and one "->". */
static int einsum_spec(const char *s)
{
    char q = *s;
    int arrow = 0, comma = 0;
    for (const char *p = s + 1; *p && *p != q; p++) {
        if (p[0] == '-' && p[1] == '>')
            arrow++, p++;
        else if (*p == ',')
            comma++;
        else if (!isalpha((unsigned char)*p) && *p != '.' && *p != ' ')
            return 0;
        if (!p[1])
            return 0;
    }
    return arrow == 1 && comma == 1 && strchr(s + 1, q);
}

/* ^T ^t ^{T} ^{ T } ^\top ^{\top} ^\intercal: the length of a transpose at s ('^'), or 0. */
static size_t transpose_mark(const char *s)
{
    const char *p = s + 1;
    while (*p == ' ')
        p++;
    int brace = *p == '{';
    p += brace;
    while (brace && *p == ' ')
        p++;
    size_t n = 0;
    if (*p == 'T' || (*p == 't' && !isalpha((unsigned char)p[1])))
        n = 1;
    else if (!strncmp(p, "\\top", 4) && !isalpha((unsigned char)p[4]))
        n = 4;
    else if (!strncmp(p, "\\intercal", 9))
        n = 9;
    if (!n)
        return 0;
    p += n;
    if (brace) {
        while (*p == ' ')
            p++;
        if (*p != '}')
            return 0;
        p++;
    }
    return (size_t)(p - s);
}

/* "q_i", "k_j", "softmax_j", "sum_j": a row of Q, K, V or a function over an index; the
 * index letter, 0 when none. The rest of the name is n - 2 bytes. */
static char index_of(const char *s, size_t n)
{
    if (n < 3 || s[n - 2] != '_' || !islower((unsigned char)s[n - 1]))
        return 0;
    if (n == 3 && qkv(s[0]) >= 0)
        return s[n - 1];
    if ((n - 2 == 7 && !strncasecmp(s, "softmax", 7)) || (n - 2 == 3 && !strncasecmp(s, "sum", 3)))
        return s[n - 1];
    return 0;
}

static int lex_ident(lexer *lx, size_t i, size_t j)
{
    const char *s = lx->b->s + i;
    size_t n = j - i;
    char index = index_of(s, n);
    if (index) {   /* q_i: the row of Q; softmax_j: softmax over j */
        if (emit(lx, n == 3 ? F_VAR : F_NAME, i, j - 2))
            return -1;
        ftoken *t = &lx->out->t[lx->out->n - 1];
        t->var = n == 3 ? qkv(s[0]) : 0;
        t->index = index;
        return 0;
    }
    /* "Q queries, K keys, V values": the word after its own letter glosses it */
    const ftoken *last = lx->out->n ? &lx->out->t[lx->out->n - 1] : NULL;
    if (matrix_word(s, n) >= 0 && last && lx->space && last->kind == F_VAR && last->len == 1 &&
        last->var == matrix_word(s, n))
        return emit(lx, F_NAME, i, j) ? -1 : 0;
    /* "Q K T over …": a T said on its own after K, as dictation types Kᵀ */
    if (n == 1 && *s == 'T' && last && lx->space && last->kind == F_VAR && last->var == V_K &&
        last->len == 1)
        return emit(lx, F_TRANS, i, j) ? -1 : 0;
    /* "the square root of the key dimension d_k": the symbol after the words names them */
    if (is_dk(s, n) && last && last->kind == F_VAR && last->var == V_DK && lx->space &&
        isalpha((unsigned char)*last->text) && last->len > n)
        return 0;
    /* QK, qkv, QKT, QKt: matrices written together, a final T after K its transpose */
    if (is_dk(s, n) || is_dmodel(s, n) || is_length(s, n) || matrix_word(s, n) >= 0) {
        if (emit(lx, F_VAR, i, j))
            return -1;
        lx->out->t[lx->out->n - 1].var = is_dk(s, n) ? V_DK : is_dmodel(s, n) ? V_DMODEL
                                         : is_length(s, n) ? V_LEN : matrix_word(s, n);
        return 0;
    }
    size_t m = 0;
    while (m < n && qkv(s[m]) >= 0)
        m++;
    int trans = m && m == n - 1 && (s[m] == 'T' || s[m] == 't') && toupper((unsigned char)s[m - 1]) == 'K';
    int upper = n >= 2 && n <= 3, has_qkv = 0;
    for (size_t k = 0; k < n; k++) {
        upper &= isupper((unsigned char)s[k]) != 0;
        has_qkv |= qkv(s[k]) >= 0;
    }
    if (upper && has_qkv && !trans && m != n) {   /* AV, PV: a named matrix times V */
        for (size_t k = 0; k < n; k++) {
            if (emit(lx, qkv(s[k]) >= 0 ? F_VAR : F_NAME, i + k, i + k + 1))
                return -1;
            lx->out->t[lx->out->n - 1].var = qkv(s[k]) >= 0 ? qkv(s[k]) : 0;
        }
        return 0;
    }
    if (m && (m == n || trans || n <= 3)) {   /* QX: Q, then an unknown X */
        for (size_t k = 0; k < m; k++) {
            if (emit(lx, F_VAR, i + k, i + k + 1))
                return -1;
            lx->out->t[lx->out->n - 1].var = qkv(s[k]);
        }
        return m == n ? 0 : emit(lx, trans ? F_TRANS : F_NAME, i + m, j);
    }
    return emit(lx, F_NAME, i, j);
}

/* Backslash commands the normalising pass kept: operators and names; a name's subscript
 * is part of it (\alpha_ij: the weights of the index form). *end: where the command
 * ends, past such a subscript. */
static int lex_command(lexer *lx, size_t i, size_t j, size_t *end)
{
    static const struct { const char *c; enum ftok kind; } cmds[] = {
        {"cdot", F_MUL}, {"times", F_MUL}, {"ast", F_MUL}, {"bullet", F_MUL}, {"div", F_DIV},
        {"over", F_DIV}, {"sqrt", F_SQRT}, {"frac", F_FRAC}, {"dfrac", F_FRAC}, {"tfrac", F_FRAC},
        {"cfrac", F_FRAC}, {"top", F_TRANS}, {"intercal", F_TRANS}, {"T", F_TRANS},
        {"langle", F_LPAR}, {"rangle", F_RPAR},   /* \langle q_i, k_j \rangle */
    };
    const char *s = lx->b->s + i + 1;
    size_t n = j - i - 1;
    for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++)
        if (strlen(cmds[k].c) == n && !strncmp(s, cmds[k].c, n))
            return emit(lx, cmds[k].kind, i, j);
    int limits = n == 3 && (!strncmp(s, "sum", 3) || !strncmp(s, "max", 3));   /* lex reads Σ_j's */
    if (!limits && s[n] == '_' && is_word_char((unsigned char)s[n + 1])) {
        size_t k = j + 1;   /* \alpha_ij, α_ij: one name with its subscript */
        while (k < lx->b->n && is_word_char((unsigned char)lx->b->s[k]))
            k++;
        *end = k;
        return lex_ident(lx, i + 1, k);
    }
    /* \softmax, \sigma, \exp, \alpha: a name, read without its backslash (var 3: a
     * command, so part of a formula) */
    if (emit(lx, F_NAME, i + 1, j))
        return -1;
    lx->out->t[lx->out->n - 1].var = 3;
    return 0;
}

/* After \sum or \max: the length of its limits (_j, _j=1, ^n, ^{n}), which say nothing
 * here. */
static size_t limits_after(const char *s)
{
    const char *p = s;
    for (int k = 0; k < 2; k++) {
        if (*p != '_' && *p != '^')
            break;
        p++;
        if (*p == '{') {
            while (*p && *p != '}')
                p++;
            p += *p == '}';
        } else {
            while (isalnum((unsigned char)*p))
                p++;
            while (*p == '\'')
                p++;   /* Σ_j': j' is an index as j is */
            if (*p == '=')
                for (p++; isalnum((unsigned char)*p); p++)
                    ;
        }
    }
    return (size_t)(p - s);
}

/* Does a run of Chinese characters end with s? */
static int han_ends(const ftoken *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind == F_HAN && t->len >= n && !memcmp(t->text + t->len - n, s, n);
}

/* Does the run of Chinese characters s[i, j) end with a particle that takes a matrix
 * (对值向量加权求和, 把键向量转置): a name of Q, K or V after it stands alone. */
static int after_particle(const char *s, size_t i, size_t j)
{
    static const char *const takes[] = {"对", "把", "和", "与", "跟", "用", "乘"};
    for (size_t k = 0; k < sizeof takes / sizeof takes[0]; k++)
        if (j >= i + 3 && !memcmp(s + j - 3, takes[k], 3))
            return 1;
    return 0;
}

/* A Chinese name of Q, K or V stands alone: not after a Chinese character of the same
 * run (数值, 关键), and before the end, a symbol, a space or a word of the table that is
 * no such name (键的转置, 值。), not before another character (值得, 键值对). */
static int han_symbol_alone(const lexer *lx, const char *s, size_t i, size_t wl)
{
    const ftokens *T = lx->out;
    /* …but after a particle that takes a matrix: 对值向量加权求和, 把键向量转置 */
    const ftoken *prev = T->n ? &T->t[T->n - 1] : NULL;
    if (prev && prev->kind == F_HAN && !lx->space && !after_particle(prev->text, 0, prev->len))
        return 0;
    const word *next = NULL;
    size_t l;
    if (!s[i + wl] || (unsigned char)s[i + wl] < 0x80 || !qz_is_han(utf8_next((const unsigned char *)s + i + wl, &l)))
        return 1;
    return match_word(s + i + wl, &next) && !han_symbol(s + i + wl, next);
}

static int lex(lexer *lx)
{
    const char *s = lx->b->s;
    size_t n = lx->b->n, i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '\r') {
            lx->space = 1;
            i++;
            continue;
        }
        const word *w = NULL;
        size_t wl = match_word(s + i, &w);
        /* d_k in words ("the key dimension") where a divisor stands, not in a remark on
         * notation ("d_k = dimension of the keys") */
        if (wl && w->kind == F_VAR && w->var == V_DK &&
            !(lx->out->n && (lx->out->t[lx->out->n - 1].kind == F_SQRT ||
                             lx->out->t[lx->out->n - 1].kind == F_DIV)))
            wl = 0;
        if (wl && han_symbol(s + i, w) && !han_symbol_alone(lx, s, i, wl))
            wl = 0;
        if (wl && (!isalpha((unsigned char)s[i]) || i == 0 || !is_word_char((unsigned char)s[i - 1]))) {
            enum ftok k = w->kind == F_LPAR && w->var == 1 && lx->depth > 0 ? F_RPAR : w->kind;
            if (emit(lx, k, i, i + wl))
                return -1;
            lx->depth += (k == F_LPAR) - (k == F_RPAR && lx->depth > 0);
            lx->spoken += (k == F_LPAR) - (k == F_RPAR && lx->spoken > 0);
            lx->out->t[lx->out->n - 1].var = w->var;   /* 1: "softmax of"; 2: a wrong axis */
            if (w->name) {
                lx->out->t[lx->out->n - 1].text = w->name;
                lx->out->t[lx->out->n - 1].len = strlen(w->name);
            }
            if (w->kind == F_DIV && w->var == 1) {   /* "scale it": by a number not said */
                if (emit(lx, F_NUM, i, i + wl))
                    return -1;
                lx->out->t[lx->out->n - 1].num = 2;
            } else if (w->kind == F_NUM) {            /* "/ 缩放因子": the same */
                lx->out->t[lx->out->n - 1].num = 2;
            }
            i += wl;
            continue;
        }
        if ((c == 'd' || c == 'D') && i + 2 < n && s[i + 1] == ' ' && (s[i + 2] == 'k' || s[i + 2] == 'K') &&
            (i == 0 || !is_word_char((unsigned char)s[i - 1])) && !is_word_char((unsigned char)s[i + 3])) {
            if (emit(lx, F_VAR, i, i + 3))   /* "d k": d_k spaced */
                return -1;
            lx->out->t[lx->out->n - 1].var = V_DK;
            i += 3;
            continue;
        }
        if ((c == '\'' || c == '"') && !strncmp(s + i + 1, "all", 3) && s[i + 4] == c) {
            if (emit(lx, F_STRING, i + 1, i + 4))   /* MATLAB's sum(X, 'all'): every entry */
                return -1;
            i += 5;
            continue;
        }
        if (c == '\'' && inf_quote(s, i)) {   /* float('-inf'): the quotes of a string */
            lx->space = 1;
            i++;
            continue;
        }
        if ((c == '\'' || c == '"') && einsum_spec(s + i)) {   /* 'id,jd->ij' */
            size_t j = i + 1;
            while (s[j] != c)
                j++;
            if (emit(lx, F_STRING, i + 1, j))
                return -1;
            i = j + 1;
            continue;
        }
        if (c == '"') {
            lx->space = 1;
            i++;
            continue;
        }
        if (isalpha(c) || c == '_') {
            size_t j = i, lower = 0;
            for (;;) {
                while (j < n && is_word_char((unsigned char)s[j]))
                    lower += islower((unsigned char)s[j++]) != 0;
                /* it's, don't: an apostrophe inside an English word is no transpose */
                if (lower >= 1 && j - i >= 2 && j + 1 < n && s[j] == '\'' && islower((unsigned char)s[j + 1]))
                    j++;
                else
                    break;
            }
            if (lex_ident(lx, i, j))
                return -1;
            i = j;
            continue;
        }
        if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            size_t j = i;
            while (j < n && isdigit((unsigned char)s[j]))
                j++;
            if (j < n && s[j] == '.' && j + 1 < n && isdigit((unsigned char)s[j + 1]))
                for (j++; j < n && isdigit((unsigned char)s[j]); j++)
                    ;
            else if (j < n && s[j] == '.' && !(j + 1 < n && isalpha((unsigned char)s[j + 1])))
                j++;   /* "2." */
            if (j < n && (s[j] == 'e' || s[j] == 'E')) {
                size_t k = j + 1 + (j + 1 < n && (s[j + 1] == '-' || s[j + 1] == '+'));
                if (k < n && isdigit((unsigned char)s[k]))
                    for (j = k; j < n && isdigit((unsigned char)s[j]); j++)
                        ;
            }
            char tmp[64];
            size_t l = j - i < sizeof tmp - 1 ? j - i : sizeof tmp - 1;
            memcpy(tmp, s + i, l);
            tmp[l] = '\0';
            if (emit(lx, F_NUM, i, j))
                return -1;
            lx->out->t[lx->out->n - 1].num = strtod(tmp, NULL);
            i = j;
            continue;
        }
        if (c == '\\' && i + 1 < n && isalpha((unsigned char)s[i + 1])) {
            size_t j = i + 1;
            while (j < n && isalpha((unsigned char)s[j]))
                j++;
            if (lex_command(lx, i, j, &j))
                return -1;
            if ((j - i == 4 && !strncmp(s + i, "\\sum", 4)) || (j - i == 4 && !strncmp(s + i, "\\max", 4))) {
                size_t sp = 0;
                while (s[j + sp] == ' ')
                    sp++;   /* Σ_j is read as "\sum _j" */
                size_t l = limits_after(s + j + sp);
                if (l && s[j + sp] == '_')   /* a sum over j */
                    lx->out->t[lx->out->n - 1].index = s[j + sp + 1] == '{' ? s[j + sp + 2] : s[j + sp + 1];
                j += l ? sp + l : 0;
            }
            i = j;
            continue;
        }
        if (c >= 0x80) {
            size_t l;
            uint32_t u = utf8_next((const unsigned char *)s + i, &l);
            if (qz_is_han(u)) {   /* Chinese characters up to a word of the table */
                size_t j = i + l;
                while (j < n && (unsigned char)s[j] >= 0x80) {
                    size_t l2;
                    if (!qz_is_han(utf8_next((const unsigned char *)s + j, &l2)) ||
                        (match_word(s + j, &w) && (!han_symbol(s + j, w) || after_particle(s, i, j))))
                        break;
                    j += l2;
                }
                if (emit(lx, F_HAN, i, j))
                    return -1;
                i = j;
                continue;
            }
            if (emit(lx, F_OTHER, i, i + l))
                return -1;
            i += l;
            continue;
        }
        if (c == '#' || (c == '/' && s[i + 1] == '/' && (s[i + 2] == ' ' || !s[i + 2])) ||
            percent_comment(s, i)) {
            /* a comment (Python #, C++ // , MATLAB %), to the end of the line (on one line,
             * to a statement after a ';') */
            i = qz_comment_end(s, i, n);
            continue;
        }
        if (c == '/' && s[i + 1] == '/' && isupper((unsigned char)s[i + 2])) {
            i += 2;   /* Mathematica's postfix form, "A.V//N": the function of the display */
            while (i < n && isalnum((unsigned char)s[i]))
                i++;
            continue;
        }
        enum ftok k = F_OTHER;
        size_t l = 1;
        switch (c) {
        case '^':
            l = transpose_mark(s + i);
            k = l ? F_TRANS : F_POW;
            l += !l;
            break;
        case '*':
            k = s[i + 1] == '*' ? F_POW : F_MUL;
            l = s[i + 1] == '*' ? 2 : 1;
            break;
        case '@': k = F_MUL; break;
        case '%':   /* R: A %*% B is a matrix product */
            if (s[i + 1] == '*' && s[i + 2] == '%') {
                k = F_MUL;
                l = 3;
            }
            break;
        case '<':   /* R: A <- softmax(S) assigns */
            if (s[i + 1] == '-' && s[i + 2] != '-') {
                k = F_ASSIGN;
                l = 2;
            }
            break;
        case '/':   /* Mathematica's Map, f /@ S: read by the parser */
            k = s[i + 1] == '@' ? F_OTHER : F_DIV;
            l = s[i + 1] == '@' ? 2 : 1;
            break;
        case '+': k = F_PLUS; break;
        case '-':   /* "->": the next step; "--": a dash before words */
            k = s[i + 1] == '>' ? F_COMMA : s[i + 1] == '-' ? F_SEP : F_MINUS;
            l = s[i + 1] == '>' || s[i + 1] == '-' ? 2 : 1;
            break;
        case '=':
            k = s[i + 1] == '>' ? F_COMMA : F_ASSIGN;
            l = s[i + 1] == '=' || s[i + 1] == '>' ? 2 : 1;
            break;
        case ',': k = F_COMMA; break;
        case ';':   /* Julia's keywords after a ';' in a call: softmax(S; dims=2) */
            k = lx->depth > 0 && keyword_after(s + i + 1) ? F_COMMA : F_SEP;
            break;
        case '\n': case '!': case '?': k = F_SEP; break;
        case ':': k = s[i + 1] == '=' ? F_ASSIGN : F_SEP; l = s[i + 1] == '=' ? 2 : 1; break;
        case '(': case '[': case '{': k = F_LPAR; break;
        case ')': case ']': case '}': k = F_RPAR; break;
        case '\'': k = F_TRANS; break;
        case '.':   /* x.T, np.sqrt; "A . B" a product; else a full stop */
            if (i + 2 < n && s[i + 1] == '.' && s[i + 2] == '.') {
                /* "head_1, ..., head_h": the terms left out between commas, a name */
                size_t a = i, z = i + 3;
                while (a > 0 && s[a - 1] == ' ')
                    a--;
                while (z < n && s[z] == ' ')
                    z++;
                if (a > 0 && s[a - 1] == ',' && z < n && (s[z] == ',' || s[z] == ')')) {
                    k = F_NAME;
                    l = 3;
                    break;
                }
            }
            k = i + 1 < n && (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_') ? F_DOT
              : lx->space && i + 1 < n && s[i + 1] == ' ' ? F_MUL : F_SEP;
            break;
        default: k = F_OTHER;
        }
        if (emit(lx, k, i, i + l))
            return -1;
        lx->depth += (k == F_LPAR) - (k == F_RPAR && lx->depth > 0);
        i += l;
    }
    /* a bracket said aloud and never closed ("softmax 括号 Q 乘 K 转置 除以根号 d k"): the
     * answer's end closes it, as a speaker's pause does */
    for (; n && lx->spoken > 0 && lx->depth > 0; lx->spoken--, lx->depth--)
        if (emit(lx, F_RPAR, n - 1, n - 1))
            return -1;
    return 0;
}

static int name_is(const ftoken *t, const char *w)
{
    size_t n = strlen(w);
    return t->kind == F_NAME && t->len == n && !strncasecmp(t->text, w, n);
}

/* "divide A by B", "multiply A by B" (or with B), "the dot product of A and B": the verb's "by" or
 * the "and" becomes the operator; the verb is no more than a filler. Between steps
 * (", and multiply by V") "and" says nothing, nor before the next statement of the index
 * form ("a_ij = …, and out_i = Σ_j a_ij v_j"); "the transposed keys": Kᵀ. */
static void resolve_verbs(ftokens *T)
{
    for (size_t i = 0; i < T->n; i++) {
        ftoken *t = &T->t[i];
        const ftoken *next = &T->t[i + 1];
        if (name_is(t, "and") && i && T->t[i - 1].kind == F_COMMA &&
            (next->kind == F_MUL || next->kind == F_DIV || next->kind == F_FILLER || name_is(next, "softmax") ||
             name_is(next, "multiply") || name_is(next, "divide")))
            t->kind = F_FILLER;
        if (name_is(t, "and") && fq_subscripted(next) && T->t[i + 2].kind == F_ASSIGN)
            t->kind = F_FILLER;
        /* "take Q and multiply it by Kᵀ": the verb acts on what came before */
        if (name_is(t, "and") && (name_is(next, "multiply") || name_is(next, "divide")) &&
            i + 2 < T->n && T->t[i + 2].kind == F_FILLER)
            t->kind = F_FILLER;
        if ((name_is(t, "transposed") || name_is(t, "transpose")) && next->kind == F_VAR &&
            (!i || (T->t[i - 1].kind != F_VAR && T->t[i - 1].kind != F_RPAR)))
            t->kind = F_TRANS_PRE;
        enum ftok op = name_is(t, "divide") || name_is(t, "divides") ? F_DIV
                     : name_is(t, "multiply") || name_is(t, "multiplies") ? F_MUL
                     : t->kind == F_DOTPRE ? F_DOTMUL : F_END;
        if (op == F_END)
            continue;
        for (size_t j = i + 1; j < T->n && T->t[j].kind != F_COMMA && T->t[j].kind != F_SEP; j++) {
            ftoken *w = &T->t[j];
            if (op == F_DOTMUL ? name_is(w, "and") || name_is(w, "with")
                               : name_is(w, "by") || (op == F_MUL && name_is(w, "with"))) {
                w->kind = op;
                t->kind = F_FILLER;
                break;
            }
        }
        /* "Q multiply K transpose": the verb between its two factors, no "by" */
        if (op == F_MUL && t->kind != F_FILLER && i &&
            (T->t[i - 1].kind == F_VAR || T->t[i - 1].kind == F_RPAR) &&
            (next->kind == F_VAR || next->kind == F_LPAR))
            t->kind = F_MUL;
        /* "then divide sqrt(dk)", "divide √dₖ": the divisor right after the verb, no "by" */
        if (op == F_DIV && t->kind != F_FILLER &&
            (next->kind == F_SQRT || name_is(next, "sqrt") || (next->kind == F_VAR && next->var == V_DK)))
            t->kind = F_DIV;
        if (t->kind == F_DOTPRE)
            t->kind = F_NAME;   /* words */
    }
}


/* 和 / 与 and a product verb in one clause make a product; alone they are words.
 * "对 V 加权求和" (a weighted sum over V): times V. */
static void resolve_products(ftokens *T)
{
    size_t start = 0;
    for (size_t i = 0; i <= T->n; i++) {
        enum ftok k = T->t[i].kind;
        if (k != F_COMMA && k != F_SEP && k != F_END)
            continue;
        int conj = 0;
        for (size_t j = start; j < i; j++) {
            ftoken *t = &T->t[j];
            if (t->kind == F_PRODVERB && t->var == 2) {
                /* 对 V 做加权求和: fillers (做, 进行) may stand between */
                size_t v = j;
                while (v > start && T->t[v - 1].kind == F_FILLER)
                    v--;
                int of_v = v >= 2 && v - 2 >= start && T->t[v - 1].kind == F_VAR &&
                           T->t[v - 1].var == V_V &&
                           (han_ends(&T->t[v - 2], "对") || han_ends(&T->t[v - 2], "把"));
                if (of_v)
                    T->t[v - 2].kind = F_MUL;
                t->kind = of_v ? F_FILLER : F_HAN;
                t->var = 0;   /* (a filler of var 2 would say "over the columns") */
                continue;
            }
            /* "divide all the scores by √d_k": the object between the verb and "by" is
             * what came before, the verb the division */
            if (t->kind == F_NAME && (fq_name_is(t, "divide") || fq_name_is(t, "divided")) &&
                j == start) {
                size_t b = j + 1;
                while (b < i && b <= j + 5 && (T->t[b].kind == F_NAME || T->t[b].kind == F_FILLER) &&
                       !fq_name_is(&T->t[b], "by"))
                    b++;
                if (b < i && b > j + 1 && T->t[b].kind == F_NAME && fq_name_is(&T->t[b], "by")) {
                    for (size_t k = j; k < b; k++)
                        T->t[k].kind = F_FILLER;
                    T->t[b].kind = F_DIV;
                    continue;
                }
            }
            size_t first = start;   /* the clause's first word that is no filler ("then") */
            while (first < j && T->t[first].kind == F_FILLER)
                first++;
            if (t->kind == F_NAME && (fq_name_is(t, "multiply") || fq_name_is(t, "multiplied")) &&
                j == first && j > 0 && j + 2 == i && T->t[j + 1].kind == F_VAR &&
                T->t[j + 1].var == V_V) {
                t->kind = F_MUL;   /* a last step said without its preposition: ", then multiply V" */
                continue;
            }
            if (t->kind == F_NAME && fq_name_is(t, "and") && j > start && j + 1 < i &&
                T->t[j - 1].kind == F_VAR && T->t[j - 1].var == V_Q &&
                T->t[j + 1].kind == F_VAR && T->t[j + 1].var == V_K && j + 2 < i &&
                T->t[j + 2].kind == F_NAME && fq_name_is(&T->t[j + 2], "transpose")) {
                t->kind = F_MUL;   /* said aloud: "Q and K transpose" is Q Kᵀ */
                continue;
            }
            if (t->kind == F_CONJ) {
                int verb = 0;
                for (size_t v = j + 1; v < i && !verb; v++)
                    verb = T->t[v].kind == F_PRODVERB ? 1 + T->t[v].var : 0;
                t->kind = verb == 2 ? F_DOTMUL : verb ? F_MUL : F_HAN;   /* 点积: of the rows */
                conj |= verb;
            } else if (t->kind == F_PRODVERB && !conj && t->var == 1 && j >= 2 &&
                       T->t[j - 1].kind == F_VAR && T->t[j - 1].var == V_K &&
                       T->t[j - 2].kind == F_VAR && T->t[j - 2].var == V_Q &&
                       (j < 3 || T->t[j - 3].kind != F_VAR)) {
                /* "QK 点积 → softmax → 乘 V": the dot products of Q and K, Q · Kᵀ */
                ftoken k = T->t[j - 1];
                T->t[j - 1] = *t;
                T->t[j - 1].kind = F_DOTMUL;
                T->t[j - 1].var = 0;
                *t = k;
            } else if (t->kind == F_PRODVERB) {
                t->kind = conj ? F_FILLER : F_HAN;
                conj = 0;
            }
        }
        start = i + 1;
    }
}

/* Is a (n bytes) one slip from word: a letter missing, added, changed, or two letters
 * swapped, case aside? */
static int one_slip(const char *a, size_t n, const char *word)
{
    size_t m = strlen(word), i = 0;
    if (n + 1 < m || n > m + 1 || (n == m && !strncasecmp(a, word, n)))
        return 0;
    while (i < n && i < m && tolower((unsigned char)a[i]) == word[i])
        i++;
    const char *x = a + i, *y = word + i;
    size_t nx = n - i, ny = m - i;
    if (nx == ny && nx >= 2 && tolower((unsigned char)x[0]) == y[1] &&
        tolower((unsigned char)x[1]) == y[0] && !strncasecmp(x + 2, y + 2, nx - 2))
        return 1;   /* sotfmax */
    if (nx == ny)
        return !strncasecmp(x + 1, y + 1, nx - 1);   /* softnax */
    if (nx > ny)
        return !strncasecmp(x + 1, y, ny);            /* softmaxx */
    return !strncasecmp(x, y + 1, nx);                /* sofmax */
}

/* "sofmax(QKᵀ/√dₖ)V", "softamx(…)": a name one slip from softmax, called, is softmax
 * (the student's typing, not their formula). */
static void resolve_slips(ftokens *T)
{
    for (size_t i = 0; i < T->n; i++) {
        ftoken *t = &T->t[i];
        if (t->kind == F_NAME && t->len >= 6 && T->t[i + 1].kind == F_LPAR &&
            one_slip(t->text, t->len, "softmax")) {
            t->text = "softmax";
            t->len = 7;
        }
    }
}

/* Length of an identifier at s, or 0. */
static size_t js_ident(const char *s)
{
    size_t n = 0;
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    return n;
}

/* Skip spaces, then the text w; the position after it, or NULL. */
static const char *js_expect(const char *s, const char *w)
{
    while (*s == ' ')
        s++;
    return strncmp(s, w, strlen(w)) ? NULL : s + strlen(w);
}

/* ".map(x => x" at p, the arrow function's parameter said again as its body's start:
 * the position after that, or NULL. */
static const char *js_arrow(const char *p)
{
    const char *q = *p == '.' ? js_expect(p, ".map(") : NULL;
    while (q && *q == ' ')
        q++;
    size_t a = q ? js_ident(q) : 0;
    const char *r = a ? js_expect(q + a, "=>") : NULL;
    while (r && *r == ' ')
        r++;
    return r && !strncmp(r, q, a) && !is_word_char((unsigned char)r[a]) ? r + a : NULL;
}

/* JavaScript's element-wise division or product written with map, as a bootcamp writes
 * it: "M.map(row => row.map(x => x / Math.sqrt(dk)))" or "v.map(x => x / s)" is
 * "M / (Math.sqrt(dk))". A new string with every such map rewritten (the caller frees
 * it), or NULL when there is none. */
static char *js_map_rewrite(const char *in)
{
    char *out = malloc(strlen(in) + 1);   /* the rewriting only shortens */
    if (!out)
        return NULL;
    size_t o = 0;
    int any = 0;
    for (const char *p = in; *p;) {
        const char *e = js_arrow(p), *inner = e ? js_arrow(e) : NULL;
        int nested = inner != NULL;   /* row => row.map(x => x OP …) */
        if (inner)
            e = inner;
        while (e && *e == ' ')
            e++;
        if (e && (*e == '/' || *e == '*')) {
            char op = *e++;
            const char *f = e;
            int depth = 0;
            while (*f && !(depth == 0 && *f == ')')) {
                depth += *f == '(';
                depth -= *f == ')';
                f++;
            }
            const char *g = f;
            for (int k = 0; k <= nested && g && *g == ')'; k++)
                g = js_expect(g, ")");
            if (*f == ')' && g) {
                out[o++] = ' ';
                out[o++] = op;
                out[o++] = ' ';
                out[o++] = '(';
                memcpy(out + o, e, (size_t)(f - e));
                o += (size_t)(f - e);
                out[o++] = ')';
                p = g;
                any = 1;
                continue;
            }
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
    if (!any) {
        free(out);
        return NULL;
    }
    return out;
}

/* Is the answer written in a language that counts axes from 1 (MATLAB, Octave, Julia, R,
 * Mathematica)? Its marks: the element-wise dot (.* ./ .^ .' exp.(S)), a transpose quote
 * after a matrix (K', which Python cannot write), Julia's dims=, R's %*%, <-, t(K),
 * rowSums, MATLAB's 'all', [] and % comments, and Mathematica's bracketed calls (Sqrt[…],
 * Transpose[…]) and named characters (\[Transpose]). */
static int one_based(const char *answer)
{
    static const char *const marks[] = {"%*%", "rowSums", "colSums", "'all'", "\"all\"", "[]",
                                        "\\[Transpose]", NULL};
    static const char *const mma[] = {"Sqrt[", "Exp[", "Transpose[", "Total[", "Dot[", "Softmax[",
                                      "SoftmaxLayer[", "Map[", "Max[", "Power[", NULL};
    const unsigned char *s = (const unsigned char *)answer;
    size_t len = strlen(answer);
    for (size_t k = 0; marks[k]; k++)
        if (strstr(answer, marks[k]))
            return 1;
    for (size_t k = 0; mma[k]; k++)
        for (const char *p = strstr(answer, mma[k]); p; p = strstr(p + 1, mma[k]))
            if (p == answer || !isalnum((unsigned char)p[-1]))
                return 1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.' && elementwise_dot(s, i, len))
            return 1;
        /* K', (QK)' (not the keys' dimension: a word's apostrophe) */
        int matrix = i && (isupper(s[i - 1]) || isdigit(s[i - 1]) || s[i - 1] == ')' || s[i - 1] == ']' ||
                           (islower(s[i - 1]) && (i == 1 || !isalnum(s[i - 2]))));
        if (s[i] == '\'' && matrix && (i + 1 == len || strchr("*/)]};,+-^ \n", s[i + 1])))
            return 1;
        if (s[i] == '<' && s[i + 1] == '-' && s[i + 2] != '-')
            return 1;
        if (percent_comment(answer, i))
            return 1;
        if (i && (isalnum(s[i - 1]) || s[i - 1] == '_' || s[i - 1] == '.'))
            continue;   /* t(K) and dims= start a name */
        if (s[i] == 't' && s[i + 1] == '(')
            return 1;
        if (!strncmp(answer + i, "dims", 4) && !is_word_char(s[i + 4]) && keyword_after(answer + i))
            return 1;
    }
    return 0;
}

/* C++'s std:: before a function (std::sqrt(dk)) gone: a new string, or NULL when there is
 * none or no memory. The text only shortens, so every offset into it stays inside the
 * answer (the formula's span is looked up in the answer itself). */
static char *code_forms_rewrite(const char *in)
{
    if (!strstr(in, "std::"))
        return NULL;
    char *out = malloc(strlen(in) + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; in[i];) {
        if (!strncmp(in + i, "std::", 5) && (!i || !is_word_char((unsigned char)in[i - 1])) &&
            isalpha((unsigned char)in[i + 5])) {
            i += 5;
            continue;
        }
        out[o++] = in[i++];
    }
    out[o] = '\0';
    return out;
}

int fq_tokenize(const char *answer, ftokens *out, at_error *err)
{
    memset(out, 0, sizeof *out);
    nbuf b = {0};
    lexer lx = {.b = &b, .out = out, .cap = 64};
    char *code = answer ? code_forms_rewrite(answer) : NULL;
    if (code)
        answer = code;
    char *js = answer ? js_map_rewrite(answer) : NULL;
    if (js)
        answer = js;
    int rc = normalise_text(answer ? answer : "", &b);
    if (!rc) {
        out->t = malloc(lx.cap * sizeof *out->t);
        if (!out->t || lex(&lx))
            rc = AT_ENOMEM;
    }
    if (!rc) {
        ftoken *e = &out->t[out->n];
        memset(e, 0, sizeof *e);
        e->kind = F_END;
        e->at = e->end = (long)strlen(answer ? answer : "");
        e->text = b.s + b.n;
        out->text = b.s;
        out->elementwise = b.elementwise;
        out->one_based = one_based(answer ? answer : "");
        b.s = NULL;
        resolve_products(out);
        resolve_verbs(out);
        resolve_slips(out);
    }
    free(b.s);
    free(b.at);
    free(b.end);
    free(js);
    free(code);
    if (rc) {
        fq_tokens_free(out);
        return at_error_set(err, rc, "out of memory");
    }
    return AT_OK;
}

void fq_tokens_free(ftokens *t)
{
    free(t->t);
    free(t->text);
    memset(t, 0, sizeof *t);
}

int fq_name_is(const ftoken *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == F_NAME && t->len == n && !strncasecmp(t->text, word, n);
}
