package profile

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

// violation is a small model that breaks one rule of Rules and nothing
// else, unless the rule cannot be broken alone: also then lists the other
// rules it must break.
type violation struct {
	model func(t testing.TB) *pb.ModelProto
	also  []string
}

// violations has one case per row of Rules, keyed by Rule.Key.
var violations = map[string]violation{
	"GR1": {model: func(t testing.TB) *pb.ModelProto {
		m := reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, 2}, 0, 3, 2).build()
		values, _ := proto.Clone(m.Graph.Initializer[0]).(*pb.TensorProto)
		values.Name = proto.String("sparse")
		m.Graph.SparseInitializer = []*pb.SparseTensorProto{{Values: values, Indices: values, Dims: []int64{4}}}
		return m
	}},
	"GR2": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.Float, []int64{-1, 3}, []int64{3, 2}, 0, 3, 2).build() // x is [?,3]
	}},
	"GR3": {model: func(t testing.TB) *pb.ModelProto {
		m := reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, 2}, 0, 3, 2).build()
		m.Graph.Output[0].Type = tensorType(tensor.Double, []int64{3, 2}) // Reshape keeps float
		return m
	}},
	"GR4": {model: func(t testing.TB) *pb.ModelProto {
		m := reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, 2}, 0, 3, 2).build()
		m.Graph.Node[0].Attribute = nil // allowzero left to its default
		return m
	}},
	"OPS": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 13).input("x", tensor.Float, 2).ints("repeats", 2).
			node("Tile", names("x", "repeats"), names("y")).output("y", tensor.Float, 4).build()
	}},
	// Neg is in the set and runs in onnxshape, but its SONNX
	// specification is not transcribed: undecided, and refused by Enforce.
	"SPEC": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 13).input("x", tensor.Float, 2, 3).
			node("Neg", names("x"), names("y")).output("y", tensor.Float, 2, 3).build()
	}},
	// QuantizeLinear is in the working group's list, which has no
	// specification of it: undecided, and refused by Enforce.
	"NOSPEC": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 21).input("x", tensor.Float, 2, 3).
			initializer("s", tensor.MustFromSlice([]float32{0.5}, 1)).initializer("z", tensor.MustFromSlice([]uint8{0}, 1)).
			node("QuantizeLinear", names("x", "s", "z"), names("y"), attrInt("axis", 1), attrInt("block_size", 0), attrInt("saturate", 1), attrInt("output_dtype", 2)).
			output("y", tensor.Uint8, 2, 3).build()
	}},
	"TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.Float8E4M3FN, 2, 3).
			node("Transpose", names("x"), names("y"), attrInts("perm", 1, 0)).
			output("y", tensor.Float8E4M3FN, 3, 2).build()
	}},
	"ONNX": {model: func(t testing.TB) *pb.ModelProto {
		m := reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, 2}, 0, 3, 2).build()
		m.Graph.Node[0].Input[1] = "no_such_value"
		return m
	}},

	"DIMS": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.Float, 0, 3).
			node("Transpose", names("x"), names("y"), attrInts("perm", 1, 0)).
			output("y", tensor.Float, 3, 0).build()
	}},
	"MaxPool NaN": {model: func(t testing.TB) *pb.ModelProto {
		x := make([]float32, 16)
		x[5] = float32(math.NaN())
		return newModel(t, 22).initializer("x", tensor.MustFromSlice(x, 1, 1, 4, 4)).
			node("MaxPool", names("x"), names("y"), maxPoolAttrs()...).
			output("y", tensor.Float, 1, 1, 2, 2).build()
	}},
	"VERSION": {model: func(t testing.TB) *pb.ModelProto {
		m := unsqueezeModel(t, []int64{0}, 1, 2, 3)
		m.OpsetImport[0].Version = proto.Int64(13) // Unsqueeze-13, not 25
		return m
	}},

	"Unsqueeze TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.BFloat16, 2, 3).ints("axes", 0).
			node("Unsqueeze", names("x", "axes"), names("y")).output("y", tensor.BFloat16, 1, 2, 3).build()
	}},
	"Unsqueeze A [C1]": {model: func(t testing.TB) *pb.ModelProto { return unsqueezeModel(t, []int64{3}, 2, 3, 1) }},
	"Unsqueeze A [C2]": {model: func(t testing.TB) *pb.ModelProto { return unsqueezeModel(t, []int64{1, -3}, 2, 1, 1, 3) }},
	"Unsqueeze Y [C1]": {model: func(t testing.TB) *pb.ModelProto { return unsqueezeModel(t, []int64{0}, 2, 3, 1) }},
	"Unsqueeze axes":   {model: func(t testing.TB) *pb.ModelProto { return unsqueezeModel(t, []int64{}, 2, 3) }},

	// Concat's own list of types holds every type of the profile and
	// complex: only a type outside the profile breaks [R1].
	"Concat R1": {also: []string{ruleTypes}, model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 13).input("a", tensor.Float8E4M3FN, 2).input("b", tensor.Float8E4M3FN, 2).
			node("Concat", names("a", "b"), names("y"), attrInt("axis", 0)).
			output("y", tensor.Float8E4M3FN, 4).build()
	}},
	"Concat inputs [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 13).node("Concat", nil, names("y"), attrInt("axis", 0)).output("y", tensor.Float, 2).build()
	}},
	"Concat concat_output [C1]": {model: func(t testing.TB) *pb.ModelProto {
		m := concatModel(t, []int64{2, 3}, []int64{2, 3}, tensor.Float, 0, 4, 3)
		m.Graph.Output[0].Type = tensorType(tensor.Double, []int64{4, 3})
		return m
	}},
	"Concat axis [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return concatModel(t, []int64{2, 3}, []int64{2, 3}, tensor.Float, -1, 2, 6)
	}},
	"Concat inputs [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return concatModel(t, []int64{2, 3}, []int64{2, 4}, tensor.Float, 0, 4, 3)
	}},
	"Concat inputs [C3]": {model: func(t testing.TB) *pb.ModelProto {
		return concatModel(t, []int64{2, 3}, []int64{2, 3}, tensor.Double, 0, 4, 3)
	}},

	"Reshape TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.BFloat16, []int64{2, 3}, []int64{3, 2}, 0, 3, 2).build()
	}},
	"Reshape allowzero [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{3, 2}, 2, 3, 2).build()
	}},
	"Reshape allowzero [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.Float, []int64{6}, []int64{6, 0}, 0, 6, 1).build()
	}},
	"Reshape allowzero [C3]": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{-2, 3}, 0, 2, 3).build()
	}},
	"Reshape S [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{-1, -1}, 0, 3, 2).build()
	}},
	"Reshape X [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return reshapeModel(t, tensor.Float, []int64{2, 3}, []int64{4, 2}, 0, 4, 2).build()
	}},

	"Flatten TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.Bool, 2, 3).
			node("Flatten", names("x"), names("y"), attrInt("axis", 1)).
			output("y", tensor.Bool, 2, 3).build()
	}},
	"Flatten axis [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.Float, 2, 3).
			node("Flatten", names("x"), names("y"), attrInt("axis", 3)).
			output("y", tensor.Float, 6, 1).build()
	}},

	"Slice TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 13).input("x", tensor.Complex64, 3, 4).
			ints("starts", 0, 0).ints("ends", 3, 4).ints("axes", 0, 1).ints("steps", 1, 1).
			node("Slice", names("x", "starts", "ends", "axes", "steps"), names("y")).
			output("y", tensor.Complex64, 3, 4).build()
	}},
	"Slice R1": {model: func(t testing.TB) *pb.ModelProto {
		m := sliceModel(t, []int64{0, 0}, []int64{3, 4}, []int64{0, 1}, []int64{1, 1}, 3, 4)
		m.Graph.Node[0].Input[3] = "" // axes left out
		return m
	}},
	"Slice R3": {model: func(t testing.TB) *pb.ModelProto {
		m := sliceModel(t, []int64{0, 0}, []int64{3, 4}, []int64{0, 1}, []int64{1, 1}, 3, 4)
		m.Graph.Node[0].Input = m.Graph.Node[0].Input[:4] // steps left out
		return m
	}},
	"Slice R10": {model: func(t testing.TB) *pb.ModelProto {
		m := sliceModel(t, []int64{0, 0}, []int64{3, 4}, []int64{0, 1}, []int64{1, 1}, 3, 4)
		m.Graph.Initializer[0] = int32Initializer(t, "starts", 0, 0)
		return m
	}},
	"Slice X [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{0}, []int64{2}, []int64{0}, []int64{1}, 2, 4) // axis 1 not listed
	}},
	"Slice ends [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{0, 0}, []int64{5, 4}, []int64{0, 1}, []int64{1, 1}, 3, 4) // end 5 > 3
	}},
	"Slice starts [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{3, 0}, []int64{3, 4}, []int64{0, 1}, []int64{1, 1}, 1, 4) // start 3 > 2
	}},
	"Slice axes [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{0, 0}, []int64{3, 4}, []int64{0, 2}, []int64{1, 1}, 3, 4) // axis 2, rank 2
	}},
	"Slice steps [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{0, 0}, []int64{3, 4}, []int64{0, 1}, []int64{1, 0}, 3, 4)
	}},
	"Slice Y [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{1, 0}, []int64{1, 4}, []int64{0, 1}, []int64{1, 1}, 1, 4) // start = end
	}},
	"Slice X [C3]": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 13).input("x", tensor.Float).
			ints("starts").ints("ends").ints("axes").ints("steps").
			node("Slice", names("x", "starts", "ends", "axes", "steps"), names("y")).
			output("y", tensor.Float).build()
	}},
	"Slice axes [C3]": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{0, 0}, []int64{3, 3}, []int64{0, -2}, []int64{1, 1}, 3, 4) // axis 0 twice
	}},
	"Slice R6": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{2, 0}, []int64{1, 4}, []int64{0, 1}, []int64{1, 1}, 1, 4)
	}},
	"Slice R7": {model: func(t testing.TB) *pb.ModelProto {
		return sliceModel(t, []int64{0, 0}, []int64{2, 4}, []int64{0, 1}, []int64{-1, 1}, 1, 4)
	}},

	"MaxPool R1": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4, 4}, maxPoolAttrs())
	}},
	"MaxPool R2": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, without(maxPoolAttrs(), "dilations"))
	}},
	"MaxPool R3": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrString("auto_pad", "VALID")))
	}},
	"MaxPool R4": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInt("ceil_mode", 1)))
	}},
	"MaxPool R5": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInt("storage_order", 1)))
	}},
	"MaxPool TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.BFloat16, []int64{1, 1, 4, 4}, maxPoolAttrs())
	}},
	"MaxPool dilations [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInts("dilations", 0, 1)))
	}},
	"MaxPool kernel_shape [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInts("kernel_shape", 2, 0)))
	}},
	"MaxPool strides [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInts("strides", 2, -1)))
	}},
	"MaxPool pads [C1]": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInts("pads", 0, 0)))
	}},
	"MaxPool pads": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInts("pads", 0, 0, -1, 0)))
	}},
	"MaxPool pads [C2]": {model: func(t testing.TB) *pb.ModelProto {
		return maxPoolModel(t, tensor.Float, []int64{1, 1, 4, 4}, maxPoolAttrs(attrInts("pads", 2, 0, 0, 0)))
	}},

	"Shape TYPES": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).input("x", tensor.Complex64, 2, 3).
			node("Shape", names("x"), names("y"), attrInt("start", 0), attrInt("end", 2)).
			output("y", tensor.Int64, 2).build()
	}},

	"Constant R1": {model: func(t testing.TB) *pb.ModelProto {
		return newModel(t, 25).node("Constant", nil, names("y"), attrInts("value_ints", 1, 2)).
			output("y", tensor.Int64, 2).build()
	}},
	"Constant R2": {also: []string{ruleGR1, ruleONNX}, model: func(t testing.TB) *pb.ModelProto {
		values := int32Initializer(t, "v", 1)
		sparse := &pb.AttributeProto{Name: proto.String("sparse_value"), Type: pb.AttributeProto_SPARSE_TENSOR.Enum(),
			SparseTensor: &pb.SparseTensorProto{Values: values, Indices: int32Initializer(t, "i", 0), Dims: []int64{2}}}
		return newModel(t, 25).node("Constant", nil, names("y"), sparse).output("y", tensor.Int32, 2).build()
	}},
	"Constant TYPES": {model: func(t testing.TB) *pb.ModelProto {
		b := newModel(t, 25).initializer("v", tensor.MustFromSlice([]bool{true, false}, 2))
		value := b.m.Graph.Initializer[0]
		b.m.Graph.Initializer = nil
		return b.node("Constant", nil, names("y"), &pb.AttributeProto{Name: proto.String("value"), Type: pb.AttributeProto_TENSOR.Enum(), T: value}).
			output("y", tensor.Bool, 2).build()
	}},
}

