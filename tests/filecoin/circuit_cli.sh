#!/usr/bin/env bash
# cuzk circuit porep end to end (issue 29): the 2 KiB PoRep partition circuit's counts in text and JSON
# (rust-fil-proofs' 2,687,921 synthesized rows, 2,687,961 with the prover's input rows, 40 inputs), a
# record-mode run that writes a .cpce which `cuzk info` reads back with the same counts, and a bad sector size.
#   tests/filecoin/circuit_cli.sh <cuzk> <workdir>
set -uo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 <cuzk> <workdir>" >&2; exit 2; }
CUZK=$1 W=$2
rm -rf "$W" && mkdir -p "$W"
trap 'rm -rf "$W/rec"' EXIT  # the 2 KiB recording is 600 MB
fail() { echo "circuit_cli: $*" >&2; exit 1; }

# Text: the counts, aligned, and the note on stderr.
"$CUZK" circuit porep --sector-size 2KiB >"$W/text.txt" 2>"$W/err.txt" || { cat "$W/err.txt" >&2; fail "text run"; }
grep -q "synthesizing the 2KiB PoRep partition circuit (shape mode)" "$W/err.txt" || fail "no note on stderr"
grep -Eq "^  constraints +2,687,921 synthesized, 2,687,961 as the prover counts them" "$W/text.txt" ||
  { cat "$W/text.txt" >&2; fail "text: constraints"; }
grep -Eq "^  inputs +40 \(ONE included\)" "$W/text.txt" || fail "text: inputs"
grep -Eq "^  non-zeros A +[0-9,]+ as the prover counts them" "$W/text.txt" || fail "text: non-zeros A"

# JSON: one object with the counts, the prover's rows and terms one per input more than synthesized.
"$CUZK" circuit porep --sector-size 2kib --json >"$W/shape.json" 2>/dev/null || fail "json run"
python3 - "$W/shape.json" <<'PY' || fail "json checks"
import json, sys
j = json.load(open(sys.argv[1]))
def eq(k, v):
    if j[k] != v: sys.exit(f"{k} = {j[k]}, expected {v}")
eq("sector_size", "2KiB"); eq("sector_bytes", 2048); eq("nodes", 64); eq("layers", 2); eq("partitions", 1)
eq("challenges_per_partition", 2); eq("mode", "shape")
eq("constraints_synthesized", 2687921); eq("constraints_prover", 2687961); eq("inputs", 40)
eq("nnz_a_prover", j["nnz_a_synthesized"] + 40)
d = j["density"]
assert d["a_aux"]["bits"] == d["b_aux"]["bits"] == j["aux"] and d["b_input"]["bits"] == 40, d
assert 0 < d["a_aux"]["popcount"] <= j["aux"] and d["b_input"]["popcount"] >= 1, d
assert j["tree_c_r_last"]["base_arity"] == 8 and j["tree_d_levels"] == 6
PY

# Record mode: the same numbers, and a .cpce that `cuzk info` reads (all sections checked) with them.
"$CUZK" circuit porep --sector-size 2KiB --json --record "$W/rec" >"$W/record.json" 2>/dev/null || fail "record run"
F="$W/rec/porep-2KiB.cpce"
[[ -f "$F" ]] || fail "record: $F not written"
"$CUZK" info "$F" >"$W/info.txt" 2>&1 || { cat "$W/info.txt" >&2; fail "info on the recording"; }
python3 - "$W/shape.json" "$W/record.json" "$W/info.txt" "$F" <<'PY' || fail "record checks"
import json, os, re, sys
shape, rec = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
info, path = open(sys.argv[3]).read(), sys.argv[4]
assert rec["mode"] == "record" and rec["record_file"] == path, rec
assert rec["record_bytes"] == os.path.getsize(path), rec
for k in ("constraints_synthesized", "constraints_prover", "inputs", "aux", "nnz_a_synthesized",
          "nnz_a_prover", "nnz_b", "nnz_c", "density"):
    if shape[k] != rec[k]: sys.exit(f"record {k} = {rec[k]}, shape {shape[k]}")
