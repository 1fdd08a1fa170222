package graph

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/onnxshape/onnxshape/tensor"
)

// NodeTimes collects where a model's runs spend their time, node by node
// (RunOptions.Times): each run adds the wall time of every node of the
// model's graph it ran, and one to the node's run count. The nodes of an
// If, Loop or Scan body count in the node that runs the body. A NodeTimes
// may be shared by runs under way at once (each run adds its times when it
// ends) and belongs to one model: a run of another model starts it over.
//
// A run that fuses (see LoadOptions.NoFuse) runs the nodes absorbed at load
// inside the node that absorbed them: Nodes reports them under that node
// (NodeTime.Fused), their own pass-through time added to its time.
//
// The timer costs a clock reading before and after each node, nothing when
// RunOptions.Times is nil.
type NodeTimes struct {
	mu    sync.Mutex
	m     *Model
	runs  int64 // runs recorded
	fused int64 // of them, runs that fused
	wall  []time.Duration
	count []int64
	// shapes are each node's input and output shapes as its first timed
	// run saw them ("" until then).
	shapes []string
}

// NodeTime is the time the runs recorded in a NodeTimes spent in one node
// of the model's graph.
type NodeTime struct {
	// Index is the node's position in the model file; Node its name (may
	// be empty), Op its operator type (domain-qualified outside ONNX's).
	Index int
	Node  string
	Op    string
	// Time is the wall time of all the runs of the node (of the nodes it
	// fused, too); Runs the number of runs of the model that ran it.
	Time time.Duration
	Runs int64
	// Shapes are the shapes of the node's inputs and outputs in its first
	// timed run ("1x3x224x224 64x3x7x7 -> 1x64x112x112"; "?" for a value
	// that is not a tensor, "-" for an absent optional input).
	Shapes string
	// Fused names the nodes that this one ran as part of itself in the
	// runs recorded (load-time fusion), as "Op name", in graph order.
	Fused []string
}

// PerRun is the node's mean time per run of the node (0 if it never ran).
func (t NodeTime) PerRun() time.Duration {
	if t.Runs == 0 {
		return 0
	}
	return t.Time / time.Duration(t.Runs)
}

// Runs is the number of runs recorded.
func (t *NodeTimes) Runs() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.runs
}

// Reset forgets the runs recorded.
func (t *NodeTimes) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.m, t.runs, t.fused, t.wall, t.count, t.shapes = nil, 0, 0, nil, nil, nil
}

// Nodes returns the recorded time of each node of the model's graph that
// ran, in graph order. When the runs recorded fused, a node absorbed at
// load is not listed on its own: it is named in the Fused list of the node
// that ran it, which counts its time.
func (t *NodeTimes) Nodes() []NodeTime {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.m
	if m == nil {
		return nil
	}
	into := make([]int, len(m.steps)) // the position of the step that runs step i
	pos := make(map[*step]int, len(m.steps))
	for i := range m.steps {
		pos[&m.steps[i]] = i
	}
	for i := range m.steps {
		into[i] = i
		if t.fused == 0 {
			continue
		}
		// Follow absorptions to the step that runs them all (an activation
		// into a Conv whose BatchNormalization it absorbed first).
		for j, hops := i, 0; m.steps[j].into != nil && hops < len(m.steps); hops++ {
			k, ok := pos[m.steps[j].into]
			if !ok {
				break
			}
			j, into[i] = k, k
		}
	}
	var out []NodeTime
	at := make(map[int]int) // position -> index in out
	for i := range m.steps {
		if into[i] != i {
			continue
		}
		st := &m.steps[i]
		if t.count[i] == 0 {
			continue
		}
		at[i] = len(out)
		out = append(out, NodeTime{Index: st.index, Node: st.node.Name, Op: opName(st.node),
			Time: t.wall[i], Runs: t.count[i], Shapes: t.shapes[i]})
	}
	for i := range m.steps {
		if into[i] == i {
			continue
		}
		k, ok := at[into[i]]
		if !ok {
			continue
		}
		st := &m.steps[i]
		out[k].Time += t.wall[i]
		out[k].Fused = append(out[k].Fused, opName(st.node)+" "+st.node.Name)
	}
	return out
}

// runTimes is a run's own record of its top-level steps, added to the
// NodeTimes when the run ends: one lock per run.
type runTimes struct {
	to     *NodeTimes
	wall   []time.Duration
	ran    []bool
	shapes []bool // the steps whose shapes the NodeTimes still lacks
}

// startTimes prepares r to time its steps into t (nil: no timing).
func (r *runState) startTimes(t *NodeTimes) {
	if t == nil {
		r.times = nil
		return
	}
	n := len(r.m.steps)
	rt := r.timesBuf
	if rt == nil || len(rt.wall) != n {
		rt = &runTimes{wall: make([]time.Duration, n), ran: make([]bool, n), shapes: make([]bool, n)}
		r.timesBuf = rt
	}
	rt.to = t
	t.mu.Lock()
	for i := range rt.shapes {
		rt.shapes[i] = t.m != r.m || t.shapes[i] == ""
	}
	t.mu.Unlock()
	r.times = rt
}

// timedStep is step, timed.
func (r *runState) timedStep(pos int, st *step) error {
	rt := r.times
	var shapes string
	if rt.shapes[pos] {
		shapes = valueShapes(r.vals, st.in)
	}
	start := time.Now()
	err := r.runStep(st, true)
	rt.wall[pos] += time.Since(start)
	rt.ran[pos] = true
	if rt.shapes[pos] && err == nil {
		rt.shapes[pos] = false
		r.times.to.setShape(r.m, pos, shapes+" -> "+valueShapes(r.vals, st.out))
	}
	return err
}

// endTimes adds the run's times to its NodeTimes.
func (r *runState) endTimes() {
	rt := r.times
	if rt == nil {
		return
	}
	r.times = nil
	t := rt.to
	rt.to = nil
	t.mu.Lock()
	t.bind(r.m)
	t.runs++
	if r.fuse {
		t.fused++
	}
	for i, ran := range rt.ran {
		if ran {
			t.wall[i] += rt.wall[i]
			t.count[i]++
		}
	}
	t.mu.Unlock()
	clear(rt.wall)
	clear(rt.ran)
}

// bind makes t m's, starting it over if it was another model's; t.mu held.
func (t *NodeTimes) bind(m *Model) {
	if t.m == m {
		return
	}
	n := len(m.steps)
	t.m, t.runs, t.fused = m, 0, 0
	t.wall, t.count, t.shapes = make([]time.Duration, n), make([]int64, n), make([]string, n)
}

func (t *NodeTimes) setShape(m *Model, pos int, s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bind(m)
	if t.shapes[pos] == "" {
		t.shapes[pos] = s
	}
}

// valueShapes writes the shapes of the values in slots, for NodeTime.Shapes.
func valueShapes(vals []tensor.Value, slots []int) string {
	var b strings.Builder
	for k, s := range slots {
		if k > 0 {
			b.WriteByte(' ')
		}
		if s < 0 {
			b.WriteByte('-')
			continue
		}
		t, ok := vals[s].(*tensor.Tensor)
		if !ok {
			b.WriteByte('?')
			continue
		}
		shape := t.Shape()
		if len(shape) == 0 {
			b.WriteString("scalar")
		}
		for d, n := range shape {
			if d > 0 {
				b.WriteByte('x')
			}
			fmt.Fprint(&b, n)
		}
	}
	return b.String()
}
