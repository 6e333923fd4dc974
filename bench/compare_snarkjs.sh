#!/usr/bin/env bash
# Whole-proof CPU timings of cuzk next to snarkjs on the same .zkey/.wtns (synthetic mulchain circuits,
# keys from the test-only `cuzk setup`). Usage: bench/compare_snarkjs.sh <bn128|bls12381> <log2 constraints>...
# Needs a Release build in build/ (scripts/build) and tools/node (scripts/setup).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${CUZK_BUILD_DIR:-$ROOT/build}"
CUZK="$BUILD/src/cuzk"
BENCH="$BUILD/bench/cuzk-bench"
SNARKJS="$ROOT/tools/node/node_modules/.bin/snarkjs"
WORK="${CUZK_BENCH_WORK:-/tmp/cuzk-bench}"
curve=$1; shift
secs() { local t0=$EPOCHREALTIME; "$@" >/dev/null 2>&1; echo "$EPOCHREALTIME - $t0" | bc; }
printf "%-9s %-6s %12s %12s %12s\n" curve log2 constraints cuzk_s snarkjs_s
for lg in "$@"; do
  n=$(( (1 << lg) - (1 << lg) / 128 ))
  d="$WORK/$curve-$lg"
  if [[ ! -f "$d/circuit.zkey" ]]; then
    "$BENCH" circuit "$curve" "$n" "$d" >/dev/null
    "$CUZK" setup "$d/circuit.r1cs" "$d/circuit.zkey" --vk "$d/vk.json" 2>/dev/null
  fi
  "$CUZK" prove --backend cpu "$d/circuit.zkey" "$d/witness.wtns" "$d/p.json" "$d/pub.json" 2>/dev/null  # warm the page cache
  c=$(secs "$CUZK" prove --backend cpu "$d/circuit.zkey" "$d/witness.wtns" "$d/p.json" "$d/pub.json")
  s=$(secs node --max-old-space-size=16000 "$SNARKJS" groth16 prove "$d/circuit.zkey" "$d/witness.wtns" "$d/ps.json" "$d/pubs.json")
  "$CUZK" verify "$d/vk.json" "$d/pubs.json" "$d/ps.json" >/dev/null || { echo "snarkjs proof did not verify" >&2; exit 1; }
  printf "%-9s %-6s %12s %12.2f %12.2f\n" "$curve" "$lg" "$n" "$c" "$s"
done
