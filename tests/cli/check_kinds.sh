# attn-tutor check on kinds of text answers a class writes that the grader once misread:
# keyword salads of spaced terms, short statements between commas, misconceptions beside
# a right answer or instead of it (wrong; a minor one beside right parts, partly right),
# and text no reader can read.
. tests/lib.sh
state=$(mktemp -d)
export XDG_STATE_HOME="$state"
en() { "$AT_BIN" --lang en check "$@" --no-save; }
zh() { "$AT_BIN" --lang zh check "$@" --no-save; }

# Seven terms or more with only spaces between them state nothing, in either language;
# a terse answer with its commas or its words is no salad.
expect_status "q1 spaced terms (en): salad, wrong" 1 en q1 \
  "query key value multi head attention long range positional encoding O(1)"
expect_status "q1 spaced terms (zh): salad, wrong" 1 zh q1 "长距离依赖 梯度消失 并行 全局 O(1) O(n) 位置编码 多头"
expect_status "q5 spaced terms (en): salad, wrong" 1 en q5 "encoder decoder CLS softmax pooling attention both"
expect_status "q1 terse with commas (en): right" 0 en q1 "RNN O(n) steps, self-attention O(1) direct"
out=$(en q1 "query key value multi head attention long range positional encoding O(1)")
expect_contains "q1 salad: says so" "lists terms but states nothing" "$out"
# short statements between commas say something
expect_status "q2b statements between commas (en): right" 0 en q2b \
  "variance grows with dk, softmax saturates, gradients vanish"
expect_status "q2b statements between commas (zh): right" 0 zh q2b "防止点积过大，softmax 饱和，梯度消失"
expect_status "q2b terms between commas (zh): salad, wrong" 1 zh q2b "缩放，方差，饱和，梯度"

# What dₖ is, stated wrongly: the variance idea replaced, so wrong even beside it
expect_status "q2b dₖ as the sequence length (en): wrong" 1 en q2b \
  "It's to normalize by the sequence length, so long sentences don't get bigger scores."
expect_status "q2b 除以序列长度 (zh): wrong" 1 zh q2b "除以序列长度，防止句子越长分数越大"
expect_status "q2b dₖ as the batch size (en): wrong" 1 en q2b \
  "dₖ is the batch size; dividing keeps the variance 1; without it softmax saturates, gradients vanish"
expect_status "q2b √dₖ learned (zh): wrong" 1 zh q2b "√dₖ 是可学习参数，会在训练中更新"
expect_status "q2b an average over dimensions (zh): wrong" 1 zh q2b "求平均，因为有 dk 个维度。"
# a side remark about long sequences beside the right answer: wrong
expect_status "q2b right, plus long sequences (en): wrong" 1 en q2b \
  "It keeps the variance of the scores near 1 so softmax doesn't saturate and the gradients don't vanish; without it the model also couldn't handle long sequences."
expect_status "q2b right, the model learns slowly without it (en): right" 0 en q2b \
  "Dot products grow with dₖ; dividing by √dₖ keeps their variance near 1, otherwise softmax saturates and the model learns slowly because the gradients vanish."

# A false remark beside a right answer: wrong (the policy of most blind teachers)
expect_status "q1 the RNN's path called O(log n) (en): wrong" 1 en q1 \
  "In self-attention every token is directly connected with path length O(1), while an RNN has O(log n) path length."
expect_status "q5 a decoder said to help accuracy (en): wrong" 1 en q5 \
  "Encoder is enough, but a decoder would make it more accurate. Read from [CLS]."
expect_status "q5 the first real word (zh): wrong" 1 zh q5 "只用 Encoder；取第一个词（评论的第一个真实单词）的向量。"
expect_status "q5 the attention's softmax as the readout (zh): wrong" 1 zh q5 "从 softmax 的注意力矩阵读出。"
expect_status "q4 cross-attention called self-attention (en): not right" 1 en q4 \
  "Q from the decoder, K and V from the encoder, to align target with source; this layer is self-attention."

# Paraphrases of q1
expect_status "q1 self-attention glued (en): right" 0 en q1 \
  "selfattention connects i and j directly, rnn needs j-i steps. thats why transformers are better at long range dependancy"
