#!/usr/bin/env bash
# cuzk <-> snarkjs interop test for one curve.
#
# Usage: tests/interop/interop.sh <bn128|bls12381> <path-to-cuzk> <workdir>
#
# Needs tools/node/node_modules (scripts/setup) and tests/fixtures/ptau/<curve>_12.ptau
# (committed; scripts/make-ptau). Compile/setup artefacts are cached in <workdir>/<curve>/,
# keyed on the circuit, input, ptau and package-lock, so reruns only redo the cuzk checks.
#
# Env: CUZK_BACKEND      passed to every 'cuzk prove' as --backend (the gpu label runs it with cuda)
#      INTEROP_CIRCUITS  space-separated subset of "multiplier mulchain poseidon_chain"
#      CUZK_TIMEOUT      seconds allowed per cuzk command (default 300)
#
# Per circuit: (a) cuzk prove -> snarkjs verify, cuzk verify, noble verify, public.json equal;
# (b) snarkjs prove -> cuzk verify; (c) tampered proofs/publics rejected by snarkjs, cuzk, noble;
# (d) --randomness 0,0 is deterministic and verifies; (e) cuzk setup keys work both ways;
# (g) cuzk info. Once per curve: (f) bad inputs exit 1 or 2 with a message, never crash.
set -euo pipefail

usage() { echo "usage: $0 <bn128|bls12381> <path-to-cuzk> <workdir>" >&2; exit 2; }
[[ $# -eq 3 ]] || usage
CURVE=$1
case "$CURVE" in bn128|bls12381) ;; *) echo "interop: unknown curve '$CURVE'" >&2; usage ;; esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BIN="$ROOT/tools/node/node_modules/.bin"
SNARKJS="$BIN/snarkjs"
CIRCOM="$BIN/circom2"
CIRCOMLIB="$ROOT/tools/node/node_modules/circomlib/circuits"
NOBLE="$ROOT/tests/interop/noble_verify.mjs"
JT="$ROOT/tests/interop/jsontool.mjs"
CIRCDIR="$ROOT/tests/interop/circuits"
PTAU="$ROOT/tests/fixtures/ptau/${CURVE}_12.ptau"
CUZK_TIMEOUT="${CUZK_TIMEOUT:-300}"
read -r -a CIRCUITS <<<"${INTEROP_CIRCUITS:-multiplier mulchain poseidon_chain}"
OTHER_CURVE=$([[ $CURVE == bn128 ]] && echo bls12381 || echo bn128)

DIED=""
die() { DIED=1; echo "interop[$CURVE] FAIL: $*" >&2; exit 1; }
on_exit() {
  local rc=$?
  if [[ $rc -ne 0 && -z "$DIED" ]]; then
    echo "interop[$CURVE] FAIL: unexpected error (exit $rc) during '${PHASE_KEY:-setup}'" >&2
  fi
}
trap on_exit EXIT

[[ -x "$SNARKJS" && -x "$CIRCOM" && -d "$CIRCOMLIB" ]] || die "tools/node/node_modules missing; run scripts/setup"
[[ -f "$PTAU" ]] || die "$PTAU missing; run scripts/make-ptau"
[[ -f "$2" && -x "$2" ]] || die "cuzk binary '$2' not found or not executable"
CUZK="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
mkdir -p "$3"
WORK="$(cd "$3" && pwd)"
for c in "${CIRCUITS[@]}"; do [[ -f "$CIRCDIR/$c.circom" ]] || die "unknown circuit '$c'"; done

# ---------- output and timing helpers ----------
now_us() { local t=${EPOCHREALTIME/./}; echo "$t"; }
T_SCRIPT=$(now_us)
declare -A TIMES=()
declare -a TIME_KEYS=()
PHASE_KEY=""; PHASE_T0=0
phase() {   # phase <circuit> <name>: print a header and start its clock
  phase_end
  PHASE_KEY="$1 $2"; PHASE_T0=$(now_us)
  echo "== [$CURVE $1] $2"
}
phase_end() {
  if [[ -n "$PHASE_KEY" ]]; then
    local dt=$(( $(now_us) - PHASE_T0 ))
    TIMES["$PHASE_KEY"]=$dt; TIME_KEYS+=("$PHASE_KEY")
    printf '   (%d.%02d s)\n' $((dt / 1000000)) $(( (dt % 1000000) / 10000 ))
    PHASE_KEY=""
  fi
}
say() { echo "   - $*"; }

