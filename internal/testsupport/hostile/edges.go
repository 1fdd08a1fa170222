package hostile

import (
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
)

// edgeClasses are the cases of issue 29: the commands around the runner,
// the reference engine and the defaults.
func (w *writer) edgeClasses() {
	// plan builds zero-filled inputs: an input declared [2^40 3], or
	// given that shape, is refused before it is made.
	declared := w.model("plan-huge-input.onnx", newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{info("x", tensor.Float, 1<<40, 3)}, "y"))
	symbolic := w.model("plan-any-input.onnx", newModel(13, []*pb.NodeProto{node("Identity", []string{"x"}, []string{"y"})}, nil,
		[]*pb.ValueInfoProto{info("x", tensor.Float)}, "y"))
	const plan = "plan: zero-filled inputs built without a cap"
	w.add(Case{Name: "plan-declared-2^40x3", Class: plan, Args: []string{"plan", declared}})
	w.add(Case{Name: "plan-declared-2^40x3-max-bytes", Class: plan, Args: []string{"plan", declared, "--max-bytes", "1000000"}})
	w.add(Case{Name: "plan-shape-2^40x3", Class: plan, Args: []string{"plan", symbolic, "--shape", "x=1099511627776,3"}})
	w.add(Case{Name: "plan-shape-2^40x3-max-run-bytes", Class: plan,
		Args: []string{"plan", symbolic, "--shape", "x=1099511627776,3", "--max-run-bytes", "1000000"}})
	w.add(Case{Name: "plan-shape-no-cap-max-run-bytes", Class: plan,
		Args: []string{"plan", symbolic, "--shape", "x=100000,3000", "--max-bytes", "-1", "--max-run-bytes", "1000000"}})
}
