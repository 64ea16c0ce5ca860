"""The code answers of tests/grading/code-answers.tsv run in real PyTorch, on the setup of
the English code lesson, and classified the way the grader (quiz/code.h) classifies them:
right, one of the lesson's mistakes, stops early, NaN, another shape, other numbers,
raises, unreadable. Prints TAP lines (one per question, run by tests/cli/code_torch.sh);
an answer PyTorch classifies otherwise than the population says fails, except where the
grader is knowingly more lenient or narrower than Python, or the installed PyTorch is
older than the rules the grader follows; those are listed as comments.
Usage: code_torch.py ANSWERS.tsv LESSON.yaml"""
import ast, math, re, sys
import torch
import torch.nn.functional as F
import yaml

def norm(s):
    out = []
    for ch in s:
        c = ord(ch)
        if 0xff01 <= c <= 0xff5e:
            out.append(chr(c - 0xfee0))
        elif ch in '\u201c\u201d':
            out.append('"')
        elif ch in '\u2018\u2019':
            out.append("'")
        elif ch == '\u3002':
            out.append('\n')
        elif ch == '\u221e':
            out.append('inf')
        elif ch == '\u3001':
            out.append(',')
        else:
            out.append(ch)
    return ''.join(out)

def rearrange(x, pattern, **sizes):
    lhs, rhs = [p.strip() for p in pattern.split('->')]
    def groups(side):
        return [g.strip('()').split() for g in re.findall(r'\([^)]*\)|\S+', side)]
    L, R = groups(lhs), groups(rhs)
    el, es = [], []
    for g, n in zip(L, x.shape):
        known = 1
        for name in g:
            if name in sizes:
                known *= sizes[name]
        for name in g:
            el.append(name)
            es.append(sizes.get(name, n // known))
    x = x.reshape(es)
    order = [el.index(n) for g in R for n in g]
    x = x.permute(order)
    shape = [math.prod(es[el.index(n)] for n in g) for g in R]
    return x.reshape(shape)

class einops:
    rearrange = staticmethod(rearrange)

def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    s = q @ k.transpose(-2, -1) * (scale if scale is not None else 1 / math.sqrt(q.size(-1)))
    if is_causal:
        L, S = s.shape[-2:]
        s = s.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float('-inf'))
    if attn_mask is not None:
        s = s.masked_fill(~attn_mask, float('-inf')) if attn_mask.dtype == torch.bool else s + attn_mask
    return F.softmax(s, dim=-1) @ v

if not hasattr(F, 'scaled_dot_product_attention'):
    F.scaled_dot_product_attention = sdpa
import numpy as np
import torch.nn as nn

BASE = {'torch': torch, 'F': F, 'nn': nn, 'math': math, 'np': np, 'einops': einops,
        'rearrange': rearrange, 'inf': float('inf'),
        'softmax': lambda x: F.softmax(x, dim=-1), 'sqrt': lambda x: x ** 0.5}

class Unread(Exception):
    pass

def run(ns, code, result, steps=None):
    code = norm(code)
    code = re.sub(r'(^|;|\n)(\s*)return\s+', r'\1\2__ret__ = ', code)
    tree = ast.parse(code)   # SyntaxError: unreadable
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        tree.body[-1] = ast.Assign(targets=[ast.Name('__last__', ast.Store())], value=tree.body[-1].value)
    ast.fix_missing_locations(tree)
    before = {k: id(v) for k, v in ns.items()}
    last = None
    for st in tree.body:
        mod = ast.Module(body=[st], type_ignores=[])
        exec(compile(mod, '<answer>', 'exec'), ns)
        if isinstance(st, ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Name) and isinstance(ns.get(t.id), torch.Tensor):
                    last = ns[t.id]
                    if steps is not None and t.id not in ('__last__', '__ret__'):
                        steps.append(ns[t.id].clone())
        elif isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
            last = ns[st.target.id]
        elif isinstance(st, ast.Expr):
            pass
    if result in ns and before.get(result) != id(ns[result]):
        return ns[result]
    if '__ret__' in ns:
        return ns['__ret__']
    if '__last__' in ns and ns['__last__'] is not None:
        return ns['__last__']
    return last

def same(a, b):
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        return False
    if tuple(a.shape) != tuple(b.shape):
        return False
    return bool(torch.allclose(a.double(), b.double(), rtol=1e-5, atol=1e-5, equal_nan=True))

def classify(q, base, ans):
    def fresh():
        ns = dict(base)
        for k, v in list(ns.items()):
            if isinstance(v, torch.Tensor):
                ns[k] = v.clone()
        return ns
    steps = []
    ref = run(fresh(), q['canonical'], q['result'], steps)
    try:
        val = run(fresh(), ans, q['result'])
    except (SyntaxError, NameError):
        return 'unreadable', ''
    except ModuleNotFoundError as e:
        return 'module', str(e)
    except Exception as e:
        return 'raises', str(e).splitlines()[0][:100]
    if val is None or not isinstance(val, torch.Tensor):
        return 'nothing', ''
    if same(val, ref):
        return 'right', ''
    for m in q.get('mistakes', []):
        for a in m['answers']:
            try:
                if same(val, run(fresh(), a, q['result'])):
                    return m['name'], ''
            except Exception:
                pass
    setup_t = [v for v in base.values() if isinstance(v, torch.Tensor)]
    if any(same(val, s) and not any(same(s, t) for t in setup_t) for s in steps):
        return 'early', ''
    if not torch.isfinite(val.double()).all() and torch.isfinite(ref.double()).all():
        return 'nonfinite', ''
    if tuple(val.shape) != tuple(ref.shape):
        return 'shape', ''
    return 'other', ''


def main(tsv, lesson_path):
    lesson = yaml.safe_load(open(lesson_path, encoding='utf-8'))
    qs = {s['question']['id']: s['question'] for s in lesson['steps'] if 'question' in s}
    rows = [l.rstrip('\n').split('\t', 3) for l in open(tsv, encoding='utf-8')
            if l.strip() and not l.startswith('#')]
    old_masks = tuple(int(x) for x in re.findall(r'\d+', torch.__version__)[:2]) < (2, 1)
    n = failed = 0
    for qid in sorted({r[0] for r in rows}):
        q = qs[qid]
        base = dict(BASE)
        exec(norm(q['setup']), base)
        agree, notes, bad = 0, [], []
        for _, want, diag, ans in (r for r in rows if r[0] == qid):
            ans = ans.replace('\\n', '\n').replace('\\t', '\t').replace('\\\\', '\\')
            got, err = classify(q, base, ans)
            wanted = {'C': 'right', 'P': 'early', 'M': 'unreadable'}.get(want, diag)
            shown = ans.replace('\n', '\\n')
            if got == wanted:
                agree += 1
            elif got == 'unreadable':
                notes.append('not Python, read by the grader (%s): %s' % (wanted, shown))
            elif want == 'M' and got == 'nothing':
                notes.append('Python runs it, the grader does not read it: %s' % shown)
            elif got == 'module':
                notes.append('%s: %s' % (err, shown))
            elif old_masks and wanted == 'raises' and 'masked_fill' in ans:
                notes.append('PyTorch %s takes a float mask in masked_fill (2.1 and later raise): %s'
                             % (torch.__version__, shown))
            else:
                bad.append('want %s, PyTorch gives %s%s: %s' % (wanted, got, ' (%s)' % err if err else '', shown))
        n += 1
        if bad:
            failed += 1
            print('not ok %d - %s: PyTorch %s agrees on %d answers, not on %d'
                  % (n, qid, torch.__version__, agree, len(bad)))
            for b in bad:
                print('#   ' + b)
        else:
            print('ok %d - %s: PyTorch %s agrees on %d answers; %d not compared' % (n, qid, torch.__version__, agree, len(notes)))
        for note in notes:
            print('# ' + note)
    return failed


if __name__ == '__main__':
    import warnings
    warnings.simplefilter('ignore')
    sys.exit(1 if main(sys.argv[1], sys.argv[2]) else 0)
