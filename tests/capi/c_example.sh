#!/usr/bin/env bash
# The C example against the ABI's shared library (issue 7): TEST-ONLY .params and two binary assignments
# (cuzk-bench gen bellperson) → examples/c/prove_bellperson proves both partitions in one call, verifies
# them through the ABI and writes 384 bytes → `cuzk verify-bellperson` accepts them.
#   tests/capi/c_example.sh <prove_bellperson> <cuzk> <cuzk-bench> <workdir>
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 <prove_bellperson> <cuzk> <cuzk-bench> <workdir>" >&2; exit 2; }
EXAMPLE=$1 CUZK=$2 BENCH=$3 W=$4
rm -rf "$W" && mkdir -p "$W"
"$BENCH" gen bellperson --log-domain 12 --partitions 2 --out "$W" >/dev/null
"$EXAMPLE" "$W/circuit.params" "$W/proofs.bin" "$W/assignment-0.bin" "$W/assignment-1.bin"
[[ $(stat -c %s "$W/proofs.bin") -eq 384 ]] || { echo "c_example: expected 384 bytes" >&2; exit 1; }
"$CUZK" verify-bellperson --vk "$W/circuit.vk" --inputs "$W/inputs.json" --proof "$W/proofs.bin"
# A truncated assignment is the example's clear error, not a crash.
head -c 1000 "$W/assignment-0.bin" >"$W/cut.bin"
if "$EXAMPLE" "$W/circuit.params" "$W/x.bin" "$W/cut.bin" 2>"$W/err.txt"; then
  echo "c_example: a truncated assignment was accepted" >&2; exit 1
fi
grep -q "truncated" "$W/err.txt"
echo "c_example: ALL PASSED"