LOGDIR="$WORK/$CURVE/logs"
mkdir -p "$LOGDIR"
LOGN=0
# quiet <desc> <cmd...>: run a helper tool, keep its output in a log, show it on failure.
quiet() {
  local desc=$1; shift
  LOGN=$((LOGN + 1))
  local log="$LOGDIR/$(printf '%03d' $LOGN).log"
  if ! "$@" >"$log" 2>&1; then
    echo "----- output of: $* -----" >&2; tail -n 40 "$log" >&2; echo "-----" >&2
    die "$desc"
  fi
}

# cuzk <logprefix> <args...>: run cuzk with a timeout; sets RC, output in <logprefix>.out/.err
RC=0
cuzk() {
  local lp=$1; shift
  RC=0
  # CUZK_BACKEND (cpu|cuda|auto) selects the prover backend for every 'cuzk prove'.
  if [[ -n "${CUZK_BACKEND:-}" && "${1:-}" == prove ]]; then
    shift
    set -- prove --backend "$CUZK_BACKEND" "$@"
  fi
  timeout --kill-after=10 "$CUZK_TIMEOUT" "$CUZK" "$@" >"$lp.out" 2>"$lp.err" || RC=$?
}
show_cuzk() { echo "----- cuzk stderr -----" >&2; tail -n 30 "$1.err" >&2; echo "-----" >&2; }
cuzk_ok() {   # cuzk_ok <desc> <logprefix> <args...>
  local desc=$1 lp=$2; shift 2
  cuzk "$lp" "$@"
  if [[ $RC -ne 0 ]]; then
    show_cuzk "$lp"
    local why="exited $RC"
    [[ $RC -eq 124 ]] && why="timed out after ${CUZK_TIMEOUT}s"
    [[ $RC -ge 128 ]] && why="crashed (exit $RC = signal $((RC - 128)))"
    die "$desc: 'cuzk $*' $why (expected exit 0)"
  fi
  say "$desc: ok"
}
# cuzk_reject <desc> <allowed codes, e.g. "1" or "1 2"> <logprefix> <args...>
cuzk_reject() {
  local desc=$1 allowed=$2 lp=$3; shift 3
  cuzk "$lp" "$@"
  if [[ $RC -eq 0 ]]; then die "$desc: 'cuzk $*' exited 0 (expected ${allowed// / or })"; fi
  if [[ $RC -eq 124 ]]; then die "$desc: 'cuzk $*' timed out after ${CUZK_TIMEOUT}s"; fi
  if [[ $RC -ge 128 ]]; then show_cuzk "$lp"; die "$desc: 'cuzk $*' crashed (exit $RC = signal $((RC - 128)))"; fi
  if [[ " $allowed " != *" $RC "* ]]; then show_cuzk "$lp"; die "$desc: 'cuzk $*' exited $RC (expected ${allowed// / or })"; fi
  if [[ ! -s "$lp.err" ]]; then die "$desc: 'cuzk $*' exited $RC but printed nothing to stderr"; fi
  say "$desc: rejected (exit $RC: $(head -n 1 "$lp.err" | cut -c1-100))"
}

