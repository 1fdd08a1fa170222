package profile

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// resizeSONNX is Resize-19 of a [1, 1, 5, 7] float X to [1, 1, 8, 11] in
// mode (linear or cubic), every attribute written out.
func resizeSONNX(t testing.TB, mode string) *pb.ModelProto {
	return newModel(t, 19).input("x", tensor.Float, 1, 1, 5, 7).
		ints("sizes", 1, 1, 8, 11).
		node("Resize", names("x", "", "", "sizes"), names("y"),
			attrInt("antialias", 0), attrInts("axes", 0, 1, 2, 3), attrString("coordinate_transformation_mode", "half_pixel"),
			&pb.AttributeProto{Name: proto.String("cubic_coeff_a"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(-0.75)},
			attrInt("exclude_outside", 0),
			&pb.AttributeProto{Name: proto.String("extrapolation_value"), Type: pb.AttributeProto_FLOAT.Enum(), F: proto.Float32(0)},
			attrString("keep_aspect_ratio_policy", "stretch"), attrString("mode", mode),
			attrString("nearest_mode", "floor")).
		output("y", tensor.Float, 1, 1, 8, 11).build()
}

// randomInputs gives every graph input of m random values of its declared
// type and shape, within the operators' domains (positive floats, small
// positive integers).
func randomInputs(t *testing.T, m *pb.ModelProto, rng *rand.Rand) map[string]tensor.Value {
	in := map[string]tensor.Value{}
	for _, vi := range m.GetGraph().GetInput() {
		k := knownFromType(vi.GetType())
		x, err := tensor.New(k.dtype, k.dims...)
		if err != nil {
			t.Fatal(err)
		}
		b := x.Bytes()
		switch {
		case k.dtype == tensor.Bool:
			for i := range b {
				b[i] = byte(rng.IntN(2))
			}
		case k.dtype.IsInteger():
			size := k.dtype.Size()
			for i := 0; i < len(b); i += size {
				b[i] = byte(1 + rng.IntN(50))
			}
		default:
			f := make([]float32, x.Len())
			for i := range f {
				f[i] = 0.1 + 2*rng.Float32()
			}
			switch k.dtype {
			case tensor.Float:
				x = tensor.MustFromSlice(f, k.dims...)
			case tensor.Double:
				d := make([]float64, len(f))
				for i, v := range f {
					d[i] = float64(v)
				}
				x = tensor.MustFromSlice(d, k.dims...)
			case tensor.Float16:
				x = tensor.MustFromSlice(tensor.Float16sFromFloat32(f), k.dims...)
			default:
				t.Fatalf("input %q: no random values of %v", vi.GetName(), k.dtype)
			}
		}
		in[vi.GetName()] = x
	}
	return in
}

// TestEnginesAgreeUnderProfile runs a model inside the profile for every
// admitted operator with a row (and linear and cubic Resize) under both
// engines and one and two threads, and compares the outputs bit for bit:
// under SONNX the results do not depend on the engine.
func TestEnginesAgreeUnderProfile(t *testing.T) {
	models := map[string]*pb.ModelProto{
		"Resize linear": resizeSONNX(t, "linear"),
		"Resize cubic":  resizeSONNX(t, "cubic"),
		"inside":        insideModel(t),
	}
	for _, r := range Rules {
		if r.Op != "" && admitted(r.Op) {
			models[r.Op] = satisfying(t, r.Key())
		}
	}
	rng := rand.New(rand.NewPCG(27, 4))
	for name, m := range models {
		if rep := CheckProto(m, ""); rep.Verdict() != VerdictInside {
			t.Errorf("%s: not inside:\n%s", name, rep)
			continue
		}
		model, err := graph.FromProto(m, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		in := randomInputs(t, m, rng)
		var want map[string]tensor.Value
		for _, e := range []graph.Engine{graph.EngineReference, graph.EngineFast} {
			for _, threads := range []int{1, 2} {
				res, err := model.Run(context.Background(), in, &graph.RunOptions{Profile: ops.ProfileSONNX, Engine: e, Threads: threads})
				out := res.Map()
				if err != nil {
					t.Fatalf("%s, %s engine, %d thread(s): %v", name, e, threads, err)
				}
				if want == nil {
					want = out
					continue
				}
				for k, v := range want {
					a, b := v.(*tensor.Tensor), out[k].(*tensor.Tensor)
					if !tensor.SameShape(a.Shape(), b.Shape()) || string(a.Bytes()) != string(b.Bytes()) {
						t.Errorf("%s: output %q differs under the %s engine with %d thread(s)", name, k, e, threads)
					}
				}
			}
		}
	}
}
