#!/usr/bin/env bash
# Issue 6's gpu-label test: a PoRep-shaped circuit at K = 20 (one million constraints) on the GPU, end to
# end: generator → test-only setup with the fixed-base products on the GPU → cuzk-daemon --backend cuda →
# 2 proofs of 2 partitions, every proof verified by the daemon's self-check (a failed check fails the job,
# and the summary row then counts it).
#   tests/porep/porep_gpu.sh <cuzk-daemon> <cuzk-bench> <workdir>
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: $0 <cuzk-daemon> <cuzk-bench> <workdir>" >&2; exit 2; }
DAEMON=$1 BENCH=$2 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK"
"$BENCH" porep --repository "$WORK" --log-domain 20 --partitions 2 --proofs 2 -j 2 --daemon "$DAEMON" \
  --backend cuda >"$WORK/porep.txt" 2>"$WORK/porep.err" ||
  { cat "$WORK/porep.txt" "$WORK/porep.err" >&2; exit 1; }
grep -q "fixed-base products on GPU" "$WORK/porep.err" || { echo "porep_gpu: setup did not use the GPU" >&2; exit 1; }
grep -q "^| 2 | 0 |" "$WORK/porep.txt" || { echo "porep_gpu: not 2 proofs without failure" >&2; cat "$WORK/porep.txt" >&2; exit 1; }
[[ $(grep -c "^job=.* worker=cuda:0/" "$WORK/porep.txt") -eq 4 ]] || { echo "porep_gpu: partitions not on the GPU" >&2; exit 1; }
echo "porep_gpu: K=20, 2 proofs x 2 partitions on the GPU, self-checked"
