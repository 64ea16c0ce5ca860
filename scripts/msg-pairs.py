#!/usr/bin/env python3
"""Move inline English/Chinese message pairs into the gettext catalogue.

    scripts/msg-pairs.py FILE.c ...

In each file, QZ_TR(lang, "en", "zh") becomes qz_tr(lang, "en"), and the parser's
fail_at(ps, t, "en", "zh") / qz_lex_fail(lx, t, "en", "zh") lose their Chinese
argument; every pair goes to po/zh_CN.po (msgid the English, msgstr the Chinese) unless
the catalogue has that msgid already (then the catalogue's translation stays, and a
differing one is reported). Calls whose texts are not plain string literals are listed
for a person to convert. Afterwards `make po` refreshes the template and the flags.
"""
import os
import re
import sys

CALLS = {"QZ_TR": (1, 2, "qz_tr"), "fail_at": (2, 3, None), "qz_lex_fail": (2, 3, None)}
PO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "po", "zh_CN.po")


def skip_literal(s, i):
    """i at a quote: the index after the literal."""
    q = s[i]
    i += 1
    while s[i] != q:
        i += 2 if s[i] == "\\" else 1
    return i + 1


def call_args(s, i):
    """i just after '(': list of (start, end) of the top-level arguments, index after ')'."""
    depth, start, args = 0, i, []
    while True:
        c = s[i]
        if c in "\"'":
            i = skip_literal(s, i)
            continue
        if s.startswith("/*", i):
            i = s.index("*/", i) + 2
            continue
        if s.startswith("//", i):
            i = s.index("\n", i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append((start, i))
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append((start, i))
            start = i + 1
        i += 1


ESC = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "a": "\a", "r": "\r"}


def literal_value(text):
    """The value of adjacent string literals (with comments and spaces between), or None."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S).strip()
    out, i = [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        if text[i] != '"':
            return None
        j = skip_literal(text, i)
        body, k = text[i + 1:j - 1], 0
        while k < len(body):
            if body[k] == "\\":
                if body[k + 1] not in ESC:
                    return None
                out.append(ESC[body[k + 1]])
                k += 2
            else:
                out.append(body[k])
                k += 1
        i = j
    return "".join(out) if text else None


def po_quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def po_unquote(lines):
    return "".join(literal_value(l.strip()) or "" for l in lines)


def read_po(path):
    """msgid → msgstr of the plain (no context, no plural) entries."""
    entries, key, cur, field = {}, None, [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    block = {"msgctxt": [], "msgid": [], "msgstr": []}
    def flush():
        if block["msgid"] and not block["msgctxt"]:
            entries[po_unquote(block["msgid"])] = po_unquote(block["msgstr"])
    for line in lines + [""]:
        if not line.strip():
            flush()
            block = {"msgctxt": [], "msgid": [], "msgstr": []}
            field = None
            continue
        m = re.match(r"(msgctxt|msgid|msgstr)\s+(\".*\")$", line)
        if m:
            field = m.group(1)
            block[field].append(m.group(2))
        elif line.startswith('"') and field:
            block[field].append(line)
        elif line.startswith("msgid_plural") or line.startswith("msgstr["):
            field = None
            block["msgid"] = []   # plural entries are left alone
    return entries


def fill_empty(path, fill):
    """Give the entries of `fill` (msgid → msgstr) that have an empty msgstr their text."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("msgid "):
            j = i + 1
            while j < len(lines) and lines[j].startswith('"'):
                j += 1
            msgid = po_unquote([lines[i][6:]] + lines[i + 1:j])
            if msgid in fill and j < len(lines) and lines[j] == 'msgstr ""' and \
                    (j + 1 >= len(lines) or not lines[j + 1].startswith('"')):
                out.extend(lines[i:j])
                out.append("msgstr " + po_quote(fill[msgid]))
                i = j + 1
                continue
            out.extend(lines[i:j])
            i = j
            continue
        out.append(lines[i])
        i += 1
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def convert(path, pairs, manual):
    with open(path, encoding="utf-8") as f:
        s = f.read()
    out, i = [], 0
    pat = re.compile(r"\b(" + "|".join(CALLS) + r")\s*\(")
    while True:
        m = pat.search(s, i)
        if not m:
            out.append(s[i:])
            break
        name = m.group(1)
        # skip matches inside comments or literals: only code lines count
        line_start = s.rfind("\n", 0, m.start()) + 1
        prefix = s[line_start:m.start()]
        if prefix.lstrip().startswith(("/*", "*", "//")) or prefix.count('"') % 2:
            out.append(s[i:m.end()])
            i = m.end()
            continue
        args, end = call_args(s, m.end())
        en_i, zh_i, new_name = CALLS[name]
        if len(args) != zh_i + 1:
            out.append(s[i:m.end()])
            i = m.end()
            continue
        en_src = s[args[en_i][0]:args[en_i][1]]
        zh_src = s[args[zh_i][0]:args[zh_i][1]]
        en, zh = literal_value(en_src), literal_value(zh_src)
        if en is None or zh is None:
            if not re.fullmatch(r"\s*(const\s+)?char\s*\*\s*\w+\s*", zh_src):   # a definition
                manual.append("%s:%d: %s" % (path, s.count("\n", 0, m.start()) + 1, s[m.start():end][:90]))
            out.append(s[i:m.end()])
            i = m.end()
            continue
        pairs.append((en, zh, "%s:%d" % (path, s.count("\n", 0, m.start()) + 1)))
        out.append(s[i:m.start()])
        out.append((new_name or name) + s[m.start() + len(name):args[en_i][1]] + ")")
        i = end
    new = "".join(out)
    if new != s:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)


def main(files):
    pairs, manual = [], []
    for path in files:
        convert(path, pairs, manual)
    have = read_po(PO)
    added, seen = [], {}
    fill = {}
    for en, zh, where in pairs:
        if have.get(en) == "":
            fill.setdefault(en, zh)
            continue
        if en in have:
            if have[en] != zh:
                print("%s: kept the catalogue's %r for %r (the code had %r)" % (where, have[en], en, zh))
            continue
        if en in seen:
            if seen[en] != zh:
                print("%s: %r has two Chinese texts: %r and %r (the first kept)" % (where, en, seen[en], zh))
            continue
        seen[en] = zh
        added.append((en, zh))
    if fill:
        fill_empty(PO, fill)
    if added:
        with open(PO, "a", encoding="utf-8") as f:
            for en, zh in added:
                f.write("\nmsgid %s\nmsgstr %s\n" % (po_quote(en), po_quote(zh)))
    print("%d pairs moved, %d new catalogue entries, %d translated that had none"
          % (len(pairs), len(added), len(fill)))
    for m in manual:
        print("convert by hand: " + m)


if __name__ == "__main__":
    main(sys.argv[1:])
