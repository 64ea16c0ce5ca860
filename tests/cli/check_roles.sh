# attn-tutor check on text answers whose words are all there but whose roles are
# swapped: graded wrong with what is wrong; natural phrasings of the right roles pass.
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
en() { "$AT_BIN" --lang en check "$@" --no-save; }
zh() { "$AT_BIN" --lang zh check "$@" --no-save; }

out=$(en q4 "Q comes from the encoder, K and V come from the decoder. It aligns the words."); rc=$?
expect_eq "q4 swapped (en): wrong" 1 "$rc"
expect_contains "q4 swapped (en): verdict" "q4: wrong (score 0)" "$out"
expect_contains "q4 swapped (en): says why Q" "you wrote that Q comes from the encoder: in cross-attention the queries come from the decoder" "$out"
expect_contains "q4 swapped (en): says why K, V" "you wrote that K and V come from the decoder" "$out"
out=$(zh q4 "Q 来自编码器，K 和 V 来自解码器，用来对齐源语言和目标语言。"); rc=$?
expect_eq "q4 swapped (zh): wrong" 1 "$rc"
expect_contains "q4 swapped (zh): says why Q" "你写的是 Q 来自编码器：交叉注意力的 query 来自解码器" "$out"
expect_contains "q4 swapped (zh): says why K, V" "你写的是 K 和 V 来自解码器" "$out"
out=$(en q4 "Q comes from the encoder, K and V come from the decoder." --format json)
expect_contains "q4 swapped json: wrong" '"verdict":"wrong"' "$out"

expect_status "q4 queries are the decoder's states (en)" 0 en q4 \
  "The queries are the decoder's hidden states; keys and values are the encoder outputs. It aligns the translation with the source sentence."
expect_status "q4 Q 来自解码器 (zh)" 0 zh q4 "Q 来自解码器，K 和 V 来自编码器的输出，作用是把译文和源句对齐。"
expect_status "q4 decoder provides the queries (en)" 0 en q4 \
  "The decoder provides the queries, the encoder provides the keys and values; used to align the translation with the source."
expect_status "q4 'used for translation' is no purpose: partly right (en)" 3 en q4 \
  "The decoder provides the queries, the encoder provides the keys and values; used for translation."
expect_status "q4 one role right, one swapped: wrong (a misconception is wrong)" 1 en q4 \
  "Q comes from the decoder; K and V come from the decoder too; it aligns the translation."

out=$(en q5 "You need a decoder."); rc=$?
expect_eq "q5 'need a decoder' is not 'encoder only'" 1 "$rc"
expect_contains "q5 need a decoder: says why" "you wrote that a decoder is needed" "$out"
expect_status "q5 需要解码器 is wrong" 1 zh q5 "需要解码器。"
expect_status "q5 不需要解码器 + [CLS] is right" 0 zh q5 "不需要解码器，用 [CLS] 读出。"
expect_status "q5 don't need a decoder + CLS is right" 0 en q5 "Encoder only, we don't need a decoder; read the CLS token."

expect_status "q1 swapped (en) is wrong" 1 en q1 \
  "In self-attention information goes step by step, while an RNN connects any two positions in one step."
expect_status "q1 swapped (zh) is wrong" 1 zh q1 "自注意力要逐步传递，而 RNN 任意两个位置一步到位。"
expect_status "q1 right (en)" 0 en q1 "An RNN needs N steps to link words N apart, while self-attention links them in one step."

# Roles noted in parentheses: the group named there takes the claim inside or just before
# the parenthesis, not the one after it; the same notes turned round stay wrong.
expect_status "q4 roles in parentheses (en)" 0 en q4 \
  "In translation, the word being generated (decoder, Q) searches the source sentence (encoder, K and V) for what it needs."
expect_status "q4 roles in parentheses after the side (zh)" 0 zh q4 \
  "解码器提问（Q），编码器提供答案库（K、V），解码器据此从输入句子中取信息。"
expect_status "q4 roles in parentheses, an analogy (zh)" 0 zh q4 \
  "就像翻译时，写译文的人（解码器，出Q）边写边去看原文（编码器，出K、V）找对应的内容。"
