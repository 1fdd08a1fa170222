package graph

import (
	"context"
	"runtime"
	"sync"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/tensor"
	"google.golang.org/protobuf/proto"
)

func TestSharedThreads(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		active int64
		want   int
	}{
		{0, procs}, {1, procs}, {2, max(1, procs/2)}, {int64(procs) * 4, 1},
	} {
		if got := sharedThreads(tc.active); got != tc.want {
			t.Errorf("sharedThreads(%d) = %d, want %d", tc.active, got, tc.want)
		}
	}
}

// TestActiveRunsBalance checks that every run, failed or not, leaves the
// count of runs under way as it found it, and that concurrent runs see one
// another.
func TestActiveRunsBalance(t *testing.T) {
	m, err := FromProto(identityModel(), "")
	if err != nil {
		t.Fatal(err)
	}
	before := activeRuns.Load()
	x := tensor.MustFromSlice([]float32{1, 2})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			in := map[string]tensor.Value{"x": x}
			if i%2 == 1 {
				in = nil // a failed run
			}
			m.Run(context.Background(), in, &RunOptions{Threads: i % 3})
		})
	}
	wg.Wait()
	if got := activeRuns.Load(); got != before {
		t.Fatalf("activeRuns = %d after the runs, %d before", got, before)
	}
}

// identityModel is y = Identity(x), x a float tensor of any shape.
func identityModel() *pb.ModelProto {
	s := proto.String
	tt := &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{ElemType: proto.Int32(int32(tensor.Float))}}}
	return &pb.ModelProto{
		IrVersion:   proto.Int64(8),
		OpsetImport: []*pb.OperatorSetIdProto{{Domain: s(""), Version: proto.Int64(13)}},
		Graph: &pb.GraphProto{
			Name:   s("identity"),
			Node:   []*pb.NodeProto{{OpType: s("Identity"), Input: []string{"x"}, Output: []string{"y"}}},
			Input:  []*pb.ValueInfoProto{{Name: s("x"), Type: tt}},
			Output: []*pb.ValueInfoProto{{Name: s("y"), Type: tt}},
		},
	}
}
