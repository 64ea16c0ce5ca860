/* The grader's own words, in both languages, used whatever the rubric says: words of
 * direction, list glue, foils, pronouns, and the answers that give up or take back.
 * A rubric adds its own phrases to a claim; these are only the common ground. */
#define _GNU_SOURCE   /* strcasestr */
#include "quiz/compiled.h"

#include <stddef.h>
#include <string.h>

const char *qz_lex_find(const char *s, const char *const *w)
{
    for (size_t k = 0; w[k]; k++)
        if (strcasestr(s, w[k]))
            return w[k];
    return NULL;
}

/* grows, larger, 变大 */
const char *const qz_lex_up[] = {
    "grow", "grows", "growing", "grew", "grown", "increase", "increases", "increasing",
    "larger", "bigger", "big", "large", "huge", "enormous", "high", "higher", "rise", "rises",
    "blow up", "blows up", "explode", "explodes", "inflate", "inflates", "enlarge", "enlarges",
    "amplify", "amplifies", "expand", "expands", "longer", "more", "greater", "get big",
    "too big", "too large", "very large", "scale up", "scales up", "accumulate",
    "scales them up", "scale them up", "scales it up", "scale it up", "scales the scores up",
    "scale the scores up", "makes them bigger", "makes them larger",
    "增大", "变大", "增加", "增长", "越大", "很大", "过大", "太大", "更大", "变长", "越长", "更长",
    "更远", "更多",
    "越远", "上升", "膨胀", "放大", "大", "高", "变高", "越高", "很高", "过高", "太高", "爆炸",
    "越多", "累积", "累加", "积累", NULL};

/* words that hold a word of direction and say none: 大概, 大小, 多远 */
const char *const qz_lex_no_direction[] = {
    "大概", "大约", "大致", "大多", "大部分", "大家", "大小", "最大", "最小", "小明", "多远",
    "多少", "高度", "高维", "低维", "提高效率", "路径长度", "长度", "path length", "more or less",
    "at most", "high-dimensional", "high dimensional", "low-dimensional", "low dimensional",
    "at least", "largely", NULL};

/* shrinks, smaller, 变小 */
const char *const qz_lex_down[] = {
    "shrink", "shrinks", "decrease", "decreases", "decreasing", "smaller", "small", "reduce",
    "reduces", "reduced", "reducing", "lower", "lowers", "less", "tiny", "drop", "drops",
    "diminish", "diminishes", "shorter", "scale down", "scales down", "scaled down", "dampen",
    "dampens", "shrunk", "weaken", "weakens", "fade", "fades", "decay", "decays",
    "变小", "减小", "缩小", "减少", "降低", "降", "小", "很小", "越小", "变低", "压低", "压小",
    "压缩", "缩", "减", "衰减", "变弱", "削弱", "压下来", "压下去", "降下来", "拉下来", "调小",
    NULL};

/* constant, kept, 不变 */
const char *const qz_lex_same[] = {
    "constant", "fixed", "unchanged", "same", "stay", "stays", "remain", "remains", "keep",
    "keeps", "kept", "maintain", "maintains", "stable", "steady", "stabilize", "stabilizes",
    "stabilise", "stabilises", "independent of", "regardless of", "does not depend",
    "doesn't depend", "no matter how", "irrespective of", "makes no difference to",
    "make no difference to", "does not affect", "doesn't affect", "not affected by",
    "no matter how large", "no matter how big", "no matter how long", "no matter how great",
    "however large", "however big", "however long", "不管多大", "无论多大", "不论多大",
    "unaffected by", "does not change with", "doesn't change with",
    "不变", "恒定", "固定", "保持", "稳定", "维持", "一样", "相同", "常数", "常量", "无关",
    "不管多远", "无论多远", "不论多远", "没关系", "没有关系", "不受", "不相关", NULL};

