package nodeproto

import (
	"strconv"
	"strings"
	"testing"

	"github.com/onnxshape/onnxshape/onnx/pb"
	"google.golang.org/protobuf/proto"
)

// A cycle of 100,000 nodes is named by six of them: the error stays one
// short line.
func TestSortNamesALongCycleShortly(t *testing.T) {
	const n = 100000
	nodes := make([]*pb.NodeProto, n)
	producer := map[string]int{}
	for i := range nodes {
		out := "v" + strconv.Itoa(i)
		nodes[i] = &pb.NodeProto{OpType: proto.String("Identity"), Input: []string{"v" + strconv.Itoa((i+n-1)%n)}, Output: []string{out}}
		producer[out] = i
	}
	_, err := Sort(nodes, producer)
	if err == nil {
		t.Fatal("no error for a cycle")
	}
	msg := err.Error()
	want := "the graph has a cycle: node #0 (Identity) -> node #1 (Identity) -> node #2 (Identity) -> node #3 (Identity) -> node #4 (Identity) -> ... (99994 nodes more) -> node #99999 (Identity) -> node #0 (Identity)"
	if msg != want {
		t.Errorf("got  %s\nwant %s", msg, want)
	}
	if len(msg) > 1024 || strings.Count(msg, "\n") > 0 {
		t.Errorf("%d bytes", len(msg))
	}
}
