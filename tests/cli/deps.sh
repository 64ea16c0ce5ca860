# scripts/deps.sh waits for the dpkg lock (another apt-get running) on update and install,
# instead of failing at once: run with stand-ins for dpkg-query, id, sudo and apt-get.
. tests/lib.sh
tmp=$(mktemp -d)
mkdir "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' > "$tmp/bin/dpkg-query"            # nothing is installed
printf '#!/bin/sh\necho 1000\n' > "$tmp/bin/id"                  # not root
printf '#!/bin/sh\nexec "$@"\n' > "$tmp/bin/sudo"
printf '#!/bin/sh\necho "apt-get $*" >> "%s/log"\n' "$tmp" > "$tmp/bin/apt-get"
chmod +x "$tmp/bin/"*
PATH="$tmp/bin:$PATH" sh scripts/deps.sh fuzz > /dev/null 2>&1
rc=$?
expect_eq "deps with stand-ins (exit status)" 0 "$rc"
log=$(cat "$tmp/log" 2>/dev/null)
expect_eq "apt-get update and install wait for the lock" \
  "apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends clang libclang-rt-14-dev" "$log"
rm -rf "$tmp"
