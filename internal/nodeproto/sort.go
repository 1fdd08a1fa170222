package nodeproto

import (
	"fmt"
	"strings"

	"github.com/onnxshape/onnxshape/onnx/pb"
)

// Sort returns the node indices in an order where every node comes
// after the producers of its inputs, keeping the file's order where it
// already is one; producer maps each value name to the index of the node
// that outputs it. A cycle is an error naming the nodes on it, in the order
// of the data, with the order of the nodes that depend on no cycle.
func Sort(nodes []*pb.NodeProto, producer map[string]int) ([]int, error) {
	return SortWith(nodes, producer, nil)
}

// SortWith is Sort where node i also reads the values named in
// implicit[i] (implicit may be nil or shorter than nodes): the values its
// subgraphs read from the graph by name, which its inputs do not list.
func SortWith(nodes []*pb.NodeProto, producer map[string]int, implicit [][]string) ([]int, error) {
	reads := func(i int) []string {
		if i < len(implicit) && len(implicit[i]) > 0 {
			return append(append([]string{}, nodes[i].GetInput()...), implicit[i]...)
		}
		return nodes[i].GetInput()
	}
	// The edges producer -> consumer, each pair once, then the consumers
	// of node p as consumers[first[p]:first[p+1]]: two flat slices rather
	// than a slice per node.
	waiting := make([]int, len(nodes))    // producers not yet run, per node
	lastReader := make([]int, len(nodes)) // the last node counted as reading each node, +1
	first := make([]int, len(nodes)+1)
	var edges [][2]int
	for i := range nodes {
		for _, name := range reads(i) {
			if p, ok := producer[name]; ok && name != "" && lastReader[p] != i+1 {
				lastReader[p] = i + 1
				waiting[i]++
				first[p+1]++
				edges = append(edges, [2]int{p, i})
			}
		}
	}
	for p := range nodes {
		first[p+1] += first[p]
	}
	consumers := make([]int, len(edges))
	next := append([]int{}, first[:len(nodes)]...)
	for _, e := range edges {
		consumers[next[e[0]]] = e[1]
		next[e[0]]++
	}
	// ready is a min-heap of node indices: the next node to run is the
	// first in the file of those whose producers have all run, in
	// O(log n) per node.
	var ready minHeap
	for i := range nodes {
		if waiting[i] == 0 {
			ready.push(i)
		}
	}
	order := make([]int, 0, len(nodes))
	for len(ready) > 0 {
		i := ready.pop()
		order = append(order, i)
		for _, c := range consumers[first[i]:first[i+1]] {
			if waiting[c]--; waiting[c] == 0 {
				ready.push(c)
			}
		}
	}
	if len(order) == len(nodes) {
		return order, nil
	}
	// Every node left waits on another node left: walking from one to a
	// producer it waits on must come back to a node already visited.
	start := -1
	for i := range nodes {
		if waiting[i] > 0 {
			start = i
			break
		}
	}
	visited := map[int]int{} // node -> position on the path
	var path []int
	for i := start; ; {
		if at, ok := visited[i]; ok {
			path = path[at:]
			break
		}
		visited[i] = len(path)
		path = append(path, i)
		for _, name := range reads(i) {
			if p, ok := producer[name]; ok && name != "" && waiting[p] > 0 {
				i = p
				break
			}
		}
	}
	// path follows the data backwards; name the nodes in data order,
	// starting from the one first in the file.
	earliest := 0
	for k, i := range path {
		if i < path[earliest] {
			earliest = k
		}
	}
	at := func(k int) string { // the k-th node of the cycle in data order
		i := path[(earliest-k+len(path))%len(path)]
		return Describe(nodes[i], i)
	}
	// A long cycle is named by its first and last nodes: the error stays
	// one short line whatever the graph's size.
	names := make([]string, 0, maxCycleNames+1)
	if len(path) <= maxCycleNames {
		for k := range path {
			names = append(names, at(k))
		}
	} else {
		for k := range maxCycleNames - 1 {
			names = append(names, at(k))
		}
		names = append(names, fmt.Sprintf("... (%d nodes more)", len(path)-maxCycleNames), at(len(path)-1))
	}
	return order, fmt.Errorf("the graph has a cycle: %s -> %s", strings.Join(names, " -> "), names[0])
}

// maxCycleNames is the most nodes a cycle's error names.
const maxCycleNames = 6

// minHeap is a binary min-heap of ints.
type minHeap []int

func (h *minHeap) push(x int) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		parent := (i - 1) / 2
		if a[parent] <= a[i] {
			break
		}
		a[parent], a[i] = a[i], a[parent]
		i = parent
	}
}

func (h *minHeap) pop() int {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(a) && a[l] < a[least] {
			least = l
		}
		if r < len(a) && a[r] < a[least] {
			least = r
		}
		if least == i {
			break
		}
		a[i], a[least] = a[least], a[i]
		i = least
	}
	*h = a
	return top
}

// Describe names node i of a graph for an error: by its name, or by its
// index when it has none, with its operator.
func Describe(np *pb.NodeProto, i int) string {
	if np.GetName() != "" {
		return fmt.Sprintf("node %q (%s)", np.GetName(), np.GetOpType())
	}
	return fmt.Sprintf("node #%d (%s)", i, np.GetOpType())
}
