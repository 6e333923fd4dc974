#!/usr/bin/env bash
# cuzk-daemon end to end with the bench client and snarkjs:
#   tests/daemon/daemon_snarkjs.sh <cuzk-daemon> <cuzk-bench> <workdir>
# A repository with the shipped Poseidon circuits (both curves); `cuzk-bench batch` and `stress` (mixed
# circuits and priorities, concurrent) write every proof as snarkjs JSON; snarkjs verifies each one;
# status, metrics, preload and evict answer; SIGTERM stops the daemon with exit status 0.
# CUZK_BACKEND (default cpu) picks the daemon's backend: the GPU machine runs it with cuda.
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: $0 <cuzk-daemon> <cuzk-bench> <workdir>" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DAEMON=$1 BENCH=$2 WORK=$3
SNARKJS="$ROOT/tools/node/node_modules/.bin/snarkjs"
[[ -x "$SNARKJS" ]] || { echo "daemon_snarkjs: run scripts/setup (snarkjs missing)" >&2; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK/repo"
for c in bn128 bls12381; do
  mkdir -p "$WORK/repo/poseidon-$c"
  cp "$ROOT/examples/poseidon/$c/circuit.zkey" "$WORK/repo/poseidon-$c/"
done
printf 'priority = "high"\n' >"$WORK/repo/poseidon-bn128/circuit.toml"
SOCK="unix://$WORK/d.sock"
PORT=$((30000 + $$ % 20000))
"$DAEMON" --listen "$SOCK" --repository "$WORK/repo" --backend "${CUZK_BACKEND:-cpu}" --cpu-workers 2 --http "127.0.0.1:$PORT" \
  2>"$WORK/daemon.log" &
PID=$!
trap 'kill -9 $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do [[ -S "$WORK/d.sock" ]] && break; sleep 0.1; done

W_BN="$ROOT/examples/poseidon/bn128/witness.wtns" W_BLS="$ROOT/examples/poseidon/bls12381/witness.wtns"
"$BENCH" --addr "$SOCK" single --circuit poseidon-bn128 --witness "$W_BN" --out "$WORK/single"
"$BENCH" --addr "$SOCK" batch --circuit poseidon-bls12381 --witness "$W_BLS" --count 4 -j 2 --out "$WORK/batch" \
  --timeline "$WORK/batch.svg"
"$BENCH" --addr "$SOCK" stress --job "poseidon-bn128:$W_BN:critical" --job "poseidon-bls12381:$W_BLS:low" \
  --job "poseidon-bn128:$W_BN" --count 8 -j 4 --out "$WORK/stress" --timeline "$WORK/stress.svg"
grep -q "<rect" "$WORK/stress.svg" || { echo "daemon_snarkjs: empty timeline" >&2; exit 1; }

n=0
for proof in "$WORK"/single/*-proof.json "$WORK"/batch/*-proof.json "$WORK"/stress/*-proof.json; do
  curve=$(grep -o '"curve": *"[a-z0-9]*"' "$proof" | grep -o '[a-z0-9]*"$' | tr -d '"')
  out=$("$SNARKJS" groth16 verify "$ROOT/examples/poseidon/$curve/verification_key.json" \
    "${proof%-proof.json}-public.json" "$proof" 2>&1)
  grep -q "OK" <<<"$out" || { echo "daemon_snarkjs: snarkjs rejects $proof: $out" >&2; exit 1; }
  n=$((n + 1))
done
[[ $n -eq 13 ]] || { echo "daemon_snarkjs: expected 13 proofs, found $n" >&2; exit 1; }
echo "snarkjs verified $n daemon proofs"

"$BENCH" --addr "$SOCK" status | grep "total_proofs_completed: 13" >/dev/null
"$BENCH" --addr "$SOCK" metrics | grep 'cuzk_proofs_completed_total{circuit="poseidon-bn128"}' >/dev/null
"$BENCH" --addr "$SOCK" evict --circuit poseidon-bls12381 | grep "evicted" >/dev/null
"$BENCH" --addr "$SOCK" preload --circuit poseidon-bls12381 | grep "loaded in" >/dev/null
if "$BENCH" --addr "$SOCK" preload --circuit nope 2>"$WORK/err.txt"; then
  echo "daemon_snarkjs: preload of an unknown circuit succeeded" >&2; exit 1
fi
grep -q "unknown circuit" "$WORK/err.txt"
kill -TERM $PID
wait $PID
echo "daemon stopped cleanly; ALL PASSED"
