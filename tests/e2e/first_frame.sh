# The first frame does not wait for the terminal's answer to the start-up probe (how
# it draws emoji sequences, ui/termprobe.h): a terminal written here in Python, on a
# pseudo-terminal, sees the whole first frame before it answers anything. When the
# answer then comes, the tutor applies it (👩‍🔧 drawn whole where it was a placeholder)
# and takes none of its bytes for keys; keys typed before a terminal answers are kept.
# No timing is asserted: only the order of what the terminal receives.
. tests/lib.sh
export LC_ALL=C.UTF-8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state"
cat > "$tmp/term.py" <<'PY'
import os, pty, select, struct, fcntl, termios, sys, time

bin_, mode = sys.argv[1], sys.argv[2]
MECH = "\U0001F469\u200D\U0001F527".encode()          # 👩‍🔧
ASK = b"\x1b[6n"

def log(*a):
    print(*a, flush=True)

pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.execv(bin_, [bin_, "--lang", "en", "lab", "a \U0001F469\u200D\U0001F527 b"])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
out = b""

def read_until(pred, secs=20):
    global out
    end = time.monotonic() + secs
    while not pred(out):
        left = end - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            return False
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        out += chunk
    return True

# the probe's five questions, then the whole first frame (its status bar is drawn last)
ok = read_until(lambda o: o.count(ASK) == 5 and b"3 tokens" in o.split(ASK)[-1] and b"help" in o.split(ASK)[-1])
log("frame", int(ok))
after_probe = out[out.rfind(ASK) + len(ASK):]
log("placeholder", int("\ufffd".encode() in after_probe and MECH not in after_probe))
if mode == "answer":
    mark = len(out)
    # each sequence drawn from column 1 (as tmux 3.3): 👩‍🔧 in 2 columns, 👍🏽 in 4,
    # ❤️ in 1, 1️⃣ in 1, 🇨🇳 in 2
    os.write(fd, b"\x1b[5;3R\x1b[5;5R\x1b[5;2R\x1b[5;2R\x1b[5;3R")
    ok = read_until(lambda o: MECH in o[mark:])
    log("applied", int(ok))
    os.write(fd, b"q")
else:
    os.write(fd, b"q")                          # typed before any answer: kept
status = None
end = time.monotonic() + 20
while time.monotonic() < end:
    try:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r and not os.read(fd, 65536):
            break
    except OSError:
        break
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        status = os.waitstatus_to_exitcode(st)
        break
if status is None:
    try:
        p, st = os.waitpid(pid, 0)
        status = os.waitstatus_to_exitcode(st)
    except ChildProcessError:
        pass
log("exit", status)
PY
res=$(/usr/bin/python3 "$tmp/term.py" "$AT_BIN" answer 2>&1)
expect_contains "answering terminal: the first frame comes before any answer" "frame 1" "$res"
expect_contains "answering terminal: 👩‍🔧 first drawn as a placeholder" "placeholder 1" "$res"
expect_contains "answering terminal: the late answer is applied (👩‍🔧 whole)" "applied 1" "$res"
expect_contains "answering terminal: q quits (the answer was no key)" "exit 0" "$res"
res=$(/usr/bin/python3 "$tmp/term.py" "$AT_BIN" silent 2>&1)
expect_contains "silent terminal: the first frame comes without an answer" "frame 1" "$res"
expect_contains "silent terminal: placeholders" "placeholder 1" "$res"
expect_contains "silent terminal: q typed while the probe waits quits" "exit 0" "$res"
