# The UI in Chinese and English: --lang, the locale strings even when that locale is
# not installed, the help overlay, and the smallest size in Chinese.
. tests/lib.sh
. tests/e2e/lib/tmux.sh

tutor_start 100 30 -- --lang zh
expect_screen "zh: home title" "一步一步学自注意力"
expect_screen "zh: the status bar" "q：保存并退出"
expect_screen "zh: lessons in Chinese" "缩放点积注意力"
keys '?'
expect_screen "zh: help overlay" "按键"
expect_screen "zh: help names the shared keys" "其他任意键关闭"
keys x
wait_gone "其他任意键关闭" 5 && ok "zh: any key closes the help" || not_ok "zh: any key closes the help" "$SCREEN"

tutor_start 100 30 -- --lang zh lab "小明今天没来学校"
expect_screen "zh lab: token count" "8 个词元"
expect_screen "zh lab: the input line" "句子：小明今天没来学校"
keys '?'
expect_screen "zh lab: help lists the mask key" "因果掩码 开/关"

# LANG names a locale this machine may not have: the UI is still Chinese and UTF-8.
tutor_start 100 30 LC_ALL= LANG=zh_CN.UTF-8 --
expect_screen "LANG=zh_CN.UTF-8: Chinese UI without --lang" "一步一步学自注意力"
tutor_start 100 30 LC_ALL= LANG=zh_CN.UTF-8 -- --lang en
expect_screen "--lang en wins over LANG=zh_CN.UTF-8" "Self-attention, step by step"

tutor_start 40 12 -- --lang zh
expect_screen "zh 40×12: home fits" "一步一步学自注意力"
expect_not_screen "zh 40×12: not too small" "终端太小"
resize 39 11
expect_screen "zh 39×11: too small, in Chinese" "终端太小"
expect_screen "zh 39×11: the size it needs" "至少需要 40×12"

tutor_start 100 30 -- --lang en lab "The animal didn't cross the road because it was too tired."
keys '?'
expect_screen "en lab: help overlay" "Keys"
expect_screen "en lab: help lists the export key" "export the shown weights as CSV"
