package graph_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// The fast engine against the reference over random Attention calls with
// +-inf and NaN scattered in Q, K and the mask (boolean or additive, fewer
// columns than keys), causal or not, softcap, grouped heads, narrow and
// several-tile key counts: the same NaN and infinities at the same places,
// the finite values within rounding (the reference sums in float64).
func TestAttentionInfinitiesAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 22))
	cases := 300
	if testing.Short() {
		cases = 80
	}
	for c := range cases {
		dt := tensor.Double
		if r.IntN(2) == 0 {
			dt = tensor.Float
		}
		kvh := 1 + r.IntN(2)
		qh := kvh * (1 + r.IntN(2))
		s := 1 + r.IntN(4)
		l := []int{1, 3, 9, 20, 600}[r.IntN(5)]
		if l == 600 && s > 2 {
			s = 2
		}
		h, hv := 1+r.IntN(3), 1+r.IntN(2)
		rnd := func(n int, p float64) []float64 {
			v := make([]float64, n)
			for i := range v {
				v[i] = r.Float64()*4 - 2
				if r.Float64() < p {
					v[i] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(3)]
				}
			}
			return v
		}
		pInf := []float64{0, 0.02, 0.2}[r.IntN(3)]
		feeds := map[string]tensor.Value{
			"q": mkTensor(dt, rnd(qh*s*h, pInf), 1, qh, s, h),
			"k": mkTensor(dt, rnd(kvh*l*h, pInf/4), 1, kvh, l, h),
			"v": mkTensor(dt, rnd(kvh*l*hv, 0), 1, kvh, l, hv),
		}
		inputs := []string{"q", "k", "v"}
		var attrs []*pb.AttributeProto
		mcols := l
		if r.IntN(3) == 0 {
			mcols = max(l-1-r.IntN(3), 1)
		}
		switch r.IntN(3) {
		case 0:
			b := make([]bool, s*mcols)
			for i := range b {
				b[i] = r.IntN(3) != 0
			}
			feeds["m"] = tensor.MustFromSlice(b, s, mcols)
			inputs = append(inputs, "m")
		case 1:
			feeds["m"] = mkTensor(dt, rnd(s*mcols, pInf/2), s, mcols)
			inputs = append(inputs, "m")
		}
		if r.IntN(2) == 0 {
			attrs = append(attrs, &pb.AttributeProto{Name: proto.String("is_causal"), Type: pb.AttributeProto_INT.Enum(), I: proto.Int64(1)})
		}
		if r.IntN(3) == 0 {
			attrs = append(attrs, &pb.AttributeProto{Name: proto.String("softcap"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(2)})
		}
		var ins []*pb.ValueInfoProto
		for _, n := range inputs {
			ins = append(ins, onnx.TensorValueInfo(n, feeds[n].(*tensor.Tensor).DataType(), feeds[n].(*tensor.Tensor).Shape()))
		}
		m := &pb.ModelProto{IrVersion: proto.Int64(9), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(23)}},
			Graph: &pb.GraphProto{Name: proto.String("g"),
				Node:   []*pb.NodeProto{{OpType: proto.String("Attention"), Input: inputs, Output: []string{"y"}, Attribute: attrs}},
				Input:  ins,
				Output: []*pb.ValueInfoProto{{Name: proto.String("y")}}}}
		b, err := onnx.EncodeModel(m)
		if err != nil {
			t.Fatal(err)
		}
		model, err := graph.LoadBytes(b, "")
		if err != nil {
			t.Fatal(err)
		}
		var got [2][]float64
		for i, e := range []graph.Engine{graph.EngineFast, graph.EngineReference} {
			res, err := model.Run(context.Background(), feeds, &graph.RunOptions{Engine: e, Threads: 1 + r.IntN(2)})
			if err != nil {
				t.Fatalf("case %d engine %v: %v", c, e, err)
			}
			y, _ := res.Tensor("y")
			got[i], _ = y.Float64s()
		}
		tol := 1e-9
		if dt == tensor.Float {
			tol = 1e-4
		}
		for i, f := range got[0] {
			g := got[1][i]
			if math.IsNaN(f) != math.IsNaN(g) || (math.IsInf(f, 0) || math.IsInf(g, 0)) && f != g || math.Abs(f-g) > tol*(1+math.Abs(g)) {
				t.Errorf("case %d (%v q %d/%d heads, s %d, l %d, mask cols %d, inputs %v, attrs %v): y[%d] fast %v, reference %v", c, dt, qh, kvh, s, l, mcols, inputs, attrs, i, f, g)
				break
			}
		}
	}
}

func mkTensor(dt tensor.DataType, v []float64, shape ...int) *tensor.Tensor {
	if dt == tensor.Double {
		return tensor.MustFromSlice(v, shape...)
	}
	f := make([]float32, len(v))
	for i, x := range v {
		f[i] = float32(x)
	}
	return tensor.MustFromSlice(f, shape...)
}