/* between subjects of one group: "Q, K and V", "K/V", "Q 和 K" */
const char *const qz_lex_glue[] = {"and", "or", "&", "+", ",", "、", "/", "和", "与", "及",
                                   "以及", "或", "跟", "同", "both", "all", "都", "also", "(",
                                   ")", "（", "）", NULL};

/* before a subject that is only compared with */
const char *const qz_lex_foil_before[] = {"unlike", "compared to", "compared with", "versus",
                                          "vs", "than", "in contrast to", "contrary to",
                                          "like", "just like", "as in", "as with",
                                          "不像", "不同于", "比起", "相比", "对比", "相较",
                                          "相比于", "像", "就像", "如同", NULL};
/* after it: "与 RNN 相比", "跟 RNN 不同" */
const char *const qz_lex_foil_after[] = {"相比", "比起来", "不同", "相比之下", "对比", NULL};

/* a sentence that starts with one of these has its subject already: "it normalises" */
const char *const qz_lex_pronoun[] = {"it", "this", "that", "they", "these", "which", "its",
                                      "它", "这", "这个", "其", "它们", "这样", "这一步", NULL};

/* a verb of change: denied, what it would change stays as it is ("gates don't change the
 * O(n) path", 不改变路径长度) */
const char *const qz_lex_change[] = {"change", "alter", "affect", "fix", "solve", "remove",
                                     "eliminate", "改变", "改", "影响", "解决", "消除", "去掉", NULL};

/* Chinese words that join a subject to what is said of it: a run of terms that holds one
 * states something ("除以 √dₖ 让点积的方差不随维度变大") */
const char *const qz_lex_joins[] = {"让", "使", "使得", "随", "随着", "把", "被", "会", "导致", "变得",
                                    NULL};

/* before a subject that is an object, not the one the sentence speaks of: 把分数…, or a
 * unit of a rate ("O(n²) compute per layer");
 * before a claim, a destination, not an origin: "sends a query into the source" */
const char *const qz_lex_object[] = {"把", "将", "per", NULL};
const char *const qz_lex_destination[] = {"into", "onto", "over", "against", "toward", "towards",
                                          "based on", "using", "去", "向", "回头看", "根据", "依据",
                                          "通过", /* a causee: "让 decoder 去源句里找" */ "让",
                                          "使得", "lets", "let", "letting", "allows", "allow",
                                          "prevents", "prevent", "preventing", "stops", "stop",
                                          "stopping", "防止", "阻止", /* who is asked: "the decoder asks the
                                          * source" */ "asks", "ask", "asking", "queries",
                                          /* what a query is sent to: "asks questions to the
                                           * source" */
                                          "questions to", "question to", "queries to",
                                          "query to", "a query to", "requests to",
                                          /* what a thing serves: "the same K, V memory for
                                           * every decoder layer" */
                                          "for", "for every", "for each", "for all",
                                          "used by", "shared by", "shared across", "供",
                                          NULL};
/* before a claim, what is looked at: not the origin of a subject carried from the
 * sentence before ("Q comes from the decoder. It lets the decoder look at the encoder") */
const char *const qz_lex_looked_at[] = {"look at", "looks at", "looking at", "attend to",
                                        "attends to", "focus on", "focuses on", "看", "看向",
                                        "查看", "关注", NULL};

/* the two sides of an encoder-decoder, and their positions after one ("目标端每个位置",
 * "decoder positions"): a side with its positions acts or is acted on, it is no origin
 * unless a word of origin stands before it ("K、V 来自编码器每个位置的输出") */
const char *const qz_lex_side[] = {"encoder", "decoder", "source", "target", "input",
                                   "编码器", "解码器", "编码端", "解码端", "源端", "源句", "源序列",
                                   "原句", "目标端", "目标句", "目标序列", "输入", NULL};
const char *const qz_lex_positions[] = {"position", "positions", "token", "tokens", "word",
                                        "words", "位置", "每个位置", "每一个位置", "所有位置",
                                        "各个位置", "全部位置", "每个词", "所有词", "各个词",
                                        "每个 token", "所有 token", NULL};