snarkjs_verify_ok() {   # <desc> <vk> <public> <proof>
  local desc=$1 out rc=0
  out=$("$SNARKJS" groth16 verify "$2" "$3" "$4" 2>&1) || rc=$?
  if [[ $rc -ne 0 || "$out" != *"OK!"* ]]; then echo "$out" | tail -n 20 >&2; die "$desc: snarkjs groth16 verify did not accept (exit $rc)"; fi
  say "$desc: snarkjs OK"
}
snarkjs_verify_reject() {
  local desc=$1 out rc=0
  out=$("$SNARKJS" groth16 verify "$2" "$3" "$4" 2>&1) || rc=$?
  if [[ $rc -eq 0 || "$out" == *"OK!"* ]]; then echo "$out" | tail -n 20 >&2; die "$desc: snarkjs groth16 verify accepted (exit $rc)"; fi
  say "$desc: snarkjs rejects (exit $rc)"
}
noble_ok() {
  local desc=$1 out rc=0
  out=$(node "$NOBLE" "$CURVE" "$2" "$3" "$4" 2>&1) || rc=$?
  [[ $rc -eq 0 ]] || { echo "$out" >&2; die "$desc: noble_verify did not accept (exit $rc)"; }
  say "$desc: noble OK"
}
noble_reject() {
  local desc=$1 out rc=0
  out=$(node "$NOBLE" "$CURVE" "$2" "$3" "$4" 2>&1) || rc=$?
  [[ $rc -eq 1 ]] || { echo "$out" >&2; die "$desc: noble_verify exited $rc (expected 1)"; }
  say "$desc: noble rejects"
}

# ---------- build artefacts (cached) ----------
# circom2 runs under WASI and cannot read outside its cwd (symlinks out of it fail too), so
# compile inside $WORK with copies of the circuits and of circomlib's circuits.
prepare_compile_dir() {
  local ver
  ver=$(node -p "require('$ROOT/tools/node/node_modules/circomlib/package.json').version")
  if [[ "$(cat "$WORK/node_modules/circomlib/.copied" 2>/dev/null || true)" != "$ver" ]]; then
    rm -rf "$WORK/node_modules/circomlib"
    mkdir -p "$WORK/node_modules/circomlib"
    cp -r "$CIRCOMLIB" "$WORK/node_modules/circomlib/circuits"
    echo "$ver" >"$WORK/node_modules/circomlib/.copied"
  fi
  mkdir -p "$WORK/src"
}

build_circuit() {   # build_circuit <c>: r1cs, wasm, witness, zkey, vk, snarkjs proof in $WORK/$CURVE/$c
  local c=$1 D="$WORK/$CURVE/$1" key
  key=$(cat "$CIRCDIR/$c.circom" "$CIRCDIR/$c.input.json" "$ROOT/tools/node/package-lock.json" \
        <(echo "build-v1 $CURVE") "$PTAU" | sha256sum | cut -d' ' -f1)
  if [[ -f "$D/.stamp" && "$(cat "$D/.stamp")" == "$key" ]]; then
    say "cached artefacts in $D"
    return
  fi
  rm -rf "$D"; mkdir -p "$D"
  cp "$CIRCDIR/$c.circom" "$WORK/src/$c.circom"
  local t0; t0=$(now_us)
  (cd "$WORK" && quiet "circom2 compile $c" "$CIRCOM" "src/$c.circom" --r1cs --wasm -p "$CURVE" -l node_modules -o "$CURVE/$c")
  say "circom2 compile ($(( ($(now_us) - t0) / 1000 )) ms)"
  t0=$(now_us)
  quiet "wtns calculate $c" "$SNARKJS" wtns calculate "$D/${c}_js/$c.wasm" "$CIRCDIR/$c.input.json" "$D/witness.wtns"
  quiet "wtns check $c" "$SNARKJS" wtns check "$D/$c.r1cs" "$D/witness.wtns"
  say "witness calculate + check ($(( ($(now_us) - t0) / 1000 )) ms)"
  t0=$(now_us)
  quiet "groth16 setup $c" "$SNARKJS" groth16 setup "$D/$c.r1cs" "$PTAU" "$D/${c}_0000.zkey"
  quiet "zkey contribute $c" "$SNARKJS" zkey contribute "$D/${c}_0000.zkey" "$D/$c.zkey" \
    --name="cuzk interop test" -e="cuzk interop test entropy $CURVE $c"
  rm -f "$D/${c}_0000.zkey"
  quiet "export vk $c" "$SNARKJS" zkey export verificationkey "$D/$c.zkey" "$D/vk.json"
  say "groth16 setup + contribute + export vk ($(( ($(now_us) - t0) / 1000 )) ms)"
  t0=$(now_us)
  quiet "snarkjs prove $c" "$SNARKJS" groth16 prove "$D/$c.zkey" "$D/witness.wtns" "$D/snarkjs_proof.json" "$D/snarkjs_public.json"
  snarkjs_verify_ok "snarkjs self-check" "$D/vk.json" "$D/snarkjs_public.json" "$D/snarkjs_proof.json"
  say "snarkjs prove + verify ($(( ($(now_us) - t0) / 1000 )) ms)"
  echo "$key" >"$D/.stamp"
}

