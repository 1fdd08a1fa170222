#!/usr/bin/env bash
# Installs what the onnxruntime comparison (bench/ort) needs: onnxruntime 1.30's
# CPU library, taken from the npm package onnxruntime-node (its install script
# is not run: the library ships inside the package), and the Go modules of
# bench/ort. Needs Go; installs npm and a C compiler (the Go binding uses
# cgo) with apt-get when they are missing.
#
#   scripts/ort-setup.sh            # library in ~/.cache/onnxshape-ort
#   ORT_DIR=/some/dir scripts/ort-setup.sh
#
# Then: cd bench/ort && go run -tags ort . --threads 2 ../../bench-data
# (bench/ort finds the library in ~/.cache/onnxshape-ort; with another
# ORT_DIR, pass --lib or set ONNXRUNTIME_LIB to the path printed below.)
set -euo pipefail

ORT_VERSION=1.30.0
ORT_DIR=${ORT_DIR:-$HOME/.cache/onnxshape-ort}
repo=$(cd "$(dirname "$0")/.." && pwd)

# npm and a C compiler come from Debian's packages when missing (as root).
missing=()
command -v npm >/dev/null || missing+=(npm)
command -v cc >/dev/null || missing+=(gcc)
if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}"
  else
    echo "ort-setup: ${missing[*]} needed (apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi
if ! command -v go >/dev/null; then
  echo "ort-setup: Go is needed" >&2
  exit 1
fi

mkdir -p "$ORT_DIR"
lib="$ORT_DIR/node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1"
installed=$(node -p "require('$ORT_DIR/node_modules/onnxruntime-node/package.json').version" 2>/dev/null || true)
if [[ ! -f $lib || $installed != "$ORT_VERSION" ]]; then
  (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund "onnxruntime-node@$ORT_VERSION")
fi
if [[ ! -f $lib ]]; then
  echo "ort-setup: $lib is missing after the install (is this linux/x64?)" >&2
  exit 1
fi

# tidy, not download: the go.sum of bench/ort follows the main module's dependencies.
(cd "$repo/bench/ort" && go mod tidy)
echo "onnxruntime $ORT_VERSION: $lib"