const char *const qz_lex_origin[] = {"from", "来自", "从", "出自", "取自", "源自", "由", NULL};
/* a side right before one of these acts in a statement of its own ("the decoder can
 * condition …", 解码器能看到原句): it is not where Q, K or V come from */
const char *const qz_lex_ability[] = {"can", "could", "will", "would", "may", "might", "gets",
                                      "get", "is able", "are able", "能够", "可以", "就能", "才能",
                                      "能", NULL};

/* a claim right after one of these, when the sentence holds two ("one the encoder, the
 * other the decoder", 一个是编码器一个是解码器), is said of neither subject in particular */
const char *const qz_lex_indefinite[] = {"one", "one is", "one of them", "one side", "the other",
                                         "the other one", "the other is", "the other side",
                                         "other", "another", "一个", "一个是", "另一个",
                                         "另一个是", "一边", "一边是", "另一边", "另一边是",
                                         "其中一个", NULL};
/* the claims after a group of subjects go to its parts in order: "Q and K, V come from the
 * decoder and the encoder respectively", Q 和 K、V 分别来自解码器和编码器 */
const char *const qz_lex_respectively[] = {"respectively", "in that order", "分别", "各自",
                                           "依次", NULL};
/* between the parts of such a group ("Q and K, V": Q, then K and V) */
const char *const qz_lex_part_glue[] = {"and", "和", "与", "以及", "及", "跟", NULL};
/* between two sides set against each other, or what is said of each: "self-attention vs
 * RNN: O(1) vs O(n)", 自注意力对 RNN */
const char *const qz_lex_versus[] = {"vs", "vs.", "versus", "v.", "对", "对比", "对上", NULL};

/* nouns that are subjects of something else than the rubric's statements ("it is the
 * cross-attention layer of the decoder"): they own claims said of them */
const char *const qz_lex_neutral[] = {"layer", "layers", "sublayer", "block", "module", "part",
                                      "bridge", "层", "子层", "模块", "部分", "这一层",
                                      /* the elements of a side, not the side: "lets each
                                       * target word gather what it needs" */
                                      "target word", "target words", "target token",
                                      "target tokens", "target position", "target positions",
                                      "source word", "source words", "source token",
                                      "source tokens", "source position", "source positions",
                                      "output word", "output words", "output position",
                                      "output positions", "目标词", "源词", NULL};

/* a comma followed by one of these ends a sentence */
const char *const qz_lex_consequence[] = {
    "so", "thus", "therefore", "hence", "because", "which", "since", "then", "所以", "因此",
    "因而", "从而", "于是", "导致", "使得", "因为", "然后", "进而", "结果", "这样", NULL};

/* a consequence drawn after a claim ("…, that is why it also needs less memory"): what
 * follows it is a statement of its own, not a context of the claim */
const char *const qz_lex_drawn[] = {"hence", "therefore", "thus", "is why", "that's why",
                                    "that why", "所以", "因此", "因而", NULL};

/* a sentence of these alone takes back what came before */
const char *const qz_lex_retract[] = {
    "the opposite", "opposite", "the other way round", "the other way around", "other way round",
    "other way around", "the reverse", "reverse", "reversed", "it's the reverse", "vice versa",
    "反过来", "说反", "反了", "相反", "颠倒", "搞反", "弄反", "写反", NULL};

/* a correction: what follows replaces what came before ("no wait, …", "不对，…"). Strong
 * ones anywhere, weak ones only where a clause starts (after a mark or a filler) */