expect_status "q4 roles in parentheses turned round (zh): wrong" 1 zh q4 \
  "编码器提问（Q），解码器提供答案库（K、V），编码器据此从输出句子中取信息。"
expect_status "q4 a note that names a layer is no role (zh)" 0 zh q4 \
  "Q 来自解码器（上一层的输出），K、V 来自编码器最后一层的输出。作用是让解码器在生成每个词时关注源句中相关的部分。"
# A sentence said of the group before that names a side with no word of origin: the side
# acts, it is not where that group comes from
expect_status "q4 'it is how the decoder gets …' after the sources (en): right" 0 en q4 \
  "Q from the decoder, K and V from the encoder. It is how the decoder gets information about the source."
expect_status "q4 'it is how the encoder gets …' (the reverse) after the sources (en): partly right" 3 en q4 \
  "Q from the decoder, K and V from the encoder. It is how the encoder gets information about the target."
expect_status "q4 a second sentence that says K and V come from the decoder stays wrong (en)" 1 en q4 \
  "Q from the decoder, K and V from the encoder. No wait, they come from the decoder."
# Two lists side by side, one of them joined by "vs" (对) or the sentence saying
# "respectively": the claims go to the sides in order, whichever list comes first
expect_status "q1 claims vs claims, sides vs sides in parentheses (en)" 0 en q1 \
  "O(1) vs O(n) (self-attention vs RNN)"
expect_status "q1 sides vs sides, then claims vs claims (en)" 0 en q1 \
  "self-attention vs RNN: O(1) vs O(n) path length"
expect_status "q1 claims first, sides after with 'respectively' (en)" 0 en q1 \
  "constant vs linear path length, for attention and RNN respectively"
expect_status "q1 claims vs claims in the swapped order (en): wrong" 1 en q1 \
  "O(n) vs O(1) (self-attention vs RNN)"
expect_status "q1 sides vs sides swapped, then claims (en): wrong" 1 en q1 \
  "RNN vs self-attention: O(1) vs O(n)"
expect_status "q1 两组对照 (zh)" 0 zh q1 "路径长度：常数 vs 线性（自注意力 vs RNN）"
expect_status "q1 先说结论后分别对应 (zh)" 0 zh q1 "O(1)和O(n)，分别对应自注意力和RNN"
# A parenthesis that opens with only a copula or 都 says something of what came before it,
# not of the next subject
expect_status "q1 （都是一步） is said of self-attention, not of the RNN after it (zh)" 0 zh q1 \
  "自注意力的依赖路径长度跟两个位置隔多远无关（都是一步），RNN的则和距离成正比"
expect_status "q4 a parenthesis that names a layer deep inside stays a note (en)" 0 en q4 \
  "Q is the decoder's, K and V are the encoder's final output (the same for every decoder layer). It aligns each target word with the source words."
# One of K and V on the wrong side, the other right: one part of the idea wrong, partly
# right; both on the wrong side, or Q too, stays wrong
expect_status "q4 V from the decoder, K from the encoder (en): partly right" 3 en q4 \
  "Q from the decoder, K from the encoder, V from the decoder. It lets the decoder look at the source."
expect_status "q4 V 来自解码器，K 来自编码器 (zh): partly right" 3 zh q4 \
  "Q 来自解码器，K 来自编码器，V 来自解码器。作用是让解码器看编码器。"
expect_status "q4 K and V both from the decoder (en): wrong" 1 en q4 \
  "Q from the decoder, K from the decoder, V from the decoder."
expect_status "q4 Q from the encoder, K and V from the decoder (en): wrong" 1 en q4 \
  "Q from the encoder, K and V from the decoder. It lets the decoder look at the source."
expect_status "q4 K and V from the encoder, then V from the decoder too (en): wrong" 1 en q4 \
  "Q from the decoder, K and V from the encoder, and V from the decoder too. It lets the decoder look at the source."
expect_status "q5 encoder enough, then a decoder generates the label (zh): wrong" 1 zh q5 \
  "只需要 Encoder，然后让 Decoder 根据 CLS 生成标签。"
rm -rf "$state"