expect_status "q1 far positions interact only indirectly (en): right" 0 en q1 \
  "RNN compresses everything into a hidden state passed along one step at a time, so far positions interact only indirectly; self-attention computes the interaction between any two positions directly, so the distance does not matter."
expect_status "q1 只能间接联系 (zh): right" 0 zh q1 "RNN 里远处的词只能间接联系，自注意力里任意两个词直接相连。"

# Text no reader can read: nothing counted (exit 2)
for a in "锟斤拷" "烫烫烫烫烫" "(1) â–ˆâ–ˆ (2) ï¿½ï¿½ï¿½ï¿½"; do
  expect_status "q5 '$a' cannot be read" 2 en q5 "$a"
done
expect_status "q3 0.锟斤拷 cannot be read" 2 zh q3 "0.锟斤拷 0.锟斤"

# French or Portuguese is no mojibake, though its bytes read as kanji in Shift-JIS: the
# grader cannot judge it (review), it does not call it unreadable; Japanese read as
# Windows-1252 is unreadable
expect_status "q4 French is no garble: review" 4 en q4 \
  "Q vient du décodeur, K et V de l'encodeur ; ça permet au décodeur de lire la source."
expect_status "q1 Portuguese words are no garble" 4 en q1 "Crème brûlée, déjà vu. Ação, não, são."
expect_status "q4 Shift-JIS read as Windows-1252 is unreadable" 2 en q4 "‚±‚ñ‚É‚¿‚Í"

# Box drawing is text a student may draw (shared case 6: "┌─┐" is three narrow
# characters): reading block and box characters back as mojibake must not refuse it
expect_status "q1 a box-drawn chain beside a right answer: graded, right" 0 en q1 \
  "RNN: ┌─┐→┌─┐→┌─┐ one step at a time; self-attention connects any two positions directly."
expect_status "q3 ┌─┐ before right values: graded, right" 0 zh q3 "┌─┐ 0.14 0.17"

# A false side remark beside a right q5 answer: partly right. An encoder's self-attention
# said to look one way only (the same said of a decoder is true: no claim); positional
# encoding given as the reason. A negation typed without its apostrophe is a negation.
expect_status "q5 right, the encoder said to see only earlier tokens (zh): wrong" 1 zh q5 \
  "只用encoder就够了，取[CLS]向量分类；不过encoder的自注意力只能看到前面的token。"
expect_status "q5 right, [CLS] said to see only the words after it (zh): wrong" 1 zh q5 \
  "（1）Encoder 就够。（2）[CLS] 向量。CLS 放在句首是因为它只能看到后面的词。"
expect_status "q5 right, the decoder said to see only earlier tokens (en): right" 0 en q5 \
  "(1) Only the encoder: a decoder's self-attention only sees previous tokens, which a classifier does not need. (2) the [CLS] vector"
expect_status "q5 right, positional encoding as the reason (en): wrong" 1 en q5 \
  "(1) encoder only is enough, and that's because the encoder doesn't need positional encodings for classification. (2) [CLS] token output."
expect_status "q1 right, 'doesnt need positional encoding' (en): wrong" 1 en q1 \
  "Self-attention connects any two positions directly (O(1) path) while an RNN needs O(n) steps; that's also why self-attention doesnt need positional encoding."

# A right q5 answer taken back for a decoder that the label is read from: wrong
expect_status "q5 right, then 'actually no, the label comes out of the decoder' (en): wrong" 1 en q5 \
  "(1) Encoder is enough. (2) [CLS]. Hmm, actually no — you need the decoder, and the label comes out of the decoder's final step."
expect_status "q5 right, then 不对，从 decoder 的输出读 (zh): wrong" 1 zh q5 \
  "（1）Encoder 就够了（2）[CLS]。不对不对，还是得用 decoder，从 decoder 的输出读。"
expect_status "q5 'not read from the decoder' is no such claim (en): right" 0 en q5 \
  "(1) The encoder alone; we don't read the label from the decoder, there is none. (2) the [CLS] vector"

# q4: 查询 after the decoder, with an object, is what the decoder does, not where Q comes
# from; "decoder 提问，" still names the queries' side. Purposes in other words: "gets info
# about the input", 相关的内容, 根据源端; the encoder getting information is the reverse.
expect_status "q4 让 decoder “查询”输入序列 (zh): right, no Q from the source" 0 zh q4 \
  "Q 来自 Decoder，K/V 来自 Encoder 的输出。它让 decoder 在生成时“查询”输入序列中相关的内容。"