const char *const qz_lex_correct_strong[] = {
    "no wait", "wait no", "wait ,", "no sorry", "sorry no", "sorry , no", "sorry , i mean", "sorry i mean",
    "sorry actually", "sorry , actually", "wait actually", "wait , actually", "oh wait",
    "oops", "scratch that", "i take that back", "take that back", "i take it back", "take it back",
    "forget that", "forget what i said", "forget all that", "forget everything i said",
    "ignore that", "ignore what i said", "ignore all that", "never mind", "nevermind",
    "let me start over", "let me start again", "let me restart", "前面说的不算", "前面的不算",
    "划掉", "删掉", "cross that out", "crossed out", "strike that",
    "上面说的不算", "以上不算", "当我没说", "我收回", "correction :", "let me correct",
    "i got it backwards", "got it backwards", "i had it backwards", "i mixed them up",
    "i wrote it backwards", "wrote it backwards", "i got that backwards", "got that backwards",
    "i had that backwards", "had that backwards", "i got them backwards", "got them backwards",
    "sorry reversed it", "sorry , reversed it", "i reversed it", "i reversed them",
    "reversed it :", "i swapped them", "corrected :", "corrected it :", "更正 ：", "写反了", "说反了", "搞反了", "弄反了",
    "mixed them up", "i mixed it up", "my bad", "no no", "actually no", "no actually",
    "actually , no", "hmm no", "hm no", "on second thought", "no , the other way round",
    "no , the other way around", "no , other way round", "no , other way around",
    "no , the opposite", "no , it's the other way round", "no , it's the other way around",
    "no , it's the opposite", "no , reversed", "说错了", "写错了", "搞错了", "弄错了",
    "算错了", "改一下", "更正一下", "纠正一下", "更正", "纠正", "不对不对", "等等", "哦不", "啊不",
    "呃不", "不不",
    /* doubted: "maybe it's backwards", 说不定是反的 (a correction with nothing after it) */
    "i may have swapped them", "i might have swapped them", "maybe i swapped them",
    "i might have written it backwards", "i may have written it backwards",
    "might have written it backwards", "may have written it backwards", "might have it backwards",
    "maybe it's backwards", "maybe it is backwards", "maybe backwards",
    "or maybe the other way round", "or maybe the other way around", "could be backwards",
    "说不定是反的", "可能说反了", "可能是反的", "可能反了", "也可能是反的", "不确定是不是反了",
    /* the reverse offered beside it ("或者反过来", "or vice versa"): no choice made */
    "也可能反过来", "可能反过来", "或者反过来", "或许反过来", "也许反过来", "说不定反过来",
    "也可能倒过来", "或者倒过来", "or vice versa", "or maybe vice versa", "maybe vice versa",
    "or the other way round", "or the other way around", "maybe the other way round",
    "maybe the other way around", "could be the other way round", "could be the other way around",
    "or the reverse", "or maybe the reverse", "or vice-versa", "要么反过来", "要么倒过来", "要么相反",
    "or possibly the other way round", "or possibly the other way around",
    "or perhaps the other way round", "or perhaps the other way around",
    "possibly the other way round", "perhaps the other way round", "or possibly vice versa",
    "or perhaps vice versa", "或者也可能反过来", "也有可能反过来",
    /* a joke owned up to: what follows is the answer ("(I'm joking, both are n)") */
    "i'm joking", "i am joking", "im joking", "i'm kidding", "i am kidding", "im kidding",
    "开个玩笑", "逗你的", "开玩笑啦",
    NULL};
const char *const qz_lex_correct_weak[] = {
    "wait", "sorry ,", "i mean", "i meant", "no ,", "不对", "不是 ,", "错了", "我错了",
    "算了 ,", "算了 .", "算了 我", "算了 还是", "算了 算了", "收回", NULL};
/* a correction that starts the answer over: everything before it is taken back, whatever
 * follows ("scratch that", "I take it back", 算了，我收回); it is one of the corrections
 * above too */
const char *const qz_lex_restart[] = {
    "scratch that", "i take that back", "take that back", "i take it back", "take it back",
    "forget that", "forget what i said", "forget all that", "forget everything i said",
    "ignore that", "ignore what i said", "ignore all that", "never mind", "nevermind",
    "start over", "let me start over", "let me start again", "start again", "let me restart",
    "算了", "收回", "我收回", "前面说的不算", "前面的不算", "上面说的不算", "以上不算", "重新说",
    "划掉", "删掉", "cross that out", "crossed out", "strike that",
    "重说", "重来", "重新来", "当我没说", NULL};
