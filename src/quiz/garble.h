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

/* The UTF-8 answer s as it was written, when it was decoded as Windows-1252 and saved
 * again without losing a byte ("softmax(QKáµ€/âˆšdâ‚–)V" is "softmax(QKᵀ/√dₖ)V"):
 * a new string (free it), or NULL when s is not such text or a byte was lost. */
char *qz_answer_repaired(const char *s);

#endif