m = re.search(r'pre-compiled circuit "filecoin-porep-2KiB" \(BLS12-381\), (\d+) constraints \+ (\d+) implied '
              r'input rows = (\d+), (\d+) inputs \(ONE included\), (\d+) aux, non-zeros A (\d+) \(\+ \d+ = (\d+)\) '
              r'B (\d+) C (\d+), density a_aux (\d+)/\d+ b_input (\d+)/\d+ b_aux (\d+)/\d+, all sections checked', info)
if not m: sys.exit("info output not understood: " + info)
got = [int(x) for x in m.groups()]
d = shape["density"]
want = [shape["constraints_synthesized"], shape["inputs"], shape["constraints_prover"], shape["inputs"], shape["aux"],
        shape["nnz_a_synthesized"], shape["nnz_a_prover"], shape["nnz_b"], shape["nnz_c"],
        d["a_aux"]["popcount"], d["b_input"]["popcount"], d["b_aux"]["popcount"]]
if got != want: sys.exit(f"info counts {got}, shape {want}")
PY
# A damaged recording is a clear error naming the file.
head -c 1000000 "$F" >"$W/cut.cpce"
"$CUZK" info "$W/cut.cpce" >"$W/out.txt" 2>&1 && fail "info accepted a truncated .cpce"
grep -q "cut.cpce" "$W/out.txt" || { cat "$W/out.txt" >&2; fail "truncated .cpce: the message should name the file"; }

# An unknown sector size: exit 1, naming the sizes there are.
"$CUZK" circuit porep --sector-size 4KiB >"$W/out.txt" 2>&1
rc=$?
[[ $rc -eq 1 ]] || { cat "$W/out.txt" >&2; fail "4KiB: exit $rc, expected 1"; }
grep -q "unknown PoRep sector size '4KiB'.*2KiB, 8MiB, 512MiB, 32GiB and 64GiB" "$W/out.txt" ||
  { cat "$W/out.txt" >&2; fail "4KiB: the message should name the valid sizes"; }
# No sector size: a usage error.
"$CUZK" circuit porep >/dev/null 2>&1 && fail "a missing --sector-size was accepted"

# The fallback PoSt circuits (issue 32): WindowPoSt at 32 GiB is rust-fil-proofs' 125,279,217 constraints with
# 2,349 sectors; WinningPoSt is 66 sectors of one challenge; an unknown size fails as for PoRep.
"$CUZK" circuit post --sector-size 32GiB >"$W/post.txt" 2>/dev/null || fail "post run"
grep -Eq "^  constraints +125,279,217 synthesized" "$W/post.txt" || { cat "$W/post.txt" >&2; fail "post: constraints"; }
grep -Eq "^  inputs +25,840 \(ONE included\)" "$W/post.txt" || fail "post: inputs"
grep -Eq "^  sectors +2349 per partition" "$W/post.txt" || fail "post: sectors"
"$CUZK" circuit winning --sector-size 64GiB --json >"$W/winning.json" 2>/dev/null || fail "winning run"
python3 - "$W/winning.json" <<'PY' || fail "winning json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["circuit"] == "winning-post" and j["sectors"] == 66 and j["challenges_per_sector"] == 1, j
assert j["inputs"] == 1 + 66 * 2 and j["tree_r_last"]["top_arity"] == 2, j
# 64 GiB WindowPoSt is 2,300 sectors of 313 + 10 per-challenge rows = 129,887,900: one challenge a sector here.
per_sector = 129887900 // 2300
per_challenge = (per_sector - 313) // 10
assert j["constraints_synthesized"] == 66 * (313 + per_challenge), j["constraints_synthesized"]
PY
"$CUZK" circuit post --sector-size 4KiB >"$W/out.txt" 2>&1 && fail "post: 4KiB accepted"
grep -q "unknown PoSt sector size '4KiB'.*2KiB, 8MiB, 512MiB, 32GiB and 64GiB" "$W/out.txt" ||
  { cat "$W/out.txt" >&2; fail "post 4KiB: message"; }
echo "circuit_cli: OK"
