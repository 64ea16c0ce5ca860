#!/bin/sh
# Install the Debian packages attn-tutor needs, only those missing.
# Usage: scripts/deps.sh [bench|fuzz]
set -eu
pkgs="gcc make pkg-config libncurses-dev libcyaml-dev libyaml-dev libopenblas-dev libunistring-dev
      libcmocka-dev libcjson-dev libsleef-dev libstemmer-dev libopencc-dev wamerican gettext locales tmux valgrind python3
      python3-yaml python3-jsonschema python3-numpy nodejs man-db groff-base
      libdnnl-dev"   # oneDNN: only bench/bench_peers links it (a peer in make bench; built by make test)
[ "${1:-}" = bench ] && pkgs="python3-numpy python3-torch"
[ "${1:-}" = fuzz ] && pkgs="clang libclang-rt-14-dev"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "deps: these Debian packages are missing and installing them needs root:" >&2
    echo "deps:   apt-get install$missing" >&2
    echo "deps: run that as root (or install sudo), then run make again" >&2
    exit 1
  fi
  SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
# Another apt-get or dpkg (an unattended upgrade, a second make) may hold the dpkg lock:
# wait for it, up to 10 minutes, instead of failing at once.
lock="-o DPkg::Lock::Timeout=600"
$SUDO apt-get $lock update -qq
$SUDO apt-get $lock install -y -qq --no-install-recommends $missing
