#!/usr/bin/env python3
"""Dump ONNX's own shape inference for a list of models, as JSON.

usage: onnx_infer_shapes.py MODEL...   (or the paths one a line on stdin)

Prints one JSON object per model, one a line:
  {"model": PATH, "values": {NAME: {"elem": 1, "shape": [1, "N", null]}},
   "error": "..."}
"shape" is null for an unknown rank; a dimension is an integer when known, a
string for a dim_param, null when unknown. package infer's TestAgainstONNX
compares onnxshape's inference with it (Debian's python3-onnx, 1.12).
"""
import json
import sys

import onnx
from onnx import shape_inference, TensorProto


def describe(vi):
    t = vi.type
    if not t.HasField("tensor_type"):
        return None
    tt = t.tensor_type
    out = {"elem": tt.elem_type}
    if not tt.HasField("shape"):
        out["shape"] = None
        return out
    dims = []
    for d in tt.shape.dim:
        if d.HasField("dim_value"):
            dims.append(d.dim_value)
        elif d.HasField("dim_param"):
            dims.append(d.dim_param)
        else:
            dims.append(None)
    out["shape"] = dims
    return out


def main():
    paths = sys.argv[1:] or [line.strip() for line in sys.stdin if line.strip()]
    for path in paths:
        rec = {"model": path, "values": {}}
        try:
            m = onnx.load(path, load_external_data=False)
            for imp in m.opset_import:
                if imp.domain in ("", "ai.onnx") and imp.version > onnx.defs.onnx_opset_version():
                    raise ValueError("opset %d is newer than this onnx (%s) knows" % (imp.version, onnx.__version__))
            inferred = shape_inference.infer_shapes(m, strict_mode=False)
            g = inferred.graph
            for vi in list(g.input) + list(g.value_info) + list(g.output):
                d = describe(vi)
                if d is not None:
                    rec["values"][vi.name] = d
        except Exception as e:  # a model ONNX 1.12 cannot read: no values
            rec["error"] = str(e).splitlines()[0] if str(e) else type(e).__name__
        print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
