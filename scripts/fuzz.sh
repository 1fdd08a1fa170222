#!/usr/bin/env bash
# Runs every fuzz target for a while (default 10m each), two at a time, and
# prints each one's last lines. A crash leaves its input under the package's
# testdata/fuzz/<Target>/ folder: commit it as a regression test.
#
#   scripts/fuzz.sh [DURATION]
set -uo pipefail
cd "$(dirname "$0")/.."
time=${1:-10m}
targets=(
  "./ops FuzzOperators" "./onnx FuzzDecodeModel"
  "./onnx FuzzTensorFromProto" "./tensor FuzzReadNPY"
  "./onnx FuzzDecodeValue" "./graph FuzzLoadBytes"
  "./ops FuzzShapeOperators" "./ops FuzzPadResize"
  "./ops FuzzMaxPool" "./ops FuzzMaxUnpool"
  "./profile FuzzCheck"
)
status=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for t in "${targets[@]:i:2}"; do
    set -- $t
    log=$(mktemp)
    (go test "$1" -run '^$' -fuzz "^$2\$" -fuzztime "$time" -parallel 1 >"$log" 2>&1; echo "exit $?" >>"$log") &
    pids+=($!:$2:$log)
  done
  for p in "${pids[@]}"; do
    IFS=: read -r pid name log <<<"$p"
    wait "$pid"
    echo "== $name ($time)"
    tail -3 "$log"
    grep -q '^exit 0' "$log" || status=1
  done
done
exit $status
