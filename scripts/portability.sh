#!/usr/bin/env bash
# Portability checks: the library and the CLI build with cgo off
# for every platform Go users deploy to, the operators' tests pass without
# the amd64 assembly (tag purego), and the whole test suite runs once with
# 32-bit ints (GOARCH=386), where shape arithmetic overflows first.
#
# This machine's kernel cannot execute 386 binaries, so the tests run under
# qemu-user (Debian's qemu-user, installed when missing). Go's signal-based
# preemption confuses qemu, hence GODEBUG=asyncpreemptoff=1; CPU profiling
# (SIGPROF) does too, so the one test that takes a CPU profile is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

for target in js/wasm wasip1/wasm linux/arm64 darwin/arm64 windows/amd64 linux/386; do
  GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go build ./... ./cmd/onnxshape
  echo "build $target: ok"
done

# The amd64 assembly kernels (ops/transposeblocks_amd64.s) have a Go
# equivalent that every other platform runs; the purego tag selects it on
# amd64 too.
CGO_ENABLED=0 go test -tags purego ./ops
echo "purego: ok"

runner=()
if [[ $(uname -m) == x86_64 ]] && ! (cd "$(mktemp -d)" && printf 'package main\nfunc main(){}\n' > m.go &&
  GOARCH=386 go build -o m386 m.go && ./m386) 2>/dev/null; then
  if ! command -v qemu-i386 >/dev/null; then
    if [[ $(id -u) == 0 ]]; then
      apt-get update -qq && apt-get install -y -qq qemu-user >/dev/null
    else
      sudo apt-get update -qq && sudo apt-get install -y -qq qemu-user >/dev/null
    fi
  fi
  runner=(-exec qemu-i386)
  # Tests that start processes skip under the emulator, which crashes now
  # and then when a multi-threaded Go process forks.
  export ONNXSHAPE_EMULATED=1
fi
GOARCH=386 CGO_ENABLED=0 GODEBUG=asyncpreemptoff=1 go test -short "${runner[@]}" -skip 'TestBenchCPUProfile' ./...
