//go:build ort

package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// The ai.onnx.ml operators of classic-model exporters (Scaler, Normalizer,
// Imputer, OneHotEncoder, FeatureVectorizer, LinearRegressor,
// LinearClassifier) against onnxruntime: one-node models of random
// attributes and inputs, built as protobuf (the builder knows only the
// default domain), outputs compared within the tolerances of
// docs/divergences.md ("ai.onnx.ml operators of classic models"). The
// strings the harness cannot hand to onnxruntime (CategoryMapper, string
// labels) are left to the Go tests of both engines.

func mlAttr(name string, v any) *pb.AttributeProto {
	a := &pb.AttributeProto{Name: proto.String(name)}
	switch v := v.(type) {
	case int64:
		a.Type, a.I = pb.AttributeProto_INT.Enum(), proto.Int64(v)
	case float32:
		a.Type, a.F = pb.AttributeProto_FLOAT.Enum(), proto.Float32(v)
	case string:
		a.Type, a.S = pb.AttributeProto_STRING.Enum(), []byte(v)
	case []int64:
		a.Type, a.Ints = pb.AttributeProto_INTS.Enum(), v
	case []float32:
		a.Type, a.Floats = pb.AttributeProto_FLOATS.Enum(), v
	case []string:
		a.Type = pb.AttributeProto_STRINGS.Enum()
		for _, s := range v {
			a.Strings = append(a.Strings, []byte(s))
		}
	default:
		panic(fmt.Sprintf("attribute %s of %T", name, v))
	}
	return a
}

// mlModel is a model of one ai.onnx.ml node reading inputs x0, x1, ... and
// writing outputs of the given types (shapes left to the engines).
func mlModel(op string, inputs []*tensor.Tensor, outTypes []tensor.DataType, attrs ...*pb.AttributeProto) ([]byte, []string) {
	n := &pb.NodeProto{OpType: proto.String(op), Domain: proto.String("ai.onnx.ml"), Attribute: attrs}
	g := &pb.GraphProto{Name: proto.String(op)}
	for i, x := range inputs {
		name := fmt.Sprintf("x%d", i)
		n.Input = append(n.Input, name)
		g.Input = append(g.Input, cfInfo(name, x.DataType(), x.Shape()...))
	}
	var names []string
	for i, dt := range outTypes {
		name := fmt.Sprintf("out%d", i)
		n.Output = append(n.Output, name)
		names = append(names, name)
		g.Output = append(g.Output, &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
			TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(dt))}}}})
	}
	g.Node = []*pb.NodeProto{n}
	m := &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{
		{Domain: proto.String(""), Version: proto.Int64(17)}, {Domain: proto.String("ai.onnx.ml"), Version: proto.Int64(3)}}, Graph: g}
	data, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	return data, names
}

func mlFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.Float64()*4 - 2)
	}
	return v
}

func mlInput(r *rand.Rand, dt tensor.DataType, shape ...int) *tensor.Tensor {
	x := tensor.MustNew(dt, shape...)
	for i := range x.Len() {
		switch dt {
		case tensor.Float:
			d, _ := tensor.Data[float32](x)
			d[i] = float32(r.Float64()*6 - 3)
		case tensor.Double:
			d, _ := tensor.Data[float64](x)
			d[i] = r.Float64()*6 - 3
		case tensor.Int64:
			d, _ := tensor.Data[int64](x)
			d[i] = int64(r.IntN(11) - 5)
		case tensor.Int32:
			d, _ := tensor.Data[int32](x)
			d[i] = int32(r.IntN(11) - 5)
		}
	}
	return x
}

type mlCase struct {
	c        diffCase
	model    []byte
	names    []string
	known    string // a row of docs/divergences.md that explains a difference
	describe string
}

