#!/usr/bin/env bash
# Fetches the ONNX backend node tests that conformance/manifest.txt is held
# to: onnx/backend/test/data/node of the ONNX repository at commit
# 6be0677fc22e (2026-08-04, the last one that stored them), into DIR
# (default: ../shared/onnx-node beside this checkout, where `go test ./...`
# and `onnxshape test` look; ONNXSHAPE_NODE_TESTS points them elsewhere).
#
#   scripts/fetch-node-tests.sh [DIR]
#
# Only that folder is checked out (a sparse, blob-less clone: ~100 MB). ONNX
# is licensed under Apache-2.0; keep the data outside this repository.
set -euo pipefail
cd "$(dirname "$0")/.."

commit=${ONNX_COMMIT:-6be0677fc22e}
repo=${ONNX_REPO:-https://github.com/onnx/onnx.git}
dest=${1:-../shared/onnx-node}

if [[ -e $dest ]]; then
  echo "$dest exists; remove it first to fetch again" >&2
  exit 1
fi
command -v git >/dev/null || { echo "git is needed" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone --quiet --filter=blob:none --no-checkout "$repo" "$tmp/onnx"
git -C "$tmp/onnx" sparse-checkout set --no-cone /onnx/backend/test/data/node/
git -C "$tmp/onnx" -c advice.detachedHead=false checkout --quiet "$commit"
src=$tmp/onnx/onnx/backend/test/data/node
if [[ ! -d $src ]]; then
  echo "commit $commit of $repo has no onnx/backend/test/data/node" >&2
  exit 1
fi
mkdir -p "$(dirname "$dest")"
mv "$src" "$dest"
echo "$(find "$dest" -mindepth 1 -maxdepth 1 -type d | wc -l) node tests in $dest"
