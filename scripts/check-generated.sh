#!/usr/bin/env bash
# Checks that the assembly and tables the scripts/gen-*-asm.py generators,
# and the packages' own gen_*.py (run by their go:generate lines, in their
# directory), write are the committed ones: each generator runs on a copy
# of HEAD's tree (its Go output laid out by gofmt, as committed), and the
# copy must not differ from HEAD. The generators of package gemm (asm/gen.go) have
# their own test (TestKernelsCurrent).
#
#   scripts/check-generated.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null; then
  echo "check-generated: python3 not found, generators not checked"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/head" "$tmp/gen"
git archive HEAD | tar -x -C "$tmp/head"
git archive HEAD | tar -x -C "$tmp/gen"
(cd "$tmp/gen" && for g in scripts/gen-*-asm.py; do python3 "$g" >/dev/null; done && gofmt -w ops)
for g in $(cd "$tmp/gen" && ls ops/internal/*/gen_*.py); do
  (cd "$tmp/gen/$(dirname "$g")" && python3 "$(basename "$g")" >/dev/null)
done
if ! diff -rq "$tmp/head" "$tmp/gen"; then
  echo "check-generated: the files above differ from what the generators write now: run the generator and commit its output" >&2
  exit 1
fi
echo "check-generated: $(ls scripts/gen-*-asm.py ops/internal/*/gen_*.py | wc -l) generators write the committed files"