/* everything before disowned in plain words, nothing after needed ("none of that is
 * true", "that was a mistake", 以上都是错的): a correction and a start over both */
const char *const qz_lex_disown[] = {
    "none of that is true", "none of this is true", "none of that is right", "that was wrong",
    "that is all wrong", "that's all wrong", "all of that is wrong", "all of this is wrong",
    "that was a mistake", "everything i just said is false", "everything i said is wrong",
    "everything above is wrong", "everything above is false", "the previous sentence is false",
    "the above is wrong", "the above is false", "ignore everything above", "ignore the above",
    "ignore all of the above", "ignore everything i said", "ignore these",
    "those numbers are wrong", "these numbers are wrong", "i retract", "i retract them",
    "i retract that", "just kidding", "jk", "everything above is incorrect",
    "the above is incorrect", "all of the above is wrong", "all of the above is incorrect",
    "以上都是错的", "以上都不对", "以上全错", "以上全是错的", "上面都是错的", "上面都不对",
    "上面说的都不对", "上面说的都是错的", "前面都是错的", "前面说的都是错的", "前面说的都不对",
    "以上都是我瞎猜的", "以上是错的", "以上公式是错的", "上面的公式是错的", "开玩笑的",
    /* a closing disclaimer: "that's what the textbook says, but it's false", 但其实是错的 */
    "but it's false", "but it is false", "but it's wrong", "but it is wrong", "but it's not true",
    "but it is not true",
    "i disagree with all of this",
    "i disagree with all of that", "i disagree with all of it", "i disagree with this",
    "i disagree with that", "all of this is false", "all of that is false", "this is all false",
    "that's all false", "but none of it is true", "i had them swapped", "i had it swapped",
    "i had them backwards", "i had it backwards", "i had them the wrong way round",
    "但其实是错的", "但其实都是错的", "但这是错的", "但这是错误的", "但是是错的", "但其实不对",
    "其实都不对", "我不同意以上", "我不同意上面", "但我觉得是错的", "我把它们弄反了", "我写反了",
    NULL};
/* what the student reports and rejects: a frame that opens a sentence and denies all of
 * it ("It is false that …"); a frame that reports a belief ("Many people think …",
 * 很多人以为…) with a word that rejects it in the same sentence ("…, but that is a myth",
 * "…，但这是误解"), or a rejecting tail alone after what is said ("说…，这是错误的") */
const char *const qz_lex_reject_open[] = {
    "it is false that", "it's false that", "it is not true that", "it's not true that",
    "it is a myth that", "it's a myth that", "it is wrong that", "it's wrong to say that",
    "it is wrong to say that", NULL};
const char *const qz_lex_report[] = {
    "many people think", "people think", "some people think", "many think", "some think",
    "people believe", "many believe", "some believe", "many people believe", "some say",
    "many say", "people say", "it is often said", "it's often said", "很多人以为", "很多人认为",
    "有人以为", "有人认为", "很多人说", "有人说", "不少人以为", "大家都以为", "说", NULL};
const char *const qz_lex_reject_tail[] = {
    "but that is a myth", "but that's a myth", "that is a myth", "that's a myth",
    "but that is wrong", "but that's wrong", "but that is not true", "but that's not true",
    "but they are wrong", "but they're wrong", "but that is false", "but that's false",
    "but that is a misconception", "but that's a misconception", "这是错误的", "这是错的",
    "其实这是错的", "但这是误解", "这是误解", "其实不对", "其实是错的", "但这是错的", "这是不对的",
    "但这是错误的", "其实这是误解", "这种说法是错的", "这种说法不对", NULL};

/* what the student once believed and disowns: "I first thought …, but actually …",
 * 一开始我以为…，其实…: after one of these, a word of qz_lex_turn is a correction */
