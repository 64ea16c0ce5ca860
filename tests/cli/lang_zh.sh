# attend, softmax and show in Chinese (--lang zh, or a zh locale) and in English: the
# framing text is translated, the numbers and the CSV / JSON formats are the same.
. tests/lib.sh
zh() { env -u LC_ALL -u LANGUAGE -u LC_MESSAGES LANG=zh_CN.UTF-8 "$@"; }

# softmax: Q3's scores (sum of exp 9.7504, 下雨 0.1384 … computed by the engine).
en=$("$AT_BIN" softmax --lang en 0.1 0.3 0.2 0.5 0.1 1.2)
cn=$("$AT_BIN" softmax --lang zh 0.1 0.3 0.2 0.5 0.1 1.2)
expect_contains "softmax en: heading" "softmax of 6 scores" "$en"
expect_contains "softmax en: sum" "  sum of exp = 9.7504" "$en"
expect_contains "softmax zh: heading" "6 个分数的 softmax" "$cn"
expect_contains "softmax zh: columns (two columns a character)" \
  "    #          分数        exp(s)          权重" "$cn"
expect_contains "softmax zh: sum" "  exp 之和 = 9.7504" "$cn"
expect_contains "softmax zh: rule" "  权重_i = exp_i / 和" "$cn"
expect_eq "softmax: the same number rows in both languages" \
  "$(printf '%s\n' "$en" | grep -E '^ +[0-9]+ +[0-9.]+ ')" "$(printf '%s\n' "$cn" | grep -E '^ +[0-9]+ +[0-9.]+ ')"
case "$cn" in *score*|*weight*|*"sum of"*) not_ok "softmax zh: no English framing" "$cn" ;;
  *) ok "softmax zh: no English framing" ;; esac
out=$(zh "$AT_BIN" softmax 1 2)
expect_contains "softmax: LANG=zh_CN.UTF-8 chooses Chinese" "2 个分数的 softmax" "$out"
expect_eq "softmax: JSON the same in both languages" \
  "$("$AT_BIN" softmax --lang en --format json 1 2 3)" "$("$AT_BIN" softmax --lang zh --format json 1 2 3)"

# attend
s="The animal didn't cross the street because it was too tired"
en=$("$AT_BIN" attend --lang en "$s")
cn=$("$AT_BIN" attend --lang zh "$s")
expect_contains "attend en: model" "model: trained" "$en"
expect_contains "attend en: shape" "11 tokens; rows: query token, columns: key token" "$en"
expect_contains "attend zh: model" "模型：已训练" "$cn"
expect_contains "attend zh: shape" "11 个词元；行：query 词元，列：key 词元；每行之和为 1" "$cn"
expect_contains "attend zh: mask and scaling" "掩码：无；分数已乘以 1/√d_k" "$cn"
expect_contains "attend zh: layer and head" "第 2 层（共 2 层），第 1 个头（共 1 个，指代消解头）" "$cn"
case "$cn" in *"model:"*|*"mask:"*|*"layer "*|*"tokens;"*) not_ok "attend zh: no English framing" "$cn" ;;
  *) ok "attend zh: no English framing" ;; esac
expect_eq "attend: the same weight rows in both languages" \
  "$(printf '%s\n' "$en" | grep -E '^(it|animal) ' | sed 's/ *←.*//')" \
  "$(printf '%s\n' "$cn" | grep -E '^(it|animal) ' | sed 's/ *←.*//')"
out=$(zh "$AT_BIN" attend --untrained --mask causal "it was")
expect_contains "attend: LANG=zh_CN.UTF-8, demo weights, causal" "模型：未训练的演示权重" "$out"
expect_contains "attend zh: causal mask" "掩码：因果（causal）" "$out"
expect_eq "attend: CSV the same in both languages" \
  "$("$AT_BIN" attend --lang en --format csv "$s")" "$("$AT_BIN" attend --lang zh --format csv "$s")"
expect_eq "attend: JSON the same in both languages" \
  "$("$AT_BIN" attend --lang en --format json "$s")" "$("$AT_BIN" attend --lang zh --format json "$s")"

# show: the shipped self-test, in each language
en=$("$AT_BIN" show --lang en self-test)
cn=$("$AT_BIN" show --lang zh self-test)
for w in "--- step 2 of 7: question" "[question q1, text]" "  hint 1: " "  key concepts (2 needed):" \
         "  reference answer:" "  explanation:" "  answer: 下雨 0.14 没 0.17  (± 0.01)"; do
  expect_contains "show en: $w" "$w" "$en"
done
for w in "--- 第 2 步（共 7 步）：问题" "[问题 q1，简答]" "  提示 1：" "  要点（至少答出 2 个）：" \
         "  参考答案：" "  讲解：" "  答案： 下雨 0.14 没 0.17  (± 0.01)" "  解法：每个分数取 exp，求和得 9.7504"; do
  expect_contains "show zh: $w" "$w" "$cn"
done
case "$cn" in *"hint "*|*"key concepts"*|*"reference answer"*|*"explanation:"*|*"--- step"*)
  not_ok "show zh: no English framing" ;; *) ok "show zh: no English framing" ;; esac
out=$(zh "$AT_BIN" show it-animal)
expect_contains "show: LANG=zh_CN.UTF-8, a lab step" "[实验] " "$out"
expect_contains "show zh: lab settings" "  层：最后一层，头：模型默认的头，掩码：无，缩放：开，焦点：它" "$out"
expect_contains "show zh: lab expectation" "  期望 1：成立：" "$out"
out=$(zh "$AT_BIN" show)
expect_contains "show zh: the lesson list" " 课（attn-tutor show ID 打印一课，attn-tutor lesson ID 打开它）：" "$out"
