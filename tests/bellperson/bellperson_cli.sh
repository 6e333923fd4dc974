#!/usr/bin/env bash
# cuzk prove-bellperson / verify-bellperson end to end (issue 7): TEST-ONLY .params for a PoRep-shaped circuit
# of 3 partitions (cuzk-bench gen bellperson) → 576-byte proof → verified; fixed r,s give identical bytes;
# tampering, wrong inputs, truncated files and an unsatisfied assignment are clear errors.
#   tests/bellperson/bellperson_cli.sh <cuzk> <cuzk-bench> <workdir>
set -uo pipefail
[[ $# -eq 3 ]] || { echo "usage: $0 <cuzk> <cuzk-bench> <workdir>" >&2; exit 2; }
CUZK=$1 BENCH=$2 W=$3
rm -rf "$W" && mkdir -p "$W"
fail() { echo "bellperson_cli: $*" >&2; exit 1; }
expect_rc() {  # expect_rc <rc> <what> <command…>
  local want=$1 what=$2
  shift 2
  "$@" >"$W/out.txt" 2>&1
  local rc=$?
  [[ $rc -eq $want ]] || { cat "$W/out.txt" >&2; fail "$what: exit $rc, expected $want"; }
}
"$BENCH" gen bellperson --log-domain 12 --partitions 3 --out "$W" >/dev/null || fail "gen"
P="$W/circuit.params" V="$W/circuit.vk" A="$W/assignment.json" I="$W/inputs.json"

# cuzk info on a .params key: its shape (h = 2^12 − 1) and what each GPU plan would hold; a truncated one fails.
expect_rc 0 "info" "$CUZK" info "$P"
grep -q "bellperson Groth16 parameters (BLS12-381), .* h 4095 (FFT domain 4096)" "$W/out.txt" || fail "info: shape"
grep -Eq "GPU plans \(device memory, estimated\): resident [0-9.]+ MiB, streamed [0-9.]+ MiB, lean [0-9.]+ MiB" \
  "$W/out.txt" || fail "info: GPU plans"
head -c 5000 "$P" >"$W/cut-info.params"
expect_rc 1 "info truncated params" "$CUZK" info "$W/cut-info.params"

expect_rc 0 "prove" "$CUZK" prove-bellperson --params "$P" --assignment "$A" --out "$W/proof.bin"
[[ $(stat -c %s "$W/proof.bin") -eq 576 ]] || fail "3 partitions should give 576 bytes"
expect_rc 0 "verify" "$CUZK" verify-bellperson --vk "$V" --inputs "$I" --proof "$W/proof.bin"
grep -q "OK: 3 partition proofs verified" "$W/out.txt" || fail "verify output"

# Fixed randomness: the same bytes twice; another r gives other bytes that verify too.
R=0x0000000000000000000000000000000000000000000000000000000000000003,12345
"$CUZK" prove-bellperson --params "$P" --assignment "$A" --out "$W/p1.bin" --randomness "$R" 2>/dev/null
"$CUZK" prove-bellperson --params "$P" --assignment "$A" --out "$W/p2.bin" --randomness "$R" 2>/dev/null
cmp -s "$W/p1.bin" "$W/p2.bin" || fail "fixed r,s gave different proofs"
cmp -s "$W/p1.bin" "$W/proof.bin" && fail "random r,s gave the fixed-r,s proof"
expect_rc 0 "verify fixed" "$CUZK" verify-bellperson --vk "$V" --inputs "$I" --proof "$W/p1.bin"

# A proof that does not verify: exit 1. Unreadable input: exit 2.
python3 - "$W/proof.bin" "$W/swapped.bin" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(b[192:384] + b[0:192] + b[384:])  # partitions 0 and 1 swapped
PY
expect_rc 1 "swapped partitions" "$CUZK" verify-bellperson --vk "$V" --inputs "$I" --proof "$W/swapped.bin"
grep -q "INVALID: partition 0" "$W/out.txt" || fail "swapped: which partition"
head -c 384 "$W/proof.bin" >"$W/short.bin"
expect_rc 2 "2 proofs for 3 inputs" "$CUZK" verify-bellperson --vk "$V" --inputs "$I" --proof "$W/short.bin"
head -c 500 "$W/proof.bin" >"$W/cut.bin"
expect_rc 2 "truncated proof" "$CUZK" verify-bellperson --vk "$V" --inputs "$I" --proof "$W/cut.bin"
grep -q "192-byte" "$W/out.txt" || fail "truncated proof: message"
head -c 1000 "$V" >"$W/cut.vk"
expect_rc 2 "truncated vk" "$CUZK" verify-bellperson --vk "$W/cut.vk" --inputs "$I" --proof "$W/proof.bin"

# The prover: a truncated .params, and an assignment that does not satisfy the circuit (no proof written).
head -c 100000 "$P" >"$W/cut.params"
expect_rc 1 "truncated params" "$CUZK" prove-bellperson --params "$W/cut.params" --assignment "$A" --out "$W/x.bin"
grep -qi "cut.params" "$W/out.txt" || fail "truncated params: the message should name the file"
python3 - "$A" "$W/bad.json" <<'PY'
import json, sys
parts = json.load(open(sys.argv[1]))
parts[1]["aux"][5] = "0x" + "%064x" % (int(parts[1]["aux"][5], 16) + 2)
json.dump(parts, open(sys.argv[2], "w"))
PY
rm -f "$W/bad.bin"
expect_rc 1 "unsatisfied assignment" "$CUZK" prove-bellperson --params "$P" --assignment "$W/bad.json" --out "$W/bad.bin"
grep -q "partition 1" "$W/out.txt" || fail "unsatisfied: which partition"
[[ ! -e "$W/bad.bin" ]] || fail "a proof file was written although partition 1 failed"
python3 - "$A" "$W/nodensity.json" <<'PY'
import json, sys
parts = json.load(open(sys.argv[1]))
for p in parts:
    for k in ("a_aux_density", "b_input_density", "b_aux_density"): del p[k]
json.dump(parts[:1], open(sys.argv[2], "w"))
PY
expect_rc 1 "no densities for a filtered key" "$CUZK" prove-bellperson --params "$P" --assignment "$W/nodensity.json" --out "$W/x.bin"
grep -q "b_aux_density" "$W/out.txt" || fail "missing densities: message"
echo "bellperson_cli: ALL PASSED"