expect_status "q4 decoder 提问，encoder 回答 (zh): right" 0 zh q4 \
  "decoder 提问，encoder 的输出来回答：Q 来自 decoder，K、V 来自 encoder 输出，这样生成时能去原句里找相关的信息。"
expect_status "q4 Q（查询）来自编码器 (zh): wrong" 1 zh q4 "Q（查询）来自编码器，K、V 来自解码器"
expect_status "q4 arrows and 'gets info about the input' (en): right" 0 en q4 \
  "Q←decoder, K,V←encoder. encoder-decoder attention = where the decoder gets info about the input sentence"
expect_status "q4 根据源端生成 (zh): right" 0 zh q4 \
  "Q 出自 decoder，K 和 V 都出自 encoder output，作用：encoder–decoder 之间的信息桥梁，让目标端根据源端生成。"
expect_status "q4 the encoder said to get information about the target (en): partly right" 3 en q4 \
  "Q from the decoder, K and V from the encoder; the encoder gets information about the target sentence."

# A right answer disowned in plain words at the end is taken back (wrong); one doubted
# ("I may have swapped them") cannot be judged (review); values disowned likewise
for a in "In an RNN the distance grows with the gap, information passes step by step; in self-attention any two positions are one step apart. None of that is true." \
         "In an RNN the distance grows with the gap; in self-attention any two positions are one step apart. That was wrong."; do
  expect_status "q1 right, then disowned: wrong: '$a'" 1 en q1 "$a"
done
expect_status "q1 right, then 以上都是错的 (zh): wrong" 1 zh q1 "RNN 里信息要一步步传，距离随间隔增长；自注意力里任意两个位置距离为 1。以上都是错的。"
expect_status "q4 right, then 'I may have swapped them' (en): review" 4 en q4 \
  "Q comes from the decoder, K and V come from the encoder output. It aligns target words with source words. I may have swapped them."
expect_status "q3 values, then 'That was a mistake.' (en): wrong" 1 en q3 "0.14 0.17. That was a mistake."
expect_status "q3 values disowned, then the right ones (en): right" 0 en q3 \
  "0.21 0.26 - that was wrong, the sum must include 伞: 0.14 0.17"

# q2: two different formulas offered ("; …", 也可能是, 或者, "or maybe") leave the answer
# unchosen: wrong, as every teacher's set marks it; the same formula twice, a per-query form after "i.e.", or a
# counterfactual ("without the scale, …") is no alternative. Traditional characters in
# a formula in words or a correction read as Simplified.
expect_status "q2 a second formula after ';' (en): wrong" 1 en q2 \
  "softmax(QK^T / sqrt(d_k)) V; softmax(QK^T * sqrt(d_k)) V"
expect_status "q2 也可能是 another formula (zh): wrong" 1 zh q2 "softmax(QKᵀ/√dₖ)V；也可能是 softmax(QKᵀ)V"
expect_status "q2 或者 a right formula after one with a slip (zh): wrong" 1 zh q2 \
  "softmax(QKᵀ/√dₖ)V 或者 softmax(QKᵀ)V/√dₖ，两种都行"
expect_status "q2 'or maybe' a formula without softmax (en): wrong" 1 en q2 \
  "softmax(QKᵀ/√dₖ)V, or maybe QKᵀV/√dₖ with no softmax at all, I've seen both"
expect_status "q2 the same formula in code after 'or' (en): right" 0 en q2 \
  "softmax(QKᵀ/√dₖ)V, or in code softmax(q @ k.T / math.sqrt(d_k)) @ v"
expect_status "q2 a counterfactual second formula (en): right" 0 en q2 \
  "softmax(QK^T / sqrt(d_k)) V; without the scale, softmax(QK^T) V would saturate"
expect_status "q2 the per-query form after i.e. (en): right" 0 en q2 \
  "softmax(QK^T/√d_k)V, i.e. out_i = Σ_j softmax_j(q_i·k_j/√d_k) v_j"
