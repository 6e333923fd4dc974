#!/usr/bin/env bash
# PoRep-shaped circuits end to end on the CPU (issue 6's CI test), K = 12, 14, 16:
#   cuzk-bench gen porep-like → cuzk setup → a 2-partition circuit in a daemon's repository →
#   cuzk-bench single with both partition witnesses → snarkjs and cuzk verify each partition's proof.
#   tests/porep/porep_pipeline.sh <cuzk> <cuzk-daemon> <cuzk-bench> <workdir>
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 <cuzk> <cuzk-daemon> <cuzk-bench> <workdir>" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CUZK=$1 DAEMON=$2 BENCH=$3 WORK=$4
SNARKJS="$ROOT/tools/node/node_modules/.bin/snarkjs"
rm -rf "$WORK" && mkdir -p "$WORK/repo"
for k in 12 14 16; do
  d="$WORK/gen-$k"
  "$BENCH" gen porep-like --log-domain "$k" --seed "$k" --witnesses 2 --out "$d"
  "$CUZK" setup "$d/circuit.r1cs" "$d/circuit.zkey" --vk "$d/vk.json" >/dev/null
  mkdir -p "$WORK/repo/porep-$k"
  cp "$d/circuit.zkey" "$WORK/repo/porep-$k/"
  printf 'partitions = 2\n' >"$WORK/repo/porep-$k/circuit.toml"
done
SOCK="unix://$WORK/d.sock"
"$DAEMON" --listen "$SOCK" --repository "$WORK/repo" --backend cpu 2>"$WORK/daemon.log" &
PID=$!
trap 'kill -9 $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do [[ -S "$WORK/d.sock" ]] && break; sleep 0.1; done
for k in 12 14 16; do
  d="$WORK/gen-$k"
  "$BENCH" --addr "$SOCK" single --circuit "porep-$k" --witness "$d/witness-0.wtns" --witness "$d/witness-1.wtns" \
    --out "$d/proofs" >/dev/null
  for p in 0 1; do
    proof="$d/proofs/0-p$p-proof.json" public="$d/proofs/0-p$p-public.json"
    "$CUZK" verify "$d/vk.json" "$public" "$proof" >/dev/null
    out=$("$SNARKJS" groth16 verify "$d/vk.json" "$public" "$proof" 2>&1)
    grep -q "OK" <<<"$out" || { echo "porep_pipeline: snarkjs rejects K=$k partition $p: $out" >&2; exit 1; }
  done
  echo "K=$k: 2 partitions proved by the daemon, verified by cuzk and snarkjs"
done
grep -c "cuzk: job=" "$WORK/daemon.log" | grep -qx 6
kill -TERM $PID
wait $PID
# cuzk-bench porep: prepares the circuit, starts its own daemon, 2 proofs of 3 partitions.
mkdir -p "$WORK/repo2"
"$BENCH" porep --repository "$WORK/repo2" --log-domain 12 --partitions 3 --proofs 2 -j 2 --daemon "$DAEMON" \
  --backend cpu >"$WORK/porep.txt" 2>"$WORK/porep.err"
grep -q "^| 2 | 0 |" "$WORK/porep.txt" || { echo "porep_pipeline: cuzk-bench porep failed" >&2; cat "$WORK/porep.txt" "$WORK/porep.err" >&2; exit 1; }
[[ $(grep -c "^job=.* partition=" "$WORK/porep.txt") -eq 6 ]]
# The summary's sustained rate (steady s/proof: first to last proof finished) is a number within the wall time.
awk -F'|' '/^\| 2 \| 0 \|/ { ok = ($8 + 0 >= 0 && $8 + 0 <= $4 + 0 && $8 ~ /^ *[0-9.]+ *$/) } END { exit !ok }' \
  "$WORK/porep.txt" || { echo "porep_pipeline: no steady s/proof in the summary" >&2; cat "$WORK/porep.txt" >&2; exit 1; }
echo "cuzk-bench porep: 2 proofs x 3 partitions"
# The same through Filecoin's flow: a bellperson .params key and a, b, c assignment files; the daemon's
# self-check verified each 192-byte proof.
mkdir -p "$WORK/repo3"
"$BENCH" porep --repository "$WORK/repo3" --log-domain 12 --partitions 3 --proofs 2 -j 2 --kind bellperson \
  --daemon "$DAEMON" --backend cpu >"$WORK/porep-bp.txt" 2>"$WORK/porep-bp.err" ||
  { cat "$WORK/porep-bp.txt" "$WORK/porep-bp.err" >&2; exit 1; }
grep -q "^| 2 | 0 |" "$WORK/porep-bp.txt" || { echo "porep_pipeline: bellperson kind not 2 proofs" >&2; exit 1; }
[[ $(grep -c "^job=.* partition=" "$WORK/porep-bp.txt") -eq 6 ]]
ls "$WORK/repo3"/porep-like-k12-p3-s1-bls12381-bellperson/circuit.params >/dev/null
echo "cuzk-bench porep --kind bellperson: 2 proofs x 3 partitions"
# As scripts/gpu-porep runs it: the circuit prepared first (--prepare-only starts no daemon and proves
# nothing), then proofs through a daemon that was started on its own and outlives the run.
R4="$WORK/repo4" C4=porep-like-k12-p3-s1-bls12381-bellperson
mkdir -p "$R4"
"$BENCH" porep --repository "$R4" --log-domain 12 --partitions 3 --witnesses 2 --kind bellperson --prepare-only \
  >"$WORK/prep.txt" 2>"$WORK/prep.err" || { cat "$WORK/prep.err" >&2; exit 1; }
ls "$R4/$C4/circuit.params" "$R4/$C4/assignment-0.bin" "$R4/$C4/assignment-1.bin" >/dev/null
[[ ! -e "$R4/$C4/assignment-2.bin" && ! -s "$WORK/prep.txt" ]] ||
  { echo "porep_pipeline: --prepare-only made more than asked, or proved" >&2; exit 1; }
grep -q "holds the key and 2 witness file(s)" "$WORK/prep.err"
"$DAEMON" --listen "unix://$WORK/d4.sock" --repository "$R4" --backend cpu 2>"$WORK/daemon4.log" &
PID=$!
for _ in $(seq 100); do [[ -S "$WORK/d4.sock" ]] && break; sleep 0.1; done
for j in 1 2; do
  "$BENCH" --addr "unix://$WORK/d4.sock" porep --repository "$R4" --log-domain 12 --partitions 3 --witnesses 2 \
    --kind bellperson --proofs 2 -j $j >"$WORK/porep4-$j.txt" 2>"$WORK/porep4-$j.err" ||
    { cat "$WORK/porep4-$j.txt" "$WORK/porep4-$j.err" >&2; exit 1; }
  grep -q "^| 2 | 0 |" "$WORK/porep4-$j.txt" || { echo "porep_pipeline: J=$j on a running daemon" >&2; exit 1; }
done
grep -q "key already loaded" "$WORK/porep4-2.err"
kill -TERM $PID
wait $PID
echo "cuzk-bench porep --prepare-only, then 2 runs on one daemon"
echo "ALL PASSED"
