#!/usr/bin/env bash
# Regenerate examples/poseidon/<curve>/ for bn128 and bls12381 (or the curves given as args).
#
# Usage: examples/poseidon/make.sh [bn128] [bls12381]
#
# Needs tools/node/node_modules (scripts/setup) and tests/fixtures/ptau/<curve>_12.ptau.
# Everything is deterministic except proof.json (snarkjs groth16 prove draws fresh r, s).
# TEST ONLY keys: the phase-2 contribution uses a published entropy string (see README.md).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$ROOT/examples/poseidon"
BIN="$ROOT/tools/node/node_modules/.bin"
SNARKJS="$ROOT/tools/node/node_modules/snarkjs/build/cli.cjs"
CIRCOM="$BIN/circom2"
CIRCOMLIB="$ROOT/tools/node/node_modules/circomlib/circuits"
CIRCUIT="$ROOT/tests/interop/circuits/poseidon_chain.circom"
INPUT="$ROOT/tests/interop/circuits/poseidon_chain.input.json"

CURVES=("$@")
[[ ${#CURVES[@]} -gt 0 ]] || CURVES=(bn128 bls12381)
for c in "${CURVES[@]}"; do
  case "$c" in bn128|bls12381) ;; *) echo "make.sh: unknown curve '$c'" >&2; exit 2 ;; esac
done
[[ -f "$SNARKJS" && -x "$CIRCOM" && -d "$CIRCOMLIB" ]] || { echo "make.sh: run scripts/setup first" >&2; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# circom2 runs under WASI and cannot read outside its cwd (symlinks out of it fail too):
# compile inside $WORK with copies of the circuit and of circomlib's circuits.
mkdir -p "$WORK/node_modules/circomlib" "$WORK/src"
cp -r "$CIRCOMLIB" "$WORK/node_modules/circomlib/circuits"
cp "$CIRCUIT" "$WORK/src/poseidon_chain.circom"

# snarkjs zkey contribute hashes 64 bytes from crypto.randomFillSync together with the -e
# entropy, so -e alone is not reproducible. For these TEST ONLY keys we zero those bytes
# (for the contribute process only), making the contribution a function of the published
# entropy string alone.
cat >"$WORK/zero_random.cjs" <<'EOF'
require("crypto").randomFillSync = (buf) => { buf.fill(0); return buf; };
EOF

snarkjs() { node "$SNARKJS" "$@"; }

for CURVE in "${CURVES[@]}"; do
  echo "== $CURVE"
  B="$WORK/$CURVE"; D="$OUT/$CURVE"
  ENTROPY="cuzk examples/poseidon TEST ONLY entropy $CURVE"
  mkdir -p "$B"
  (cd "$WORK" && "$CIRCOM" src/poseidon_chain.circom --r1cs --wasm -p "$CURVE" -l node_modules -o "$CURVE")
  snarkjs wtns calculate "$B/poseidon_chain_js/poseidon_chain.wasm" "$INPUT" "$B/witness.wtns"
  snarkjs wtns check "$B/poseidon_chain.r1cs" "$B/witness.wtns"
  snarkjs groth16 setup "$B/poseidon_chain.r1cs" "$ROOT/tests/fixtures/ptau/${CURVE}_12.ptau" "$B/circuit_0000.zkey"
  node --require "$WORK/zero_random.cjs" "$SNARKJS" zkey contribute "$B/circuit_0000.zkey" "$B/circuit.zkey" \
    --name="cuzk examples/poseidon TEST ONLY" -e="$ENTROPY"
  snarkjs zkey verify "$B/poseidon_chain.r1cs" "$ROOT/tests/fixtures/ptau/${CURVE}_12.ptau" "$B/circuit.zkey"
  snarkjs zkey export verificationkey "$B/circuit.zkey" "$B/verification_key.json"
  snarkjs groth16 prove "$B/circuit.zkey" "$B/witness.wtns" "$B/proof.json" "$B/public.json"
  snarkjs groth16 verify "$B/verification_key.json" "$B/public.json" "$B/proof.json"

  rm -rf "$D"; mkdir -p "$D"
  cp "$B/poseidon_chain.r1cs" "$D/circuit.r1cs"
  cp "$B/circuit.zkey" "$B/witness.wtns" "$B/verification_key.json" "$B/proof.json" "$B/public.json" "$D/"
  cp "$INPUT" "$D/input.json"
  echo "== $CURVE: wrote $D"
done
