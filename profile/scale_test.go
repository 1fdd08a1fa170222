package profile

import (
	"strconv"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

// identityChain is a model of n Identity nodes in a chain on a [1, 4]
// float: each node has a finding (the profile leaves Identity out), the
// case that made the check quadratic (a scan of every finding so far for
// each node).
func identityChain(n int) *pb.ModelProto {
	value := func(i int) string { return "v" + strconv.Itoa(i) }
	typed := func(name string) *pb.ValueInfoProto {
		shape := &pb.TensorShapeProto{}
		for _, d := range []int64{1, 4} {
			shape.Dim = append(shape.Dim, &pb.TensorShapeProto_Dimension{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: d}})
		}
		return &pb.ValueInfoProto{Name: proto.String(name), Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{
			TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(1), Shape: shape}}}}
	}
	nodes := make([]*pb.NodeProto, n)
	for i := range nodes {
		nodes[i] = &pb.NodeProto{OpType: proto.String("Identity"), Name: proto.String("n" + strconv.Itoa(i)),
			Input: []string{value(i)}, Output: []string{value(i + 1)}}
	}
	return &pb.ModelProto{IrVersion: proto.Int64(8), OpsetImport: []*pb.OperatorSetIdProto{{Domain: proto.String(""), Version: proto.Int64(14)}},
		Graph: &pb.GraphProto{Name: proto.String("chain"), Node: nodes, Input: []*pb.ValueInfoProto{typed(value(0))},
			Output: []*pb.ValueInfoProto{typed(value(n))}}}
}

// The check's time grows with the model's size, not with its square: a
// graph 16 times larger takes at most 60 times as long (linear is 16, and
// the collector's work on a larger heap makes it 20 to 40 on a busy
// machine; the quadratic pass this test was written against made it about
// 180, and 80 s of a check of 200,000 nodes). The best of three runs of
// each size is taken, so that a busy machine slows both alike.
func TestCheckScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("checks a graph of 64,000 nodes")
	}
	best := func(n int) time.Duration {
		m := identityChain(n)
		d := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			rep := CheckProto(m, "")
			d = min(d, time.Since(start))
			if len(rep.Findings) != n {
				t.Fatalf("%d nodes: %d findings, want one per node", n, len(rep.Findings))
			}
		}
		return d
	}
	small, large := best(4000), best(64000)
	t.Logf("4,000 nodes: %v; 64,000 nodes: %v (%.1fx)", small, large, float64(large)/float64(small))
	if large > 60*small {
		t.Errorf("64,000 nodes took %v, %.0f times the %v of 4,000: the check is quadratic somewhere", large, float64(large)/float64(small), small)
	}
}