expect_status "q2 in Traditional words (zh): right" 0 zh q2 "注意力 = softmax(Q 乘 K 的轉置 除以 根號 dₖ) 乘 V"
expect_status "q2 a Traditional correction to a slip (zh): partly right" 3 zh q2 \
  "softmax(QKᵀ/√dₖ)V。不對，應該是 softmax(QKᵀ/dₖ)V。"
expect_status "q2 steps first, then the formula after a colon (zh): right" 0 zh q2 \
  "先算 QK^T，除以 √d_k，对每一行做 softmax，再乘 V：softmax(QK^T/√d_k)V"

# q2b: √dₖ said to multiply the scores, or the dot products said to shrink as dₖ grows: the
# direction turned round (not right); multiplying by 1/√dₖ, and scores made smaller by the
# division, are right
expect_status "q2b multiplies by √dₖ (en): wrong" 1 en q2b \
  "It multiplies the scores by √dₖ so their variance stays about 1; without it softmax saturates and gradients vanish."
expect_status "q2b 乘以根号 dk (zh): wrong" 1 zh q2b "点积乘以根号 dk，让方差保持在 1 左右，否则 softmax 饱和梯度消失"
expect_status "q2b dot products said to shrink with dₖ (en): wrong" 1 en q2b \
  "Dot products get smaller the more dimensions you add, so you blow them back up; otherwise softmax puts almost all weight on one token and learning stalls."
expect_status "q2b 维度越高点积越小 (zh): wrong" 1 zh q2b "维度越高点积越小，所以要除以 √dₖ 把它放大回来；否则 softmax 饱和，梯度消失。"
expect_status "q2b multiply by 1/√dₖ (en): right" 0 en q2b \
  "We multiply by 1/√dₖ so the variance stays about 1; otherwise softmax saturates and gradients vanish."
expect_status "q2b scores smaller after dividing (en): right" 0 en q2b \
  "Dot products grow with dₖ; after dividing by √dₖ they get smaller and the variance is about 1, so softmax doesn't saturate and gradients don't vanish."

# Two different claims offered as alternatives ("the decoder or the encoder", 梯度消失或爆炸,
# （也可能是编码器）): not chosen, left to review with why; synonyms with "or" are one claim
out=$(en q4 "Q comes from the decoder or the encoder, K and V come from the encoder output or the decoder. It aligns target words with source words."); rc=$?
expect_eq "q4 sources offered both ways (en): review" 4 "$rc"
expect_contains "q4 review says two answers are offered" "offers two answers" "$out"
expect_status "q4 （也可能是编码器） (zh): review" 4 zh q4 "Q 来自解码器（也可能是编码器），K 和 V 来自编码器的输出。作用是对齐目标词与源词。"
expect_status "q2b 梯度消失或爆炸 (zh): review" 4 zh q2b "保持方差在 1 左右，否则 softmax 饱和，梯度消失或爆炸。"
expect_status "q4 'the decoder or target side' are one side (en): right" 0 en q4 \
  "Q comes from the decoder or target side, K and V from the encoder; the decoder looks at the relevant source words."

# Many terms in one clause that states something with a word of grammar ('s, of, 的) are
# a sentence, not a salad; keywords typed one after another still are
expect_status "q4 the decoder's queries attend over the encoder's keys and values (en): not a salad, the possessives name both sources" 0 en q4 \
  "The decoder's queries attend over the encoder's keys and values. It aligns target words with source words."
expect_status "q2b keywords one after another (en): salad, wrong" 1 en q2b "scaling variance saturation gradients sqrt dk"

# q1: "the distance equals the number of steps" and 多远都一样 say the two sides, not that
# there is no difference; "the same for both" still is
expect_status "q1 the RNN's distance equals the number of steps (en): right" 0 en q1 \
  "In an RNN the dependency distance equals the number of steps between the tokens; in self-attention it's always 1 because each position attends to all positions at once."
expect_status "q1 多远都一样 (zh): right" 0 zh q1 "RNN 要一步一步传，远的词容易忘（梯度消失）；self-attention 每个词直接看所有词，多远都一样。"
expect_status "q1 the same for both (en): wrong" 1 en q1 "There is no difference: the distance is the same for both."

