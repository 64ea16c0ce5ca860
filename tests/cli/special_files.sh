# Files that are not regular files are refused, never waited on: a FIFO (which blocks
# open and read), a folder, /dev/null and /dev/zero (devices; /dev/zero never ends) and
# a Unix socket, given to every command that takes a file (lint, compute, attend
# --model, show, check, practice, the tutor and the lab with --model and --lessons) and
# found in a lessons folder (as en/x.yaml). Each run is under `timeout`: a hang is
# status 124 and fails. Each is refused with exit status 2 and one line naming the file
# and what it is. A progress file that is one of them is left alone, not waited on.
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME="$tmp/state"
T="timeout 20"

# make KIND PATH: a FIFO, a folder, a link to /dev/null or /dev/zero, a Unix socket.
make_special() {
  case $1 in
    fifo) mkfifo "$2" ;;
    folder) mkdir "$2" ;;
    null) ln -s /dev/null "$2" ;;
    zero) ln -s /dev/zero "$2" ;;
    socket) python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$2" ;;
  esac
}
what() {
  case $1 in
    fifo) echo "a FIFO (named pipe)" ;; folder) echo "a folder" ;;
    null|zero) echo "a character device" ;; socket) echo "a socket" ;;
  esac
}
# run NAME WANT_STATUS NEEDLE command...: status and message of one refused run.
run() {
  _name=$1 _want=$2 _needle=$3; shift 3
  _out=$(LC_ALL=C.UTF-8 $T "$@" </dev/null 2>&1); _rc=$?
  expect_eq "$_name: exit status" "$_want" "$_rc"
  expect_contains "$_name: says what it is" "$_needle" "$_out"
}

for kind in fifo folder null zero socket; do
  k=$(what $kind)
  d="$tmp/$kind"
  mkdir -p "$d/L" && cp -r lessons/en lessons/zh "$d/L/"
  make_special $kind "$d/L/en/x.yaml"
  make_special $kind "$d/file.yaml"
  f="$d/file.yaml"

  # The file itself, given on the command line.
  if [ $kind != folder ]; then   # lint DIR checks the lessons in a folder
    run "$kind: lint FILE" 2 "file.yaml: error: is $k, not a lesson file" "$AT_BIN" lint "$f"
  fi
  run "$kind: compute FILE" 2 "file.yaml: error: is $k, not a compute file" "$AT_BIN" compute "$f"
  if [ $kind = folder ]; then   # attend also opens a Hugging Face model folder
    run "$kind: attend --model" 2 "--model $f: is a folder without config.json" \
      "$AT_BIN" --model "$f" attend "The animal was tired."
  else
    run "$kind: attend --model" 2 "--model $f: is $k, not a model file (.safetensors)" \
      "$AT_BIN" --model "$f" attend "The animal was tired."
  fi
  run "$kind: show --model" 2 "attn-tutor show: --model $f: is $k" "$AT_BIN" --lang en show self-test --model "$f"
  run "$kind: lint --model" 2 "attn-tutor lint: --model $f: is $k" "$AT_BIN" lint --model "$f" lessons/en
  run "$kind: the tutor with --model" 2 "attn-tutor: --model $f: is $k" "$AT_BIN" --model "$f"
  run "$kind: the lab with --model" 2 "attn-tutor lab: --model $f: is $k" "$AT_BIN" --model "$f" lab
  if [ $kind != folder ]; then   # a folder is what --lessons takes
    run "$kind: --lessons FILE" 2 "--lessons $f: is $k, not a folder" "$AT_BIN" --lessons "$f" --lang en show
  fi

  # The same as en/x.yaml in a lessons folder: named, and the command stops.
  x="L/en/x.yaml: is $k, not a lesson file"
  run "$kind: lint the lessons folder" 2 "L/en/x.yaml: error: is $k, not a lesson file" "$AT_BIN" lint "$d/L"
  run "$kind: lint with --lessons" 2 "L/en/x.yaml: error: is $k" "$AT_BIN" --lessons "$d/L" lint
  run "$kind: show" 2 "attn-tutor show: $d/$x" "$AT_BIN" --lang en --lessons "$d/L" show self-test
  run "$kind: check" 2 "attn-tutor check: $d/$x" "$AT_BIN" --lang en --lessons "$d/L" check q3 "0.14 0.17"
  run "$kind: practice" 2 "attn-tutor practice: $d/$x" "$AT_BIN" --lang en --lessons "$d/L" practice --count 1
  run "$kind: the tutor with --lessons" 2 "attn-tutor: $d/$x" "$AT_BIN" --lang en --lessons "$d/L"
  run "$kind: the lab with --lessons" 2 "attn-tutor lab: $d/$x" "$AT_BIN" --lang en --lessons "$d/L" lab
  # The other language's folder is clean: zh is not held up by an English file.
  out=$($T "$AT_BIN" --lang zh --lessons "$d/L" show 2>&1); rc=$?
  expect_eq "$kind: show in the other language (exit status)" 0 "$rc"

  # progress.yaml: read by nothing, moved by nothing, the grade still given.
  mkdir -p "$tmp/state/attn-tutor"
  p="$tmp/state/attn-tutor/progress.yaml"
  rm -rf "$p"; make_special $kind "$p"
  run "$kind: check with such a progress file" 0 "progress file $p is $k, not a progress file: it is left as it is" \
    "$AT_BIN" --lang en check q3 "0.14 0.17"
  case $kind in
    fifo) still=$([ -p "$p" ] && echo yes) ;; folder) still=$([ -d "$p" ] && echo yes) ;;
    null|zero) still=$([ -L "$p" ] && echo yes) ;; socket) still=$([ -S "$p" ] && echo yes) ;;
  esac
  expect_eq "$kind: the progress file stays what it was" "yes" "$still"
  expect_eq "$kind: nothing set aside" "" "$(cd "$tmp/state/attn-tutor" && ls -A | grep damaged)"
  rm -rf "$p"
done

# A folder was once reported as "out of memory".
out=$($T "$AT_BIN" --model models show self-test 2>&1)
expect_eq "a folder to --model: the message" "attn-tutor show: --model models: is a folder, not a model file (.safetensors): give the file itself, e.g. --model models/mini.safetensors" "$out"
out=$($T "$AT_BIN" --model models attend "hello" 2>&1)
expect_eq "a folder without config.json to attend --model: the message" "attn-tutor attend: --model models: is a folder without config.json: give a model file (e.g. --model models/mini.safetensors) or a Hugging Face model folder (config.json, model.safetensors and the tokenizer's files)" "$out"
# A regular file still works everywhere (the checks refuse nothing else).
out=$($T "$AT_BIN" --model models/mini.safetensors --lang en attend "The animal was tired." 2>&1); rc=$?
expect_eq "a real model file is read (exit status)" 0 "$rc"
out=$($T "$AT_BIN" --lang en --lessons lessons check q3 "0.14 0.17" 2>&1); rc=$?
expect_eq "a clean lessons folder is read (exit status)" 0 "$rc"
