#!/usr/bin/env bash
# The install is relocatable: `cmake --install <build> --prefix P`, move P elsewhere, and every shared
# library the binaries load outside the base system (libc, libm, libstdc++, libgcc_s) must come from the
# moved prefix; the binaries then run.  tests/install/install_test.sh <build-dir> <workdir>
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 <build-dir> <workdir>" >&2; exit 2; }
BUILD=$1 WORK=$2
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rm -rf "$WORK" && mkdir -p "$WORK"
cmake --install "$BUILD" --prefix "$WORK/first" >"$WORK/install.log"
mv "$WORK/first" "$WORK/moved"
P="$WORK/moved"
for bin in "$P"/bin/*; do
  deps=$(ldd "$bin")
  if grep -q "not found" <<<"$deps"; then echo "install_test: $bin: $deps" >&2; exit 1; fi
  outside=$(grep "=> /" <<<"$deps" | grep -v "=> $P/" |
    grep -vE "lib(c|m|dl|rt|pthread|resolv|gcc_s|stdc\+\+)\.so" || true)
  if [[ -n "$outside" ]]; then echo "install_test: $bin loads libraries from outside the prefix:" >&2; echo "$outside" >&2; exit 1; fi
done
"$P/bin/cuzk" info "$ROOT/examples/poseidon/bn128/circuit.zkey" >/dev/null
"$P/bin/cuzk-daemon" --help >/dev/null
"$P/bin/cuzk-worker" --help >/dev/null  # the worker processes of engine.isolation = "process", next to the daemon
[[ -f "$P/share/cuzk/cuzk.toml" && -f "$P/share/cuzk/cuzk-daemon.service" ]]
# The shipped sample configuration is one the daemon accepts: every key as shipped, with only the socket,
# the HTTP address and the repository moved into the work folder.
mkdir -p "$WORK/repo"
sed -e "s|^listen = .*|listen = \"unix://$WORK/d.sock\"|" -e 's|^http = .*|http = ""|' \
  -e "s|^path = .*|path = \"$WORK/repo\"|" "$P/share/cuzk/cuzk.toml" >"$WORK/cuzk.toml"
"$P/bin/cuzk-daemon" --config "$WORK/cuzk.toml" 2>"$WORK/daemon.log" &
pid=$!
for _ in $(seq 100); do [[ -S "$WORK/d.sock" ]] && break; sleep 0.1; done
[[ -S "$WORK/d.sock" ]] || { echo "install_test: the sample configuration did not start the daemon:" >&2; cat "$WORK/daemon.log" >&2; exit 1; }
kill -TERM $pid
wait $pid
# A bad value stops the daemon at start with the key's name.
sed 's|^pinned_pool = .*|pinned_pool = "lots"|' "$WORK/cuzk.toml" >"$WORK/bad.toml"
if "$P/bin/cuzk-daemon" --config "$WORK/bad.toml" 2>"$WORK/bad.log"; then echo "install_test: a bad pinned_pool was accepted" >&2; exit 1; fi
grep -q 'engine.pinned_pool (a size, or "auto"): "lots" is not a size' "$WORK/bad.log" || { cat "$WORK/bad.log" >&2; exit 1; }
echo "relocatable install OK ($(ls "$P/lib" | wc -l) files in lib/)"