func TestORTClassicML(t *testing.T) {
	types := []tensor.DataType{tensor.Float, tensor.Double, tensor.Int64, tensor.Int32}
	transforms := []string{"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"}
	gens := []func(r *rand.Rand) mlCase{
		func(r *rand.Rand) mlCase {
			x := mlInput(r, pick(r, types...), 1+r.IntN(4), 1+r.IntN(5))
			c := x.Shape()[1]
			k := pick(r, 1, c)
			m, names := mlModel("Scaler", []*tensor.Tensor{x}, []tensor.DataType{tensor.Float},
				mlAttr("offset", mlFloats(r, k)), mlAttr("scale", mlFloats(r, k)))
			return mlCase{c: diffCase{inputs: inputsOf(x), abs: 1e-6, rel: 1e-6}, model: m, names: names, describe: fmt.Sprint("Scaler ", x.DataType())}
		},
		func(r *rand.Rand) mlCase {
			x := mlInput(r, pick(r, types...), 1+r.IntN(4), 1+r.IntN(5))
			norm := pick(r, "MAX", "L1", "L2")
			m, names := mlModel("Normalizer", []*tensor.Tensor{x}, []tensor.DataType{tensor.Float}, mlAttr("norm", norm))
			return mlCase{c: diffCase{inputs: inputsOf(x), abs: 1e-6, rel: 1e-6}, model: m, names: names, describe: fmt.Sprint("Normalizer ", norm, " ", x.DataType())}
		},
		func(r *rand.Rand) mlCase {
			dt := pick(r, tensor.Float, tensor.Int64) // onnxruntime's two kernels
			x := mlInput(r, dt, 1+r.IntN(4), 1+r.IntN(5))
			c := x.Shape()[1]
			k := pick(r, 1, c)
			var attrs []*pb.AttributeProto
			if dt == tensor.Float {
				d, _ := tensor.Data[float32](x)
				for i := range d {
					if r.IntN(4) == 0 {
						d[i] = 0
					}
				}
				attrs = append(attrs, mlAttr("imputed_value_floats", mlFloats(r, k)), mlAttr("replaced_value_float", float32(0)))
			} else {
				v := make([]int64, k)
				for i := range v {
					v[i] = int64(r.IntN(100))
				}
				attrs = append(attrs, mlAttr("imputed_value_int64s", v), mlAttr("replaced_value_int64", int64(r.IntN(3)-1)))
			}
			m, names := mlModel("Imputer", []*tensor.Tensor{x}, []tensor.DataType{dt}, attrs...)
			return mlCase{c: diffCase{inputs: inputsOf(x)}, model: m, names: names, describe: fmt.Sprint("Imputer ", dt)}
		},
		func(r *rand.Rand) mlCase {
			dt := pick(r, tensor.Int64, tensor.Int32, tensor.Float, tensor.Double)
			x := mlInput(r, dt, 1+r.IntN(3), 1+r.IntN(3))
			cats := []int64{}
			for i := range 1 + r.IntN(5) {
				cats = append(cats, int64(i*2-3))
			}
			m, names := mlModel("OneHotEncoder", []*tensor.Tensor{x}, []tensor.DataType{tensor.Float}, mlAttr("cats_int64s", cats), mlAttr("zeros", int64(1)))
			return mlCase{c: diffCase{inputs: inputsOf(x)}, model: m, names: names, describe: fmt.Sprint("OneHotEncoder ", dt)}
		},
		func(r *rand.Rand) mlCase {
			dt := pick(r, types...)
			rows := 1 + r.IntN(3)
			var xs []*tensor.Tensor
			var dims []int64
			for range 1 + r.IntN(3) {
				c := 1 + r.IntN(3)
				xs = append(xs, mlInput(r, dt, rows, c))
				dims = append(dims, int64(c))
			}
			m, names := mlModel("FeatureVectorizer", xs, []tensor.DataType{tensor.Float}, mlAttr("inputdimensions", dims))
			return mlCase{c: diffCase{inputs: inputsOf(xs...)}, model: m, names: names, describe: fmt.Sprint("FeatureVectorizer ", dt)}
		},
		func(r *rand.Rand) mlCase {
			x := mlInput(r, pick(r, types...), 1+r.IntN(4), 1+r.IntN(6))
			c := x.Shape()[1]
			targets := 1 + r.IntN(3)
			post := pick(r, transforms...)
			attrs := []*pb.AttributeProto{mlAttr("coefficients", mlFloats(r, targets*c)), mlAttr("targets", int64(targets)), mlAttr("post_transform", post)}
			if r.IntN(2) == 0 {
				attrs = append(attrs, mlAttr("intercepts", mlFloats(r, targets)))
			}
			m, names := mlModel("LinearRegressor", []*tensor.Tensor{x}, []tensor.DataType{tensor.Float}, attrs...)
			mc := mlCase{c: diffCase{inputs: inputsOf(x), abs: 1e-4, rel: 1e-5}, model: m, names: names, describe: fmt.Sprint("LinearRegressor ", targets, " ", post)}
			if post == "PROBIT" {
				mc.c.abs, mc.c.rel = 5e-3, 5e-3
			}
			if targets == 1 && post != "NONE" && post != "PROBIT" {
				mc.known = "LinearRegressor: one target's post_transform"
			}
			return mc
		},
		func(r *rand.Rand) mlCase {
			x := mlInput(r, pick(r, types...), 1+r.IntN(4), 1+r.IntN(6))
			c := x.Shape()[1]
			e := 2 + r.IntN(3)
			k := e
			if e == 2 && r.IntN(2) == 0 {
				k = 1
			}
			post := pick(r, transforms...)
			labels := make([]int64, e)
			for i := range labels {
				labels[i] = int64(7 * i)
			}
			attrs := []*pb.AttributeProto{mlAttr("coefficients", mlFloats(r, k*c)), mlAttr("classlabels_ints", labels), mlAttr("post_transform", post)}
			if r.IntN(3) > 0 {
				attrs = append(attrs, mlAttr("intercepts", mlFloats(r, k)))
			} else {
				attrs = append(attrs, mlAttr("intercepts", make([]float32, k))) // onnxruntime counts the scores by the intercepts
			}
			m, names := mlModel("LinearClassifier", []*tensor.Tensor{x}, []tensor.DataType{tensor.Int64, tensor.Float}, attrs...)
			mc := mlCase{c: diffCase{inputs: inputsOf(x), abs: 1e-4, rel: 1e-5}, model: m, names: names, describe: fmt.Sprint("LinearClassifier ", e, " labels ", k, " scores ", post)}
			if post == "PROBIT" {
				mc.c.abs, mc.c.rel = 5e-3, 5e-3
			}
			if k == 1 && post != "NONE" {
				mc.known = "LinearClassifier: the binary form's post_transform"
			}
			return mc
		},
	}
	r := rand.New(rand.NewPCG(25, 1+exploreSeed()))
	agreed, known := 0, map[string]int{}
	for i := range 70 * len(gens) {
		mc := gens[i%len(gens)](r)
		ours, err := runOurs(mc.model, &mc.c)
		if err != nil {
			t.Errorf("case %d %s: onnxshape: %v", i, mc.describe, err)
			continue
		}
		var like []*tensor.Tensor
		for _, n := range mc.names {
			like = append(like, ours[n])
		}
		theirs, err := runORTModel(mc.model, &mc.c, mc.names, like)
		if err != nil && strings.Contains(err.Error(), "Could not find an implementation") {
			known["onnxruntime has no kernel for this type"]++
			continue
		}
		if err != nil {
			t.Errorf("case %d %s: onnxruntime: %v", i, mc.describe, err)
			continue
		}
		bad := ""
		for j, n := range mc.names {
			if msg := mc.c.compareOutput(ours[n], theirs[j]); msg != "" {
				bad += n + ": " + msg + "; "
			}
		}
		switch {
		case bad == "":
			agreed++
		case mc.known != "":
			known[mc.known]++
		default:
			t.Errorf("case %d %s: %s\n\tinputs: %s", i, mc.describe, bad, describeInputs(&mc.c))
		}
	}
	t.Logf("%d of %d cases agree", agreed, 70*len(gens))
	for why, k := range known {
		t.Logf("%d cases not compared, or differing as docs/divergences.md says: %s", k, why)
	}
}

