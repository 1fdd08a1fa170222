# Builds the classic-model pipelines of TestORTClassicMLPipelines with
# onnx.helper and checks them with onnx.checker: the shapes sklearn-onnx
# exports (a scaler before a linear classifier; imputation and
# normalization before one; a feature vectorizer before a scaled linear
# regression). Run with the system's python3-onnx from this directory:
#   /usr/bin/python3 classic_ml.py
# ZipMap, SVMClassifier and TreeEnsembleClassifier are not in onnxshape yet;
# the pipelines end at the classifier's label and scores.
import onnx
from onnx import TensorProto, helper

ML = "ai.onnx.ml"


def model(name, nodes, inputs, outputs):
    g = helper.make_graph(nodes, name, inputs, outputs)
    m = helper.make_model(g, producer_name="onnxshape-classic-ml",
                          opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(ML, 3)])
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
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
