/* Text that no reader can read, whatever the question asks. */
#ifndef AT_QUIZ_GARBLE_H
#define AT_QUIZ_GARBLE_H

/* True when the UTF-8 answer s cannot be read by anyone: text written in UTF-8 and
 * decoded as Windows-1252 or GBK (CP936) (or Shift-JIS read as Windows-1252) before it was saved
 * again — "娉ㄦ剰鍔", "ï¼ˆâ€œ" — shown by at least three characters that read back;
 * two or more block, shade or missing-glyph characters (U+2580–U+259F, □ ▯ ⍰, U+FFFD) where
 * a scan or a font could not show the text;
 * or five or more short words of ASCII letters (no code, no formula), none of them the
 * field's and none of three letters or more in the system word list ("wqe rr nn atn kkj
 * xz"). Invalid UTF-8 is not judged here (false). */
int qz_answer_unreadable_text(const char *s);

/* Is the UTF-8 answer s mostly noise: at least two units of it, and no fewer than its
 * readable units, are keys run along or held, words the English word list does not hold,
 * a word said again ("dk dk dk"), sounds (啊啊啊, 呜呜), Zhuyin left unconverted, or a run
 * of three marks or more that is no ellipsis ("////", "，，，"), and one of them at least a
 * key run, a sound, Zhuyin or marks (strangers to the list alone may be French)? Readable
 * units: a word of the list or the field, a word with a letter outside ASCII, a number,
 * about one per two other Han characters. Only for an answer in which nothing was
 * recognised: a terse right answer may hold noise too. */
int qz_answer_mostly_noise(const char *s);

/* The UTF-8 answer s as it was written, when it was decoded as Windows-1252 and saved
 * again without losing a byte ("softmax(QKáµ€/âˆšdâ‚–)V" is "softmax(QKᵀ/√dₖ)V"):
 * a new string (free it), or NULL when s is not such text or a byte was lost. */
char *qz_answer_repaired(const char *s);

/* The UTF-8 answer s without its emoji (Extended_Pictographic characters from U+2000 on,
 * skin tones, the joiner U+200D and selector U+FE0F, flags, tags), each run of them one
 * space and none at the end: "softmax(q @ k.T / sqrt(dk)) @ v 👍" is read as the formula
 * it holds. A new string (free it), or NULL when s holds none or is not UTF-8. For a
 * formula or code: a written answer keeps its emoji (😂 beside nothing is a joke). */
char *qz_answer_without_emoji(const char *s);

/* The UTF-8 written answer s without the marks of Markdown a chat window leaves in it:
 * bold (**…**, __…__), headings (#…######) and a bullet before a bold label ("- **RNN**：").
 * Where a heading, a bullet or a bold label (a colon at its end or right after it) opens a
 * new item after words, " ; " parts the two: "**Q来源**：解码器 **K、V来源**：编码器" is
 * "Q来源：解码器 ; K、V来源：编码器"; bold inside a sentence ("is **enough**") only loses
 * its marks. A new string (free it), or NULL when s holds none. A single * or _ (a
 * product, d_k) stays. */
char *qz_answer_unmarked(const char *s);

/* A numeric answer without the Markdown emphasis that wraps its words and values
 * ("下雨 = **0.14**, 没 = __0.17__"): a pair of "**" or "__" goes where it opens after a
 * space, a mark or the start and closes before one, so a power in code ("e**0.3",
 * "math.e ** 0.5") stays. A new string (the caller frees it), or NULL when there is no
 * emphasis or no memory. */
char *qz_answer_unbolded(const char *s);

/* The UTF-8 answer s without the words it struck out in Markdown and wrote again
 * ("Q ← ~~编码器~~ 解码器", "~~RNN is slow~~ RNN: …"): each ~~…~~ that stands apart (a
 * space, a mark or the text's edge on both sides) taken out with a space beside it. A new
 * string (free it), or NULL when s strikes nothing that way, strikes part of a word or
 * number ("gr~~ad~~", "~~n~~1"), leaves a "~~" unpaired or "~~~" (a scribble): such
 * text stays as it is, for the reader to find it cannot be read. A note that a span was
 * struck goes with it ("~~K~~（划掉）", "(crossed out)"). When every word is struck out,
 * the new string is empty. */
char *qz_answer_unstruck(const char *s);

/* Does the short UTF-8 answer s (40 characters or fewer) only point to a picture or an
 * attachment ("[图片] 公式见图", "[image: formula.png]", （见附件截图）) that no grader can
 * see? */
int qz_answer_points_elsewhere(const char *s);

/* Is the UTF-8 text s (60 characters at most) no attempt at the question: a pointer to
 * another answer or elsewhere ("同上", "同 q4", "see q2", "see my msg in the thread", 略),
 * a promise to answer later ("晚点补", "TODO"), or a nod and nothing else ("lgtm 👍",
 * "+1 楼上", "收到 🙏")? Teachers mark these unreadable, not wrong: they are no answer. */
int qz_answer_no_attempt(const char *s);

/* Does the UTF-8 text s show characters lost on the way: a missing glyph (▯ □), the
 * replacement character U+FFFD, what lost bytes become read as GBK (锟斤拷; 烫烫烫 and
 * 屯屯屯 of unset memory), or ■ blotting out a character (not a bullet between spaces)?
 * One list for written answers, formulas and numbers. */
int qz_answer_lost_characters(const char *s);

#endif