# A formula or values disowned after them (以上都是错的, "that's wrong", "I take that back")
# are taken back: wrong; an explanation after the formula is not
expect_status "q2 formula, then 以上都是错的 (zh): wrong" 1 zh q2 "softmax(QKᵀ/√dₖ)V，以上都是错的。"
out=$(zh q2 "softmax(QKᵀ/√dₖ)V，以上都是错的。")
expect_contains "q2 the take-back named in the body, after the headline (zh)" "不正确。
答案最后把给出的公式收回了。" "$out"
out=$(en q2 "softmax(QK^T / sqrt(d_k)) V; softmax(QK^T * sqrt(d_k)) V")
expect_contains "q2 the second formula named in the body, after the headline (en)" "Not right.
The answer offers two different formulas" "$out"
expect_status "q2 formula, then 'everything above is incorrect' (en): wrong" 1 en q2 \
  "softmax(QK^T/sqrt(d_k))V — everything above is incorrect."
expect_status "q2 formula and its explanation (en): right" 0 en q2 \
  "softmax(QK^T/sqrt(d_k))V, where dividing by sqrt(d_k) keeps the dot products from growing with the dimension"
expect_status "q3 values, then 'no, that's wrong' (en): wrong" 1 en q3 "0.14 0.17 — no, that's wrong."
expect_status "q3 values, then 'I take that back' (en): wrong" 1 en q3 "0.14 0.17. I take that back."
expect_status "q3 wrong values disowned, then right ones (en): right" 0 en q3 "0.13 0.21, that's wrong, I forgot exp: 0.14 0.17"

# True side remarks are no misconceptions: a decoder needed only to generate (q5), Q, K, V
# from one sequence said of self-attention by contrast (q4), peeking at the input (q4)
expect_status "q5 Decoder是生成序列才需要的 beside a right answer (zh): right" 0 zh q5 \
  "（1）只用 Encoder 就够，Decoder是生成序列才需要的。（2）取 [CLS] 的输出接分类器"
expect_status "q4 '(unlike self-attention, where Q, K and V all come from the same sequence)' (en): right" 0 en q4 \
  "Q comes from the decoder, K and V from the encoder output (unlike self-attention, where Q, K and V all come from the same sequence); it lets the decoder look at the relevant source words."
expect_status "q4 Q, K and V all from one sequence (en): wrong" 1 en q4 \
  "Q, K and V all come from the same sequence, the decoder; it lets the decoder look at the source."
expect_status "q4 the decoder can peek at the input sentence (en): right" 0 en q4 \
  "Q from the decoder, K and V from the encoder, so the decoder can peek at the input sentence."

# A formula that cannot be read is told so in the answer's language, where it is
out=$(zh q2 "softmax(QKᵗ/√dₖ"); rc=$?
expect_eq "q2 unread formula (zh): not counted" 2 "$rc"
expect_contains "q2 unread formula (zh): in Chinese, with the place" "第 16 个字符处读不懂这个公式：缺少右括号" "$out"
out=$(en q2 "softmax(QK^T/sqrt(d_k)")
expect_contains "q2 unread formula (en)" "cannot read the formula at character 23: a closing parenthesis is missing" "$out"
# "Training is unstable" alone names no consequence a teacher can mark: the scale part
# only, partly right
expect_status "q2b 控制方差，不然训练不稳定 (zh): partly right" 3 zh q2b "控制方差，不然训练不稳定。"
expect_status "q2b smaller scores, otherwise unstable (zh): partly right" 3 zh q2b "缩小分数；不除的话训练不稳定。"
expect_status "q2b unstable beside saturation (zh): right" 0 zh q2b \
  "保持 score 的方差为 1，不除的话 softmax 会饱和，训练不稳定/梯度消失"
# 自注意力 typed by a pinyin input method (自助意力, 字注意力): the word meant
expect_status "q1 自助意力 read as 自注意力 (zh)" 0 zh q1 \
  "自助意力直接建立任意两个位置的联系，不管离多远都是一步；RNN 得逐个时间步传递，依赖距离和位置差成正比。"
