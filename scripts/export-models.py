#!/usr/bin/python3
"""Exports the models bench/ort's exports_test.go runs: public architectures
as torch.onnx.export writes them, with seeded random weights (nothing is
downloaded), so that the exporter's own idioms run end to end in onnxshape
and onnxruntime.

    apt-get install python3-torch python3-torchvision python3-onnx
    scripts/export-models.py              # into ~/.cache/onnxshape-exports
    scripts/export-models.py DIR [NAME]...

Made with Debian 12's PyTorch 1.13.1 and torchvision 0.14.1 (the TorchScript
exporter); about 5 minutes on a loaded machine, 135 MB. What each model holds:

  resnet18, mobilenet_v3_small, efficientnet_b0, squeezenet1_1,
  shufflenet_v2_x0_5   torchvision's ImageNet classifiers (opsets 12-14:
                       HardSwish, HardSigmoid, SiLU as Sigmoid*Mul, the
                       channel shuffle's Reshape/Transpose)
  resnet18_qdq         resnet18 statically quantized in FX mode (qnnpack,
                       calibrated on random images): QuantizeLinear and
                       DequantizeLinear around float Conv, Add and Gemm
  ssdlite320_mobilenet_v3
                       torchvision's SSDlite detector with its own
                       preprocessing (Resize) and postprocessing (per-class
                       score threshold with NonZero and GatherND, TopK,
                       batched NMS inside an If); the class head's weights
                       spread so that scores differ
  super_resolution     the PyTorch ONNX tutorial's ESPCN network
                       (PixelShuffle as DepthToSpace)
  fast_neural_style    pytorch/examples' style transfer network
                       (ReflectionPad, InstanceNormalization, nearest
                       Upsample as Resize)
  lraspp_mobilenet_v3  torchvision's LR-ASPP segmentation head on
                       MobileNetV3-Large (bilinear Resize to the input size)
  crnn_lstm_gru        a CRNN text recognizer: convolutions, a two-layer
                       bidirectional LSTM and a GRU over a dynamic width
  bert_like_encoder    a BERT-shaped encoder: token, position and type
                       embeddings, LayerNorm, two post-LN
                       nn.TransformerEncoderLayer with GELU (Erf) and the
                       padding mask, a tanh pooler; batch and sequence
                       dynamic
  gpt_like_decoder     a GPT-shaped decoder: pre-LN layers under a causal
                       mask (Trilu) built from the sequence length, the
                       head tied to the embedding
"""
import os
import sys

import torch
import torch.nn as nn
import torchvision

tv = torchvision.models


class Encoder(nn.Module):
    def __init__(s, vocab=1000, d=128, heads=4, layers=2, maxlen=128):
        super().__init__()
        s.tok = nn.Embedding(vocab, d)
        s.pos = nn.Embedding(maxlen, d)
        s.typ = nn.Embedding(2, d)
        s.ln = nn.LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", batch_first=True)
        s.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        s.pool = nn.Linear(d, d)

    def forward(s, ids, mask, types):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = s.ln(s.tok(ids) + s.pos(pos) + s.typ(types))
        x = s.enc(x, src_key_padding_mask=(mask == 0))
        return x, torch.tanh(s.pool(x[:, 0]))


class Decoder(nn.Module):
    def __init__(s, vocab=1000, d=128, heads=4, layers=2, maxlen=128):
        super().__init__()
        s.tok = nn.Embedding(vocab, d)
        s.pos = nn.Embedding(maxlen, d)
        s.blocks = nn.ModuleList([
            nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
            for _ in range(layers)])
        s.ln = nn.LayerNorm(d)

    def forward(s, ids):
        n = ids.shape[1]
        x = s.tok(ids) + s.pos(torch.arange(n).unsqueeze(0))
        causal = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
        for b in s.blocks:
            x = b(x, src_mask=causal)
        return s.ln(x) @ s.tok.weight.t()


class SuperResolution(nn.Module):
    def __init__(s, r=3):
        super().__init__()
        s.c1 = nn.Conv2d(1, 64, 5, padding=2)
        s.c2 = nn.Conv2d(64, 64, 3, padding=1)
        s.c3 = nn.Conv2d(64, 32, 3, padding=1)
        s.c4 = nn.Conv2d(32, r * r, 3, padding=1)
        s.ps = nn.PixelShuffle(r)

    def forward(s, x):
        x = torch.relu(s.c1(x))
        x = torch.relu(s.c2(x))
        x = torch.relu(s.c3(x))
        return s.ps(s.c4(x))


