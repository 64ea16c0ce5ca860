# The code answers' population (tests/grading/code-answers.tsv) run in real PyTorch where
# it is installed (Debian's python3-torch, which scripts/deps.sh installs for the
# benchmarks): PyTorch must classify each answer as the population says the grader must
# (right, which mistake, raises…), so the grader's verdicts are PyTorch's.
. tests/lib.sh
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import torch, yaml' 2>/dev/null; then
    "$py" -W ignore tests/grading/code_torch.py tests/grading/code-answers.tsv \
      lessons/en/11-attention-code.yaml 2>&1
    exit 0
  fi
done
ok "code answers in PyTorch # SKIP no Python with torch and yaml (scripts/deps.sh bench installs them)"
