#!/usr/bin/env bash
# Issue 30's gpu-label test: PoRep C2 of a 512 MiB sector as Curio asks for it, on the GPU: a generated C1
# output and a TEST-ONLY key (fixed-base products on the GPU) under its standard name in a parameter cache,
# then cuzk-daemon --backend cuda with that cache, 2 proofs sent as POREP_SEAL_COMMIT vanilla proofs, each
# synthesized in the daemon, proved on the GPU, self-checked there and verified again by the client against
# the C1 output's challenges.
#   tests/porep/porep_c2_gpu.sh <cuzk-daemon> <cuzk-bench> <workdir>
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: $0 <cuzk-daemon> <cuzk-bench> <workdir>" >&2; exit 2; }
DAEMON=$1 BENCH=$2 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
"$BENCH" porep-c2 --dir "$WORK/c1" --sector-size 512MiB --proofs 2 -j 2 --daemon "$DAEMON" --backend cuda \
  >"$WORK/porep-c2.txt" 2>"$WORK/porep-c2.err" ||
  { cat "$WORK/porep-c2.txt" "$WORK/porep-c2.err" >&2; exit 1; }
grep -q "^| 2 | 0 |" "$WORK/porep-c2.txt" || { echo "porep_c2_gpu: not 2 proofs without failure" >&2; cat "$WORK/porep-c2.txt" >&2; exit 1; }
grep -q "2 of 2 proofs verified" "$WORK/porep-c2.txt" || { echo "porep_c2_gpu: proofs not verified" >&2; exit 1; }
[[ $(grep -c "^job=.* worker=cuda:0/" "$WORK/porep-c2.txt") -eq 2 ]] || { echo "porep_c2_gpu: partitions not on the GPU" >&2; cat "$WORK/porep-c2.txt" >&2; exit 1; }
echo "porep_c2_gpu: 512 MiB, 2 C2 proofs from C1 outputs on the GPU, verified"
