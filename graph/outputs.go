package graph

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// A run that asks for values of its own (RunOptions.Outputs) runs only the
// nodes those values depend on: a selection, computed once per list of
// names and kept by the model.

// selection is the part of the model a list of wanted values needs.
type selection struct {
	names []string
	index map[string]int // position of each of names
	slots []int          // the slot of each name
	steps []int          // positions in Model.steps of the nodes to run, in order
	// release lists, for each of steps, the slots to let go after it:
	// planReleases over the selected steps, the wanted values kept.
	release [][]int
	// inputs are the graph inputs the selected nodes read or that are
	// wanted: only those must be given.
	inputs []ValueInfo
}

// maxSelections bounds the selections a model keeps: a caller that asks
// for ever new lists gets each computed again rather than a model that
// grows without end.
const maxSelections = 64

type selections struct {
	mu   sync.Mutex
	byID map[string]*selection
}

// ValueNames returns the names of the values of the model's graph that a
// run can return (RunOptions.Outputs): its inputs, then every node
// output in the order the nodes run. Initializers can be asked for too,
// but are not listed. Values inside subgraphs (If, Loop and Scan bodies)
// cannot.
func (m *Model) ValueNames() []string {
	if m == nil {
		return nil
	}
	byslot := make(map[int]string, len(m.valueSlots))
	for name, s := range m.valueSlots {
		byslot[s] = name
	}
	var names []string
	for _, in := range m.Inputs() {
		names = append(names, in.Name)
	}
	for i := range m.steps {
		for _, s := range m.steps[i].out {
			if s >= 0 {
				names = append(names, byslot[s])
			}
		}
	}
	return names
}

// selectValues returns the selection of names, from the model's cache when
// it was asked for before.
func (m *Model) selectValues(names []string) (*selection, error) {
	id := strings.Join(names, "\x00")
	m.selected.mu.Lock()
	sel := m.selected.byID[id]
	m.selected.mu.Unlock()
	if sel != nil {
		return sel, nil
	}
	sel, err := m.newSelection(names)
	if err != nil {
		return nil, err
	}
	m.selected.mu.Lock()
	if m.selected.byID == nil {
		m.selected.byID = map[string]*selection{}
	}
	if len(m.selected.byID) < maxSelections {
		m.selected.byID[id] = sel
	}
	m.selected.mu.Unlock()
	return sel, nil
}

func (m *Model) newSelection(names []string) (*selection, error) {
	sel := &selection{names: slices.Clone(names), index: outputIndex(names)}
	wanted := map[int]bool{}
	seen := map[string]bool{}
	for _, name := range names {
		s, ok := m.valueSlots[name]
		if !ok {
			return nil, fmt.Errorf("%w: the model has no value %q%s", ErrInvalidInput, name, m.closestNames(name))
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: value %q is asked for twice", ErrInvalidInput, name)
		}
		seen[name] = true
		sel.slots = append(sel.slots, s)
		wanted[s] = true
	}
	// Backwards through the steps, which run producers first: a step is
	// needed when a needed value is among its outputs.
	needed := map[int]bool{}
	for s := range wanted {
		needed[s] = true
	}
	var picked []int
	for pos := len(m.steps) - 1; pos >= 0; pos-- {
		st := &m.steps[pos]
		if !slices.ContainsFunc(st.out, func(s int) bool { return s >= 0 && needed[s] }) {
			continue
		}
		picked = append(picked, pos)
		for _, s := range st.in {
			if s >= 0 {
				needed[s] = true
			}
		}
		for _, s := range st.implicit {
			needed[s] = true
		}
	}
	slices.Reverse(picked)
	sel.steps = picked
	for _, in := range m.inputs {
		if needed[m.inputSlots[in.Name]] {
			sel.inputs = append(sel.inputs, in)
		}
	}

	// The release lists of the selected steps, computed on copies so that
	// the model's own stay as they are.
	steps := make([]step, len(picked))
	for i, pos := range picked {
		st := m.steps[pos]
		st.release = nil
		steps[i] = st
	}
	kept := map[int]bool{}
	for s := range wanted {
		kept[s] = true
	}
	for _, s := range m.inputSlots {
		kept[s] = true
	}
	for _, c := range m.consts {
		kept[c.slot] = true
	}
	planReleases(steps, func(s int) bool { return !kept[s] }, m.numSlots)
	sel.release = make([][]int, len(steps))
	for i := range steps {
		sel.release[i] = steps[i].release
	}
	return sel, nil
}

// closestNames suggests the values whose names are nearest to name, as
// ", closest: "a", "b"", or "" when none is near.
func (m *Model) closestNames(name string) string {
	const most = 3
	type near struct {
		name string
		dist int
	}
	var best []near
	limit := max(2, len(name)/3) // farther is no suggestion
	checked := 0
	for _, cand := range m.ValueNames() {
		if checked++; checked > 1_000_000 {
			break // a bounded search in a huge graph
		}
		if d := len(cand) - len(name); d > limit || -d > limit {
			continue
		}
		d := editDistance(name, cand, limit)
		if d > limit {
			continue
		}
		best = append(best, near{cand, d})
		slices.SortStableFunc(best, func(a, b near) int { return a.dist - b.dist })
		if len(best) > most {
			best = best[:most]
		}
	}
	if len(best) == 0 {
		return ""
	}
	quoted := make([]string, len(best))
	for i, b := range best {
		quoted[i] = fmt.Sprintf("%q", b.name)
	}
	return "; closest: " + strings.Join(quoted, ", ")
}

// editDistance is the Levenshtein distance of a and b, or limit+1 once it
// is known to be larger than limit.
func editDistance(a, b string, limit int) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		least := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			least = min(least, cur[j])
		}
		if least > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