# ---------- per-circuit checks ----------
test_circuit() {
  local c=$1 D="$WORK/$CURVE/$1" R="$WORK/$CURVE/$1/run"
  rm -rf "$R"; mkdir -p "$R"
  local Z="$D/$c.zkey" W="$D/witness.wtns" VK="$D/vk.json"

  phase "$c" "a. cuzk prove -> snarkjs / cuzk / noble verify"
  cuzk_ok "cuzk prove" "$R/prove" prove "$Z" "$W" "$R/proof.json" "$R/public.json"
  quiet "cuzk proof.json is not snarkjs-format" node "$JT" check-proof "$CURVE" "$R/proof.json"
  say "proof.json schema: ok"
  snarkjs_verify_ok "cuzk proof" "$VK" "$R/public.json" "$R/proof.json"
  cuzk_ok "cuzk verify cuzk proof" "$R/verify" verify "$VK" "$R/public.json" "$R/proof.json"
  noble_ok "cuzk proof" "$VK" "$R/public.json" "$R/proof.json"
  quiet "cuzk public.json differs from snarkjs public.json" node "$JT" same-json "$R/public.json" "$D/snarkjs_public.json"
  say "public.json equals snarkjs's: ok"

  phase "$c" "b. snarkjs prove -> cuzk verify"
  cuzk_ok "cuzk verify snarkjs proof" "$R/verify_sj" verify "$VK" "$D/snarkjs_public.json" "$D/snarkjs_proof.json"

  phase "$c" "c. tampered proofs / public inputs"
  quiet "jsontool tamper-a" node "$JT" tamper-a "$R/proof.json" "$R/t_offcurve.json"
  quiet "jsontool tamper-c" node "$JT" tamper-c "$R/proof.json" "$R/t_c_is_a.json"
  quiet "jsontool tamper-pub" node "$JT" tamper-pub "$R/public.json" "$R/t_public.json"
  snarkjs_verify_reject "pi_a[0]+1 (off-curve)" "$VK" "$R/public.json" "$R/t_offcurve.json"
  cuzk_reject "cuzk verify pi_a[0]+1 (off-curve)" "1 2" "$R/v_t1" verify "$VK" "$R/public.json" "$R/t_offcurve.json"
  noble_reject "pi_a[0]+1 (off-curve)" "$VK" "$R/public.json" "$R/t_offcurve.json"
  snarkjs_verify_reject "pi_c := pi_a" "$VK" "$R/public.json" "$R/t_c_is_a.json"
  cuzk_reject_wellformed "cuzk verify pi_c := pi_a" "$R/v_t2" verify "$VK" "$R/public.json" "$R/t_c_is_a.json"
  noble_reject "pi_c := pi_a" "$VK" "$R/public.json" "$R/t_c_is_a.json"
  snarkjs_verify_reject "public[0] changed" "$VK" "$R/t_public.json" "$R/proof.json"
  cuzk_reject_wellformed "cuzk verify public[0] changed" "$R/v_t3" verify "$VK" "$R/t_public.json" "$R/proof.json"
  noble_reject "public[0] changed" "$VK" "$R/t_public.json" "$R/proof.json"

  phase "$c" "d. deterministic proof (--randomness 0,0)"
  cuzk_ok "cuzk prove --randomness 0,0 (1)" "$R/det1" prove --randomness 0,0 "$Z" "$W" "$R/det1_proof.json" "$R/det1_public.json"
  cuzk_ok "cuzk prove --randomness 0,0 (2)" "$R/det2" prove --randomness 0,0 "$Z" "$W" "$R/det2_proof.json" "$R/det2_public.json"
  cuzk_ok "cuzk prove --randomness 0,0 --threads 1" "$R/det3" prove --randomness 0,0 --threads 1 "$Z" "$W" "$R/det3_proof.json" "$R/det3_public.json"
  cmp -s "$R/det1_proof.json" "$R/det2_proof.json" || die "two runs of 'cuzk prove --randomness 0,0' gave different proof.json ($R/det1_proof.json, $R/det2_proof.json)"
  cmp -s "$R/det1_proof.json" "$R/det3_proof.json" || die "'--threads 1' gave a different proof.json with --randomness 0,0 ($R/det1_proof.json, $R/det3_proof.json)"
  cmp -s "$R/det1_public.json" "$R/det2_public.json" || die "two deterministic runs gave different public.json"
  say "byte-identical proof.json over 3 runs: ok"
  snarkjs_verify_ok "deterministic proof" "$VK" "$R/det1_public.json" "$R/det1_proof.json"

  phase "$c" "e. cuzk setup keys"
  cuzk_ok "cuzk setup" "$R/setup" setup "$D/$c.r1cs" "$R/own.zkey" --vk "$R/own_vk.json"
  quiet "snarkjs cannot export a vk from cuzk's zkey" "$SNARKJS" zkey export verificationkey "$R/own.zkey" "$R/vk2.json"
  quiet "cuzk's --vk JSON differs from snarkjs's export of the same zkey" node "$JT" same-vk "$R/own_vk.json" "$R/vk2.json"
  say "snarkjs export vk of own.zkey equals cuzk --vk: ok"
  cuzk_ok "cuzk prove own.zkey" "$R/own_prove" prove "$R/own.zkey" "$W" "$R/own_proof.json" "$R/own_public.json"
  snarkjs_verify_ok "cuzk proof, own key" "$R/vk2.json" "$R/own_public.json" "$R/own_proof.json"
  quiet "snarkjs groth16 prove with cuzk's zkey failed" "$SNARKJS" groth16 prove "$R/own.zkey" "$W" "$R/own_sj_proof.json" "$R/own_sj_public.json"
  cuzk_ok "cuzk verify snarkjs proof, own key" "$R/own_verify" verify "$R/own_vk.json" "$R/own_sj_public.json" "$R/own_sj_proof.json"

  phase "$c" "g. cuzk info"
  local f
  for f in "$Z" "$W" "$D/$c.r1cs"; do
    cuzk_ok "cuzk info $(basename "$f")" "$R/info_$(basename "$f")" info "$f"
  done
  grep -qE "^GPU plans \(device memory, estimated\): resident [0-9.]+ [MG]iB, streamed [0-9.]+ [MG]iB, lean [0-9.]+ [MG]iB" \
    "$R/info_$(basename "$Z").out" || die "cuzk info on a zkey prints no GPU plan footprints"
  phase_end
}
# well-formed but wrong: cuzk verify must say "invalid" (1), not "bad input" (2)
cuzk_reject_wellformed() { local desc=$1 lp=$2; shift 2; cuzk_reject "$desc" "1" "$lp" "$@"; }