// TestORTClassicMLPipelines runs the pipelines testdata/classic_ml.py
// builds with onnx.helper (checked there by onnx.checker) on random rows
// in both engines.
func TestORTClassicMLPipelines(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	for _, c := range []struct {
		file   string
		inputs func(n int) []*tensor.Tensor
		outs   int
	}{
		{"scaler_linearclassifier", func(n int) []*tensor.Tensor { return []*tensor.Tensor{mlInput(r, tensor.Float, n, 4)} }, 2},
		{"imputer_normalizer_linearclassifier", func(n int) []*tensor.Tensor {
			x := mlInput(r, tensor.Float, n, 4)
			d, _ := tensor.Data[float32](x)
			for i := range d {
				if r.IntN(4) == 0 {
					d[i] = 0
				}
			}
			return []*tensor.Tensor{x}
		}, 2},
		{"featurevectorizer_scaler_linearregressor", func(n int) []*tensor.Tensor {
			return []*tensor.Tensor{mlInput(r, tensor.Double, n, 2), mlInput(r, tensor.Double, n, 3)}
		}, 1},
	} {
		model, err := os.ReadFile(filepath.Join("testdata", c.file+".onnx"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 5, 64} {
			dc := diffCase{inputs: nil, abs: 1e-5, rel: 1e-5}
			names := map[string][]string{"scaler_linearclassifier": {"x"}, "imputer_normalizer_linearclassifier": {"x"},
				"featurevectorizer_scaler_linearregressor": {"a", "b"}}[c.file]
			for i, x := range c.inputs(n) {
				dc.inputs = append(dc.inputs, diffInput{names[i], x})
			}
			outs := []string{"label", "probabilities"}
			if c.outs == 1 {
				outs = []string{"y"}
			}
			ours, err := runOurs(model, &dc)
			if err != nil {
				t.Fatalf("%s: onnxshape: %v", c.file, err)
			}
			var like []*tensor.Tensor
			for _, o := range outs {
				like = append(like, ours[o])
			}
			theirs, err := runORTModel(model, &dc, outs, like)
			if err != nil {
				t.Fatalf("%s: onnxruntime: %v", c.file, err)
			}
			for j, o := range outs {
				if msg := dc.compareOutput(ours[o], theirs[j]); msg != "" {
					t.Errorf("%s, %d rows, %s: %s", c.file, n, o, msg)
				}
			}
		}
	}
}