expect_status "q1 字注意力 read as 自注意力 (zh)" 0 zh q1 "字注意力任意两个词一步相连，RNN要一步步传"
# 串行 says how an RNN passes information, not that speed is the answer
expect_status "q1 RNN 串行, step by step, vs direct (zh): right" 0 zh q1 \
  "RNN 是串行的，信息要沿着隐藏状态一个个传过去，远的词容易被遗忘；self-attention 任意两个词直接算相关性，跟距离无关。"
# the bare contrast is the RNN's side without the distance: partly right, as most teachers
# mark it; said to be faster, or given as "the essential difference", wrong
expect_status "q1 串行 vs 并行 only (zh): partly right" 3 zh q1 "RNN 串行，自注意力并行"
expect_status "q1 并行 so faster (zh): wrong" 1 zh q1 "自注意力可以并行计算，RNN 只能串行，所以训练更快。"
expect_status "q1 parallel given as the essential difference (en): wrong" 1 en q1 \
  "The essential difference is that self-attention can be computed in parallel while an RNN must be computed sequentially."
# Purposes of cross-attention in more words a class uses
expect_status "q4 用到输入序列的信息 (zh)" 0 zh q4 \
  "q 来自 decoder，k v 来自 encoder，作用是让 decoder 用到输入序列的信息（类似 seq2seq 里的 attention）。"
expect_status "q4 Traditional, 「查詢」輸入句子的資訊 (zh)" 0 zh q4 \
  "Q 來自解碼器，K、V 來自編碼器輸出。作用是讓解碼器能「查詢」輸入句子的資訊。"
expect_status "q4 按需取给 decoder (zh)" 0 zh q4 \
  "查询来自目标端（decoder），键和值来自源端（encoder）。这一层负责把 encoder 编码好的信息按需取给 decoder。"
expect_status "q4 the decoder reading the encoder (en)" 0 en q4 \
  "Q from decoder, K V from encoder. cross attention = decoder reading the encoder."
expect_status "q4 a language model that never sees the input (en)" 0 en q4 \
  "Queries come from the decoder, keys and values from the encoder output. Without it the decoder would just be a language model that never sees the input."
expect_status "q4 sources only, no purpose (zh): partly right" 3 zh q4 "Q 来自解码器，K、V 来自编码器输出。"
# K and V from an encoder layer other than the last: a false remark, partly right
expect_status "q4 K、V 来自 encoder 对应的同一层 (zh): wrong" 1 zh q4 \
  "Q 来自 decoder，K、V 来自 encoder 对应的同一层。作用是对齐。"
expect_status "q4 K/V from the encoder's first layer (en): wrong" 1 en q4 \
  "Q from the decoder, K and V from the first layer of the encoder; it lets the decoder look at the source."
expect_status "q4 otherwise the decoder couldn't see the source (en)" 0 en q4 \
  "Q from the decoder, K and V from the encoder; otherwise the decoder couldn't see the source."
expect_status "q4 the decoder never sees the input, said as a fact (en): not right" 3 en q4 \
  "Q from the decoder, K and V from the encoder. The decoder never sees the input."
expect_status "q4 如果没有交叉注意力，解码器就看不到原句 (zh)" 0 zh q4 \
  "Q 来自解码器，K、V 来自编码器。如果没有交叉注意力，解码器就看不到原句。"
# The course's misconception that attention handles long texts for free, beside a right
# answer: partly right
expect_status "q1 right, then any length without a problem (zh): wrong" 1 zh q1 \
  "自注意力 O(1)，RNN O(n)，所以 Transformer 处理任意长度序列都没有任何问题。"
expect_status "q1 right, then self-attention has linear cost (en): wrong" 1 en q1 \
  "Self-attention connects any two positions in one step, an RNN needs O(n) steps; and self-attention has linear cost in the length."
expect_status "q1 right, then the quadratic cost (en): right" 0 en q1 \
  "Self-attention connects any two positions in one step, an RNN needs O(n) steps; the price is O(n²) compute."
# Cross-attention taken for attention between heads: wrong, named; several heads beside a
# right answer cost nothing
expect_status "q4 attention across heads (en): wrong" 1 en q4 \
  "Cross-attention attends across heads, mixing the multiple heads together."
expect_status "q4 多个头之间交叉 (zh): wrong" 1 zh q4 "交叉注意力就是把多个头的结果交叉拼接起来。"
expect_status "q4 right, and every head does it (zh): right" 0 zh q4 \
  "Q 来自解码器，K、V 来自编码器，作用是让解码器关注源句。每个头都这样做。"
