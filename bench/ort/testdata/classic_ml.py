# Builds the classic-model pipelines of TestORTClassicMLPipelines with
# onnx.helper and checks them with onnx.checker: the shapes sklearn-onnx
# exports (a scaler before a linear classifier; imputation and
# normalization before one; a feature vectorizer before a scaled linear
# regression). Run with the system's python3-onnx from this directory:
#   /usr/bin/python3 classic_ml.py
# The classifiers of mlmap_* end in ZipMap, as skl2onnx exports them
# (output_label, output_probability as seq(map)); they also return the
# scores before ZipMap ("probabilities"), the part onnxruntime_go can read
# back. dictvectorizer_linearregressor reads a map, which onnxruntime_go
# cannot feed: it runs in both engines of onnxshape only.
import onnx
from onnx import TensorProto, helper

ML = "ai.onnx.ml"


def model(name, nodes, inputs, outputs):
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, producer_name="onnxshape-classic-ml",
                          opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(ML, 3)])
    m.ir_version = 8
    # onnx 1.12's strict shape inference cannot merge map types: the
    # pipelines with maps get the checker without it.
    onnx.checker.check_model(m, full_check=not name.startswith("mlmap_"))
    onnx.save(m, name + ".onnx")


F = 4
model("scaler_linearclassifier", [
    helper.make_node("Scaler", ["x"], ["s"], domain=ML, offset=[0.5, -1.0, 2.0, 0.0], scale=[2.0, 0.5, 1.0, 3.0]),
    helper.make_node("LinearClassifier", ["s"], ["label", "probabilities"], domain=ML,
                     classlabels_ints=[0, 1, 2], coefficients=[0.3, -0.2, 0.5, 0.1, -0.4, 0.6, 0.2, -0.3, 0.1, 0.1, -0.7, 0.2],
                     intercepts=[0.1, -0.2, 0.05], multi_class=1, post_transform="SOFTMAX"),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", F])],
    [helper.make_tensor_value_info("label", TensorProto.INT64, ["N"]),
     helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", 3])])

model("imputer_normalizer_linearclassifier", [
    helper.make_node("Imputer", ["x"], ["i"], domain=ML, imputed_value_floats=[1.0, 2.0, 3.0, 4.0], replaced_value_float=0.0),
    helper.make_node("Normalizer", ["i"], ["n"], domain=ML, norm="L2"),
    helper.make_node("LinearClassifier", ["n"], ["label", "probabilities"], domain=ML,
                     classlabels_ints=[3, 7], coefficients=[-0.5, 0.25, -1.0, 0.75, 0.5, -0.25, 1.0, -0.75],
                     intercepts=[-0.1, 0.1], post_transform="LOGISTIC"),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", F])],
    [helper.make_tensor_value_info("label", TensorProto.INT64, ["N"]),
     helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", 2])])

model("featurevectorizer_scaler_linearregressor", [
    helper.make_node("FeatureVectorizer", ["a", "b"], ["f"], domain=ML, inputdimensions=[2, 3]),
    helper.make_node("Scaler", ["f"], ["s"], domain=ML, offset=[1.0], scale=[0.5]),
    helper.make_node("LinearRegressor", ["s"], ["y"], domain=ML, coefficients=[0.5, -1.0, 0.25, 2.0, -0.5, 1.0, 1.0, 1.0, 1.0, 1.0],
                     intercepts=[0.5, -0.5], targets=2),
], [helper.make_tensor_value_info("a", TensorProto.DOUBLE, ["N", 2]), helper.make_tensor_value_info("b", TensorProto.DOUBLE, ["N", 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 2])])


def map_type(key, value):
    # onnx 1.12's helper has no make_map_type_proto.
    t = onnx.TypeProto()
    t.map_type.key_type = key
    t.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(value, []))
    return t


def zipmap_outputs(label_type, n_classes):
    return [helper.make_tensor_value_info("output_label", label_type, ["N"]),
            helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["N", n_classes]),
            helper.make_value_info("output_probability", helper.make_sequence_type_proto(
                map_type(TensorProto.INT64 if label_type == TensorProto.INT64 else TensorProto.STRING, TensorProto.FLOAT))),
            ]


COEF = [0.3, -0.2, 0.5, 0.1, -0.4, 0.6, 0.2, -0.3, 0.1, 0.1, -0.7, 0.2]
model("mlmap_linearclassifier_zipmap_int", [
    helper.make_node("LinearClassifier", ["x"], ["output_label", "probabilities"], domain=ML,
                     classlabels_ints=[0, 1, 2], coefficients=COEF, intercepts=[0.1, -0.2, 0.05], multi_class=1,
                     post_transform="SOFTMAX"),
    helper.make_node("ZipMap", ["probabilities"], ["output_probability"], domain=ML, classlabels_int64s=[0, 1, 2]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", F])], zipmap_outputs(TensorProto.INT64, 3))

model("mlmap_linearclassifier_zipmap_string", [
    helper.make_node("LinearClassifier", ["x"], ["output_label", "probabilities"], domain=ML,
                     classlabels_strings=["setosa", "versicolor", "virginica"], coefficients=COEF,
                     intercepts=[0.1, -0.2, 0.05], multi_class=1, post_transform="SOFTMAX"),
    helper.make_node("ZipMap", ["probabilities"], ["output_probability"], domain=ML,
                     classlabels_strings=["setosa", "versicolor", "virginica"]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", F])], zipmap_outputs(TensorProto.STRING, 3))

# Two trees of depth 2 over 4 features, 3 classes, as skl2onnx writes a
# RandomForestClassifier (probabilities averaged: weights 1/2).
nodes = dict(nodes_treeids=[], nodes_nodeids=[], nodes_featureids=[], nodes_values=[], nodes_modes=[],
             nodes_truenodeids=[], nodes_falsenodeids=[])
leaves = dict(class_treeids=[], class_nodeids=[], class_ids=[], class_weights=[])
for tree, (f0, t0, f1, t1, f2, t2) in enumerate([(0, 0.5, 1, -0.25, 2, 1.0), (3, 0.0, 2, 0.75, 1, -1.5)]):
    for nid, mode, feat, thr, tn, fn in [(0, "BRANCH_LEQ", f0, t0, 1, 2), (1, "BRANCH_LEQ", f1, t1, 3, 4),
                                         (2, "BRANCH_LEQ", f2, t2, 5, 6)] + [(i, "LEAF", 0, 0.0, 0, 0) for i in range(3, 7)]:
        nodes["nodes_treeids"].append(tree)
        nodes["nodes_nodeids"].append(nid)
        nodes["nodes_featureids"].append(feat)
        nodes["nodes_values"].append(thr)
        nodes["nodes_modes"].append(mode)
        nodes["nodes_truenodeids"].append(tn)
        nodes["nodes_falsenodeids"].append(fn)
    for leaf in range(3, 7):
        for cls in range(3):
            leaves["class_treeids"].append(tree)
            leaves["class_nodeids"].append(leaf)
            leaves["class_ids"].append(cls)
            # distinct sums: no tie between classes for the label to break
            leaves["class_weights"].append(0.5 * (((leaf * 7 + tree * 3 + cls * 5) % 11) / 12.0 + 0.013 * (cls + 1) * (leaf + 2 * tree)))
model("mlmap_treeensembleclassifier_zipmap", [
    helper.make_node("TreeEnsembleClassifier", ["x"], ["output_label", "probabilities"], domain=ML,
                     classlabels_int64s=[5, 6, 7], post_transform="NONE", **nodes, **leaves),
    helper.make_node("ZipMap", ["probabilities"], ["output_probability"], domain=ML, classlabels_int64s=[5, 6, 7]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", F])], zipmap_outputs(TensorProto.INT64, 3))

model("mlmap_scaler_normalizer_linearclassifier_zipmap", [
    helper.make_node("Scaler", ["x"], ["s"], domain=ML, offset=[0.5, -1.0, 2.0, 0.0], scale=[2.0, 0.5, 1.0, 3.0]),
    helper.make_node("Normalizer", ["s"], ["n"], domain=ML, norm="L2"),
    helper.make_node("LinearClassifier", ["n"], ["output_label", "probabilities"], domain=ML,
                     classlabels_ints=[3, 7], coefficients=[-0.5, 0.25, -1.0, 0.75, 0.5, -0.25, 1.0, -0.75],
                     intercepts=[-0.1, 0.1], post_transform="LOGISTIC"),
    helper.make_node("ZipMap", ["probabilities"], ["output_probability"], domain=ML, classlabels_int64s=[3, 7]),
], [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", F])], zipmap_outputs(TensorProto.INT64, 2))

model("mlmap_dictvectorizer_linearregressor", [
    helper.make_node("DictVectorizer", ["x"], ["v"], domain=ML, string_vocabulary=["age", "height", "weight"]),
    helper.make_node("Cast", ["v"], ["f"], to=TensorProto.FLOAT),
    helper.make_node("LinearRegressor", ["f"], ["y"], domain=ML, coefficients=[0.5, -1.0, 0.25], intercepts=[2.0]),
], [helper.make_value_info("x", map_type(TensorProto.STRING, TensorProto.DOUBLE))],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1])])