const char *const qz_lex_thought[] = {
    "i first thought", "i thought", "at first i thought", "first i thought", "i used to think",
    "i had thought", "i originally thought", "i initially thought", "my first guess was",
    "我以为", "我一开始以为", "一开始我以为", "一开始以为", "起初以为", "我起初以为", "本来以为",
    "我本来以为", "原来以为", "我原以为", "原以为", "我还以为", "之前以为", "我之前以为", NULL};
const char *const qz_lex_turn[] = {
    "but actually", "but really", "but in fact", "but it's actually", "but it is actually",
    "actually it's", "actually it is", "in fact it's", "其实", "实际上", "但其实", "但实际上",
    "但是其实", "但是实际上", "后来发现", "后来才知道", "后来知道", "后来才发现", "后来看",
    "后来学了", "but later i learned", "but then i learned", "later i learned", "later i realized",
    "but it turns out", "it turns out", "turns out", NULL};

/* what may stand before a correction at the start of a clause: "hmm, no wait" */
const char *const qz_lex_filler[] = {"hmm", "hm", "oh", "um", "uh", "ah", "er", "erm", "well",
                                     "ok", "okay", "嗯", "呃", "啊", "哦", "额", "唔", NULL};

/* a sentence ending in "?" that opens with one of these (or holds a Chinese one) asks,
 * unless it hedges; any other is a hedged answer ("maybe it keeps the scores small?") */
const char *const qz_lex_question[] = {"what", "why", "how", "where", "which", "who", "when",
                                       "does", "do", "is", "are", "can", "could", "should",
                                       "would", "will", "did", "什么", "为什么", "怎么", "如何", "哪",
                                       "哪里", "哪儿", "为何", "是否", "还是", NULL};
/* a bare reply after a question ("Need a decoder? No.", 需要 Decoder 吗？不需要。): the
 * question is said (yes) or denied (no) */
const char *const qz_lex_reply_yes[] = {"yes", "yeah", "yep", "yup", "needed", "necessary",
                                        "enough", "需要", "要", "够了", "够", "是的", "是", "对的",
                                        "对", "可以", NULL};
const char *const qz_lex_reply_no[] = {
    "no need", "not needed", "not necessary", "not required", "not enough", "no", "nope", "nah",
    "not", "unnecessary", "不需要", "不用", "不要", "不必", "没必要", "不够", "不是", "不", "否",
    NULL};
/* a label before the question quoted: "Q: \"…?\"", 引用：「…？」 */
const char *const qz_lex_quote_label[] = {"q", "quote", "quoted", "question", "re", "问", "问题",
                                          "题目", "原题", "引用", "题", NULL};
const char *const qz_lex_hedge[] = {"maybe", "perhaps", "probably", "i think", "i guess",
                                    "i believe", "possibly", "might", "i'm not sure", "not sure",
                                    "i reckon", "iirc", "if i remember correctly",
                                    "if i remember right", "可能", "也许",
                                    "好像", "大概", "应该", "吧", "我觉得", "我猜", "或许", "估计",
                                    NULL};

/* words that give what follows as the difference a question asks for ("the essential
 * difference is that …", 本质区别在于): Latin ones whole words */
const char *const qz_lex_the_difference[] = {
    "the difference is", "difference is that", "essential difference", "real difference",
    "main difference", "key difference", "fundamental difference", "big difference",
    "biggest difference", "only difference", "that's the difference", "that is the difference",
    "is the difference", "the difference being", "区别是", "区别就是", "就是区别", "这就是区别", "区别在于", "本质区别", "本质的区别",
    "根本区别", "根本的区别", "真正的区别", "主要区别", "最大的区别", "唯一的区别", "不同在于",
    "不同之处在于", NULL};

/* words that say what something is for, however vaguely ("it mixes the two", 作用是融合):
 * Latin ones whole words */