out=$(en q4 "cross attention = attention across heads, Q K V from different heads, to combine the heads")
expect_contains "q4 across heads: the feedback says what cross-attention is" "not attention between heads" "$out"
# q5: another network needed to classify, or the label read from the positional encoding
expect_status "q5 self-attention cannot classify, an RNN on top (en): wrong" 1 en q5 \
  "Self-attention can't do classification, you need an RNN/CNN on top."
expect_status "q5 自注意力不能做分类，要用 CNN (zh): wrong" 1 zh q5 "自注意力不能做分类，要用 CNN。"
expect_status "q5 从位置编码读出 (zh): wrong" 1 zh q5 "（1）Decoder（2）从位置编码读出"
# √dₖ as a temperature of the softmax: the scale part; with the consequence, right
expect_status "q2b a temperature, too sharp otherwise, gradients near zero (en): right" 0 en q2b \
  "It's a temperature: it stops the softmax from becoming too sharp when the dimension is big. Without it almost all the weight goes to one key and the model learns slowly because gradients through the softmax are near zero."
expect_status "q2b like a temperature, nothing more (en): partly right" 3 en q2b "It's like the temperature in softmax."
# the RNN's information passing through many hidden states: step by step
expect_status "q1 穿过很多个隐状态 (zh): right" 0 zh q1 \
  "RNN里远距离依赖要穿过很多个隐状态，容易遗忘/梯度消失；自注意力每个位置直接和所有位置算注意力权重，路径长度O(1)。"
# weights that sum to 1 only after the division by √dₖ: a false remark, partly right; the
# same said of softmax is true
expect_status "q2b right, then √dₖ makes the weights sum to 1 (zh): wrong" 1 zh q2b \
  "缩小分数防止softmax饱和、梯度消失。另外除以√dₖ之后注意力权重加起来才等于1。"
expect_status "q2b right, then softmax makes them sum to 1 (zh): right" 0 zh q2b \
  "缩小分数防止softmax饱和、梯度消失。softmax 之后权重加起来等于1。"
# a question answered by a bare yes or no says or denies what it asks; a quoted question
# is asked, not said
expect_status "q5 Need a decoder? No. (en): right" 0 en q5 "Need a decoder? No. Read the label from the [CLS] vector."
expect_status "q5 Need a decoder? Yes. (en): not right" 3 en q5 "Need a decoder? Yes. Read the label from the [CLS] vector."
expect_status "q5 需要解码器吗？不需要。 (zh): right" 0 zh q5 "需要解码器吗？不需要。从 [CLS] 读出。"
expect_status "q5 quoted question, then the answer (zh): right" 0 zh q5 \
  "引用：「只用 Encoder 的自注意力就够了，还是必须用 Decoder？」只用编码器就够了，从 [CLS] 读出。"
# characters blotted out with ■ cannot be read; ■ between spaces is a bullet
expect_status "q3 blotted digits: unreadable" 2 en q3 "0.■4 0.1■"
expect_status "q4 ■ as bullets (zh): right" 0 zh q4 "■ Q 来自 decoder ■ K、V 来自 encoder ■ 作用：让解码器看原句"
# lines typed on one line with " / ", and a line that opens with a label, are sentences
expect_status "q1 two lines with ' / ' (zh): right" 0 zh q1 "RNN = O(n)，逐个 time step 传递 / SelfAttention = O(1)，每个 query 直接和所有 key 做点积"
expect_status "q1 two lines (zh): right" 0 zh q1 "RNN = O(n)，逐个 time step 传递
SelfAttention = O(1)，每个 query 直接和所有 key 做点积"
# "like the RNN" gives the claim to the subject compared; a side named as a time is none
expect_status "q1 也要像 RNN 一样一步一步 (zh): wrong" 1 zh q1 "自注意力中任意两个位置不会直接相连，也要像 RNN 一样一步一步传过去。"
expect_status "q4 K and V fixed while decoding (en): right" 0 en q4 \
  "Q comes from the decoder and K, V from the encoder output, so every target word can look up the source; K and V stay fixed while decoding."
rm -rf "$state"
