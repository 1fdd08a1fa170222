package profile

import (
	"fmt"
	"math"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// What the SONNX texts leave undefined is refused under the profile, never
// chosen (sonnx-notes.md: outside its constraints an operator's behaviour
// is undefined, and an implementation claiming the profile refuses it).
// Each case is a row of docs/sonnx.md citing its source.

// The ids of the undefined cases the profile refuses.
const (
	// ruleDims: every dimension of a data tensor is > 0. The WG's formal
	// (Why3) specifications define tensors with positive dimensions only
	// (formal/*/*.mlw), while the informal texts and ONNX allow 0.
	ruleDims = "DIMS"
	// ruleNaN: MaxPool's input holds no NaN. The WG's maxpool.md defines
	// the maximum with IEEE comparisons, which a NaN makes unordered, and
	// its texts disagree on whether a NaN wins; ONNX says nothing.
	ruleNaN = "NaN"
)

// checkPositiveDims is DIMS on the graph's interface and value_info: a
// declared dimension of 0.
func (c *checker) checkPositiveDims(g *pb.GraphProto) {
	for _, set := range []struct {
		what string
		vis  []*pb.ValueInfoProto
	}{{PlaceInput, g.GetInput()}, {PlaceOutput, g.GetOutput()}, {PlaceValue, g.GetValueInfo()}} {
		for _, vi := range set.vis {
			k := knownFromType(vi.GetType())
			if hasZeroDim(k) {
				c.graphFinding(valuePlace(set.what, vi.GetName()), ruleDims, dimsFix,
					"it is declared %s: a dimension of 0, which the profile leaves undefined", k.describe())
			}
		}
	}
}

const dimsFix = "give every dimension a size of 1 or more (remove the empty tensor from the model)"

// checkOutputDims is DIMS on what a node produces: an output with a
// dimension of 0. Shape's output is exempt: its specification defines the
// empty shape of a start at or past the end.
func (c *checker) checkOutputDims(nc *nodeCheck, outs []*known) {
	if nc.op() == "Shape" {
		return
	}
	for j, k := range outs {
		if hasZeroDim(k) && j < len(nc.np.GetOutput()) {
			nc.finding(ruleDims, fmt.Sprintf("output %d (%q) is %s: a dimension of 0, which the profile leaves undefined", j, nc.np.GetOutput()[j], k.describe()), dimsFix)
			return
		}
	}
}

func hasZeroDim(k *known) bool {
	if k == nil || k.kind != tensorKind || !k.hasRank {
		return false
	}
	for _, d := range k.dims {
		if d == 0 {
			return true
		}
	}
	return false
}

// checkNaN is NaN for MaxPool: a constant X is searched for NaN; an X
// known only at run time leaves the rule undecided, and the kernel refuses
// a NaN when the model runs under the profile.
func (c *checker) checkNaN(nc *nodeCheck) {
	if nc.op() != "MaxPool" || len(nc.in) == 0 || nc.in[0] == nil || c.hasFinding(nc.index) {
		return
	}
	x := nc.in[0]
	switch x.dtype {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16:
	default:
		return // integers hold no NaN
	}
	t, ok := x.value.(*tensor.Tensor)
	if !ok {
		nc.deferRules([]string{ruleNaN}, "X (%q) is %s known only at run time: a NaN in it is refused when the model runs under the profile", nc.np.GetInput()[0], x.describe())
		return
	}
	if holdsNaN(t) {
		nc.finding(ruleNaN, fmt.Sprintf("X (%q) holds a NaN, which the profile leaves undefined for MaxPool", nc.np.GetInput()[0]),
			"remove the NaN from the input (the maximum of a NaN is undefined)")
	}
}

func holdsNaN(t *tensor.Tensor) bool {
	vals, err := t.Float64s()
	if err != nil {
		return false
	}
	for _, v := range vals {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}