const char *const qz_lex_purpose[] = {
    "purpose", "so that", "lets", "allows", "helps", "help", "mix", "mixes", "combine", "combines",
    "connect", "connects", "link", "links", "blend", "blends", "align", "aligns", "used to",
    "作用", "目的", "用来", "用于", "为了", "融合", "连接", "结合", "联系", "混合", "对齐", "让", NULL};

/* an answer that opens with one of these says the student does not know ("I don't know,
 * we never covered it"); unlike give_up, no hedge ("not sure", "maybe") is among them */
const char *const qz_lex_dont_know[] = {
    "i don't know", "i do not know", "don't know", "dont know", "do not know", "no idea",
    "no clue", "idk", "dunno", "i forgot", "forgot", "can't remember", "cannot remember",
    "don't remember", "haven't learned", "didn't learn", "never learned", "不知道", "不会",
    "忘了", "忘记了", "不记得", "想不起来", "没学过", "没学", "不清楚", "不懂", "不太懂", "不明白",
    "不太会", "不太清楚", "不太记得", "记不太清", "记不清", "说不清", "没学到", "还没学到",
    "没听懂", "没听到", "missed this session", "missed the session", "missed this lecture",
    "missed the lecture", "missed that lecture", "missed this class", "missed the class",
    "haven't got to", "haven't gotten to", "didn't get to", "did not get to", "didn't cover",
    "did not cover", "haven't watched", "haven't studied", "wasn't in my notes",
    "not in my notes", "skipped the lecture", "skipped that lecture", "skipped this lecture",
    "skipped the class", "skipped the", "没复习到", "没复习", "还没复习", "唔识", "唔知", "唔记得",
    "冇学过", "冇听到", "冇听", "没太懂", "没怎么懂", "没搞懂", "没弄懂", "上课没听",
    "这题没听", "没听课", "ran out of time", "out of time", "没时间了", "时间不够了", "来不及了",
    /* giving up said outright: 放弃, "I give up"; 唔识计 (Cantonese: can't work it out) */
    "放弃", "放弃了", "我放弃", "i give up", "give up", "gave up", "唔识计", "唔识做", NULL};

/* an answer of these alone gives up */
const char *const qz_lex_give_up[] = {
    "i don't know", "i do not know", "don't know", "dont know", "do not know", "no idea",
    "i don't remember", "don't remember", "i can't remember", "can't remember", "no clue",
    "not sure", "i am not sure", "unsure", "?",
    "not sure", "i'm not sure", "idk", "no clue", "dunno", "i forgot", "forgot", "pass",
    "skip", "i have no idea", "not know",
    "不知道", "不会", "不清楚", "不懂", "忘了", "不确定", "没学过", "不太懂", "不明白",
    "我不知道", "我不会", "不记得", "我忘了", "跳过", "记不清", "想不起来", "不太清楚", "不太确定",
    "我不记得了", "不记得了", "忘记了", "记不得了", "不知道了", "sorry", "i'm sorry", "我也不知道",
    "真不知道", "不知道啊", "不会啊", "honestly", "tbh", "really", "lol", "sorry", "no idea at all",
    "haven't learned", "not learned", "we didn't learn", "didn't learn this", "我真的", "真的",
    "说实话", "老实说", "啊", "呀", "了", "吧", "嗯", "hmm", "um", "no clue honestly",
    /* out of time: nothing answered */
    "时间不够", "时间不够了", "没时间", "没时间了", "没有时间了", "来不及", "来不及了", "写不完",
    "写不完了", "没写", "没写完", "没做", "不写了", "no time", "out of time", "ran out of time",
    "no time left", "这个", "这题",
    /* not taught (yet), or the exam's mark for a question left out */
    "略", "没讲过", "没讲", "还没讲", "没教过", "没教", "老师没讲", "not covered", "not covered yet",
    "we haven't covered this", "haven't covered this", "haven't covered", "not taught",
    "not taught yet", "放弃", "放弃了", "我放弃", "i give up", "give up", "gave up", NULL};
