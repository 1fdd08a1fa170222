package onnx

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// Ten million empty NodeProto messages, 20 MB, which decoded to 2 GB
// within the estimate and ran out of memory in the loader: the
// estimate counts each message's cost beyond its struct, so the default
// cap refuses them from the bytes alone.
func TestDecodeRefusesMillionsOfEmptyNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 20 MB file; skipped under -short")
	}
	const nodes = 10_000_000
	graph := make([]byte, 0, 2*nodes)
	for range nodes {
		graph = append(graph, 0x0a, 0x00) // node (field 1), empty
	}
	model := []byte{0x08, 0x08, 0x3a} // ir_version 8, graph (field 7)
	model = appendVarint(model, len(graph))
	model = append(model, graph...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := DecodeModelWith(model, nil)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("10M empty nodes under the default cap: %v, want ErrTooLarge", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing allocated %d bytes", grew)
	}
	if !strings.Contains(err.Error(), "limit of 2147483647 bytes") {
		t.Errorf("the message names another limit: %v", err)
	}
}

// A refusal from deep inside nested messages names the cap itself, not
// what the enclosing messages left of it ("limit of 87 bytes").
func TestDecodeRefusalNamesTheWholeLimit(t *testing.T) {
	const entries = 1 << 12
	inner := []byte{}
	for range entries {
		inner = append(inner, 0x2a, 0x00) // initializer (field 5), empty
	}
	// A node (field 1 of the graph) whose attribute (field 5) holds a
	// graph (field 6) of empty initializers.
	attr := append([]byte{0x32}, appendVarint(nil, len(inner))...)
	attr = append(attr, inner...)
	node := append([]byte{0x2a}, appendVarint(nil, len(attr))...)
	node = append(node, attr...)
	graph := append([]byte{0x0a}, appendVarint(nil, len(node))...)
	graph = append(graph, node...)
	model := append([]byte{0x08, 0x08, 0x3a}, appendVarint(nil, len(graph))...)
	model = append(model, graph...)
	_, err := DecodeModelWith(model, &Limits{MaxModelBytes: 100000})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "limit of 100000 bytes") {
		t.Errorf("nested entries under a cap of 100000: %v, want ErrTooLarge naming that limit", err)
	}
}
