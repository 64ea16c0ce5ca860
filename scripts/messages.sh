#!/bin/sh
# The program's messages for translation. Usage:
#   scripts/messages.sh OUT.pot [FOLDER …]
# extracts every message of the C files under the folders (default: src) into OUT.pot
# with xgettext: the UI's _() / N_() / _n(), and the grader's and the commands'
# qz_tr / qz_trc / qz_ntr / QZ_N_ / QZ_NC_, the answer parser's fail_at / qz_lex_fail, the
# formula parser's perr_at / fail and the
# code evaluator's ce_raise / ce_unread / read_fail (their English text; see src/quiz/lang.h).
# `make po` runs it over src and merges the result into every po/<lang>.po;
# tests/cli/messages.sh runs it over src/quiz and src/cli.
set -eu
out=$1
shift
[ $# -gt 0 ] || set -- src
files=$(find "$@" -name '*.[ch]' | LC_ALL=C sort)
# shellcheck disable=SC2086
exec xgettext --language=C --from-code=UTF-8 --package-name=attn-tutor \
  --add-comments=TRANSLATORS: --add-location=file --output="$out" \
  --keyword=_ --keyword=N_ --keyword=_n:1,2 \
  --keyword=qz_tr:2 --keyword=qz_trc:2c,3 --keyword=qz_ntr:2,3 --keyword=QZ_N_ --keyword=QZ_NC_:1c,2 \
  --keyword=fail_at:3 --keyword=qz_lex_fail:3 --keyword=perr_at:3 --keyword=fail:2 \
  --keyword=ce_raise:2 --keyword=ce_unread:2 --keyword=read_fail:3 $files