class ConvLayer(nn.Sequential):
    def __init__(s, i, o, k, stride, up=None):
        layers = [nn.Upsample(scale_factor=up, mode="nearest")] if up else []
        super().__init__(*layers, nn.ReflectionPad2d(k // 2), nn.Conv2d(i, o, k, stride))


class Residual(nn.Module):
    def __init__(s, c):
        super().__init__()
        s.a, s.n1 = ConvLayer(c, c, 3, 1), nn.InstanceNorm2d(c, affine=True)
        s.b, s.n2 = ConvLayer(c, c, 3, 1), nn.InstanceNorm2d(c, affine=True)

    def forward(s, x):
        return x + s.n2(s.b(torch.relu(s.n1(s.a(x)))))


def style_net():
    def block(i, o, k, stride, up=None):
        return [ConvLayer(i, o, k, stride, up), nn.InstanceNorm2d(o, affine=True), nn.ReLU()]
    return nn.Sequential(*block(3, 32, 9, 1), *block(32, 64, 3, 2), *block(64, 128, 3, 2),
                         *[Residual(128) for _ in range(5)],
                         *block(128, 64, 3, 1, 2), *block(64, 32, 3, 1, 2), ConvLayer(32, 3, 9, 1))


def ssdlite():
    m = tv.detection.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)
    with torch.no_grad():
        for p in m.head.classification_head.parameters():
            p.normal_(0, 0.5)
    return m


def resnet18_qdq():
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    torch.backends.quantized.engine = "qnnpack"
    x = torch.randn(1, 3, 224, 224)
    p = prepare_fx(tv.resnet18().eval(), get_default_qconfig_mapping("qnnpack"), (x,))
    with torch.no_grad():
        for _ in range(4):
            p(torch.randn(1, 3, 224, 224))
    return convert_fx(p)


class CRNN(nn.Module):
    def __init__(s, classes=37):
        super().__init__()
        s.cnn = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d((2, 1)),
                              nn.Conv2d(64, 64, 3, padding=1), nn.ReLU())
        s.lstm = nn.LSTM(64, 64, num_layers=2, bidirectional=True, batch_first=True)
        s.gru = nn.GRU(128, 64, batch_first=True)
        s.out = nn.Linear(64, classes)

    def forward(s, x):
        f = s.cnn(x).mean(2).permute(0, 2, 1)
        f, _ = s.lstm(f)
        f, _ = s.gru(f)
        return s.out(f).log_softmax(-1)


def image():
    return torch.randn(1, 3, 224, 224)


def encoder_inputs():
    mask = torch.ones(2, 16, dtype=torch.int64)
    mask[1, 10:] = 0
    return (torch.randint(0, 1000, (2, 16)), mask, torch.zeros(2, 16, dtype=torch.int64))


seq = {0: "batch", 1: "seq"}
# name: (model, example inputs, input names, output names, opset, dynamic axes)
MODELS = {
    "resnet18": (tv.resnet18, image, ["input"], ["logits"], 13, None),
    "mobilenet_v3_small": (tv.mobilenet_v3_small, image, ["input"], ["logits"], 14, None),
    "efficientnet_b0": (tv.efficientnet_b0, image, ["input"], ["logits"], 13, None),
    "squeezenet1_1": (tv.squeezenet1_1, image, ["input"], ["logits"], 12, None),
    "shufflenet_v2_x0_5": (tv.shufflenet_v2_x0_5, image, ["input"], ["logits"], 13, None),
    "resnet18_qdq": (resnet18_qdq, image, ["input"], ["logits"], 13, None),
    "ssdlite320_mobilenet_v3": (ssdlite, lambda: ([torch.rand(3, 320, 320)],), ["images"], ["boxes", "scores", "labels"], 11, None),
    "super_resolution": (SuperResolution, lambda: torch.randn(1, 1, 224, 224), ["input"], ["output"], 11, None),
    "fast_neural_style": (style_net, image, ["input"], ["output"], 11, None),
    "lraspp_mobilenet_v3": (lambda: tv.segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None),
                            image, ["input"], ["out"], 13, None),
    "crnn_lstm_gru": (CRNN, lambda: torch.randn(1, 1, 32, 128), ["input"], ["log_probs"], 14,
                      {"input": {0: "batch", 3: "width"}, "log_probs": {0: "batch", 1: "steps"}}),
    "bert_like_encoder": (Encoder, encoder_inputs, ["input_ids", "attention_mask", "token_type_ids"],
                          ["last_hidden_state", "pooler_output"], 14,
                          {"input_ids": seq, "attention_mask": seq, "token_type_ids": seq,
                           "last_hidden_state": seq, "pooler_output": {0: "batch"}}),
    "gpt_like_decoder": (Decoder, lambda: (torch.randint(0, 1000, (1, 12)),), ["input_ids"], ["logits"], 14,
                         {"input_ids": seq, "logits": seq}),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/onnxshape-exports")
    names = sys.argv[2:] or list(MODELS)
    os.makedirs(out, exist_ok=True)
    failed = []
    for name in names:
        make, inputs, in_names, out_names, opset, dynamic = MODELS[name]
        torch.manual_seed(0)  # each model's weights whatever else is exported
        model = make().eval()
        args = inputs()
        # With gradients off, nn.TransformerEncoderLayer takes its fused
        # fast path, which the exporter cannot write.
        with torch.set_grad_enabled(name == "bert_like_encoder"):
            try:
                torch.onnx.export(model, args, os.path.join(out, name + ".onnx"), input_names=in_names,
                                  output_names=out_names, opset_version=opset, dynamic_axes=dynamic)
                print("exported", name)
            except Exception as e:  # report every model, then fail
                print("FAILED", name, type(e).__name__, e, file=sys.stderr)
                failed.append(name)
    if failed:
        sys.exit(1)
    if names == list(MODELS):
        open(os.path.join(out, ".complete"), "w").write(" ".join(names) + "\n")


if __name__ == "__main__":
    main()