# ---------- bad inputs (once per curve) ----------
test_bad_inputs() {
  local B="$WORK/$CURVE/bad" c
  rm -rf "$B"; mkdir -p "$B"
  # Prefer mulchain (a larger zkey); fall back to the first circuit.
  c=mulchain; [[ -f "$WORK/$CURVE/$c/.stamp" ]] || c=${CIRCUITS[0]}
  local D="$WORK/$CURVE/$c" Z="$WORK/$CURVE/$c/$c.zkey" W="$WORK/$CURVE/$c/witness.wtns"
  phase "bad-input" "f. bad inputs (zkey/wtns of $c)"

  head -c $(( $(stat -c %s "$Z") / 2 )) "$Z" >"$B/trunc.zkey"
  quiet "jsontool corrupt-magic" node "$JT" corrupt-magic "$Z" "$B/badmagic.zkey"
  head -c $(( $(stat -c %s "$W") / 2 )) "$W" >"$B/trunc.wtns"
  quiet "jsontool corrupt-wtns" node "$JT" corrupt-wtns "$W" "$B/unsat.wtns"
  # Make sure the corrupted witness really violates a constraint.
  if "$SNARKJS" wtns check "$D/$c.r1cs" "$B/unsat.wtns" >"$B/unsat_check.log" 2>&1; then
    die "internal: corrupt-wtns produced a witness that still satisfies $c.r1cs"
  fi

  cuzk_reject "prove: truncated zkey" "1 2" "$B/p1" prove "$B/trunc.zkey" "$W" "$B/o.json" "$B/p.json"
  cuzk_reject "prove: zkey with bad magic" "1 2" "$B/p2" prove "$B/badmagic.zkey" "$W" "$B/o.json" "$B/p.json"
  cuzk_reject "prove: truncated wtns" "1 2" "$B/p3" prove "$Z" "$B/trunc.wtns" "$B/o.json" "$B/p.json"
  cuzk_reject "prove: unsatisfied witness" "1 2" "$B/p4" prove "$Z" "$B/unsat.wtns" "$B/o.json" "$B/p.json"
  if [[ $c == mulchain && -f "$WORK/$CURVE/multiplier/.stamp" ]]; then
    cuzk_reject "prove: multiplier witness with mulchain zkey" "1 2" "$B/p5" prove "$Z" "$WORK/$CURVE/multiplier/witness.wtns" "$B/o.json" "$B/p.json"
  else
    say "skip: witness from another circuit (needs multiplier and mulchain)"
  fi
  cuzk_reject "prove: zkey does not exist" "1 2" "$B/p6" prove "$B/nonexistent.zkey" "$W" "$B/o.json" "$B/p.json"
  cuzk_reject "prove: wtns does not exist" "1 2" "$B/p7" prove "$Z" "$B/nonexistent.wtns" "$B/o.json" "$B/p.json"
  local bnw="$WORK/bn128/$c/witness.wtns" blsz="$WORK/bls12381/$c/$c.zkey"
  if [[ -f "$WORK/bn128/$c/.stamp" && -f "$WORK/bls12381/$c/.stamp" ]]; then
    cuzk_reject "prove: BN witness with BLS zkey" "1 2" "$B/p8" prove "$blsz" "$bnw" "$B/o.json" "$B/p.json"
  else
    say "skip: BN witness with BLS zkey (needs both curves' artefacts in $WORK)"
  fi
  cuzk_reject "verify: vk does not exist" "2" "$B/v1" verify "$B/nonexistent.json" "$D/snarkjs_public.json" "$D/snarkjs_proof.json"
  head -c 100 "$D/vk.json" >"$B/trunc_vk.json"
  cuzk_reject "verify: truncated vk JSON" "2" "$B/v2" verify "$B/trunc_vk.json" "$D/snarkjs_public.json" "$D/snarkjs_proof.json"
  cuzk_reject "verify: proof does not exist" "2" "$B/v3" verify "$D/vk.json" "$D/snarkjs_public.json" "$B/nonexistent.json"
  cuzk_reject "info: file does not exist" "1 2" "$B/i1" info "$B/nonexistent.zkey"
  phase_end
}

# ---------- main ----------
echo "interop: curve=$CURVE cuzk=$CUZK workdir=$WORK circuits=${CIRCUITS[*]}"
prepare_compile_dir
for c in "${CIRCUITS[@]}"; do
  phase "$c" "build (circom2, witness, snarkjs setup; cached)"
  build_circuit "$c"
done
phase_end
for c in "${CIRCUITS[@]}"; do test_circuit "$c"; done
test_bad_inputs

echo "== [$CURVE] timings"
for k in "${TIME_KEYS[@]}"; do
  dt=${TIMES[$k]}
  printf '   %-70s %4d.%02d s\n' "$k" $((dt / 1000000)) $(( (dt % 1000000) / 10000 ))
done
dt=$(( $(now_us) - T_SCRIPT ))
printf '   %-70s %4d.%02d s\n' "total" $((dt / 1000000)) $(( (dt % 1000000) / 10000 ))
echo "interop[$CURVE]: ALL PASSED"