func int32Initializer(t testing.TB, name string, v ...int32) *pb.TensorProto {
	b := newModel(t, 13).initializer(name, tensor.MustFromSlice(v, len(v)))
	return b.m.Graph.Initializer[0]
}

// findingKey names a finding as Rule.Key names its row.
func findingKey(f Finding) string {
	switch f.Rule {
	case ruleTypes:
		if _, own := specs[f.Op]; own && f.Where.Kind == PlaceNode && f.Where.Within == nil {
			return f.Op + " " + f.Rule
		}
		return f.Rule
	case ruleGR1, ruleGR2, ruleGR3, ruleGR4, ruleOPS, ruleONNX, ruleVersion, ruleDims, ruleModel:
		return f.Rule
	}
	return f.Op + " " + f.Rule
}

func reportKeys(rep *Report) []string {
	seen := map[string]bool{}
	var keys []string
	for _, f := range rep.Findings {
		if k := findingKey(f); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	// SPEC and NOSPEC are never findings: the node is undecided, and
	// Enforce refuses it (TestUnadmittedRefused).
	for _, d := range rep.Deferred {
		for _, id := range []string{ruleSpec, ruleNoSpec} {
			if slices.Contains(d.Rules, id) && !seen[id] {
				seen[id] = true
				keys = append(keys, id)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// TestViolations checks, for every row of Rules, that a model breaking it
// is reported under exactly that id.
func TestViolations(t *testing.T) {
	rows := map[string]bool{}
	for _, r := range Rules {
		rows[r.Key()] = true
		t.Run(strings.ReplaceAll(r.Key(), " ", "_"), func(t *testing.T) {
			v, ok := violations[r.Key()]
			if !ok {
				t.Fatalf("no model violates %q: add one to violations", r.Key())
			}
			rep := CheckProto(v.model(t), "")
			want := append([]string{r.Key()}, v.also...)
			sort.Strings(want)
			if got := reportKeys(rep); strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("reported %q, want %q:\n%s", got, want, rep)
			}
			if rep.Inside() {
				t.Errorf("Inside() is true for a violating model")
			}
			for _, f := range rep.Findings {
				if f.Message == "" || f.Fix == "" || f.Where.Kind == "" {
					t.Errorf("finding without message, fix or place: %+v", f)
				}
			}
		})
	}
	for key := range violations {
		if !rows[key] {
			t.Errorf("violations has a case %q that no row of Rules names", key)
		}
	}
}

// TestInsideModel checks that a model inside the profile passes clean, and
// that every node of it was checked statically.
func TestInsideModel(t *testing.T) {
	rep := CheckProto(insideModel(t), "")
	if !rep.Inside() || len(rep.Deferred) != 0 {
		t.Fatalf("want a clean report, got:\n%s", rep)
	}
	if rep.Nodes != 6 || rep.Checked != 6 {
		t.Errorf("Nodes, Checked = %d, %d; want 6, 6", rep.Nodes, rep.Checked)
	}
	if err := enforce(insideModel(t), ""); err != nil {
		t.Errorf("Enforce: %v", err)
	}
}
