// Package trees evaluates ensembles of decision trees: the engine of the
// ai.onnx.ml operators TreeEnsemble (version 5), TreeEnsembleRegressor
// and TreeEnsembleClassifier (versions 1 and 3). Each operator turns its
// attributes into an Ensemble (branch nodes, leaves with their votes, one
// root per tree), which Check validates once; Predict then walks every
// tree for every row and aggregates the votes per target (the post-transforms
// that follow are ops/internal/mlpost's).
//
// Rows come in as float64 (every input type the operators allow converts
// exactly, int64 beyond 2^53 aside) and scores are accumulated in float64,
// in tree order.
//
// It never allocates beyond what its caller passes and a per-call
// accumulator of one row of targets per worker (the callers charge the
// rows they convert), never writes into its inputs, and never loops: Check
// refuses a tree whose branches come back to a node they left.
package trees

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Mode is how a branch node compares a feature with its value.
type Mode uint8

// The comparisons of the ONNX tree operators, in TreeEnsemble's numbering.
const (
	LEQ    Mode = iota // x <= value
	LT                 // x < value
	GTE                // x >= value
	GT                 // x > value
	EQ                 // x == value
	NEQ                // x != value
	Member             // x is one of Set
)

// Node is a branch node. True and False are where the comparison leads:
// a node index when >= 0, the leaf ^True (or ^False) when negative.
type Node struct {
	Feature     int
	Mode        Mode
	Value       float64
	Set         []float64 // Member's values
	MissingTrue bool      // a NaN feature goes to True
	True, False int32
}

// Vote adds Weight to target Target's score.
type Vote struct {
	Target int
	Weight float64
}

// Aggregate is how the votes of the trees combine into a target's score.
type Aggregate uint8

// The aggregate functions.
const (
	Sum Aggregate = iota
	Average
	Min
	Max
)

// Ensemble is a set of trees over rows of Features values.
type Ensemble struct {
	Nodes     []Node
	Leaves    [][]Vote // each leaf's votes
	Roots     []int32  // each tree's root, a node index or a leaf ^index
	Targets   int
	Features  int
	Aggregate Aggregate
	// Base is added to each target's score (nil for none).
	Base []float64
}

// ErrInvalid is wrapped by Check's errors.
var ErrInvalid = errors.New("invalid tree ensemble")

// Check validates the ensemble: every child and root names a node or a
// leaf, every feature is below Features, every vote's target below
// Targets, Base has one value per target, and no tree walks in a circle.
func (e *Ensemble) Check() error {
	// what is formatted only for an error: a million nodes must not
	// format two million messages on the way to none.
	ref := func(r int32, what string, args ...any) error {
		if r >= 0 && int(r) >= len(e.Nodes) || r < 0 && int(^r) >= len(e.Leaves) {
			return fmt.Errorf("%w: %s leads to %s, of which there are %d", ErrInvalid, fmt.Sprintf(what, args...), e.describe(r), e.count(r))
		}
		return nil
	}
	for i, n := range e.Nodes {
		if n.Feature < 0 || n.Feature >= e.Features {
			return fmt.Errorf("%w: node %d reads feature %d of %d", ErrInvalid, i, n.Feature, e.Features)
		}
		if n.Mode > Member {
			return fmt.Errorf("%w: node %d has mode %d", ErrInvalid, i, n.Mode)
		}
		if err := ref(n.True, "node %d's true branch", i); err != nil {
			return err
		}
		if err := ref(n.False, "node %d's false branch", i); err != nil {
			return err
		}
	}
	for i, r := range e.Roots {
		if err := ref(r, "tree %d's root", i); err != nil {
			return err
		}
	}
	for i, l := range e.Leaves {
		for _, v := range l {
			if v.Target < 0 || v.Target >= e.Targets {
				return fmt.Errorf("%w: leaf %d votes for target %d of %d", ErrInvalid, i, v.Target, e.Targets)
			}
		}
	}
	if e.Base != nil && len(e.Base) != e.Targets {
		return fmt.Errorf("%w: %d base values for %d targets", ErrInvalid, len(e.Base), e.Targets)
	}
	// Depth-first from every node, iteratively: grey nodes are on the
	// current path, and meeting one again is a circle.
	const white, grey, black = 0, 1, 2
	color := make([]uint8, len(e.Nodes))
	type frame struct {
		node  int32
		child int
	}
	var stack []frame
	for start := range e.Nodes {
		if color[start] != white {
			continue
		}
		stack = append(stack[:0], frame{int32(start), 0})
		color[start] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.child == 2 {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			next := e.Nodes[top.node].True
			if top.child == 1 {
				next = e.Nodes[top.node].False
			}
			top.child++
			if next < 0 {
				continue
			}
			switch color[next] {
			case grey:
				return fmt.Errorf("%w: the branches through node %d come back to it", ErrInvalid, next)
			case white:
				color[next] = grey
				stack = append(stack, frame{next, 0})
			}
		}
	}
	return nil
}

func (e *Ensemble) describe(r int32) string {
	if r >= 0 {
		return fmt.Sprintf("node %d", r)
	}
	return fmt.Sprintf("leaf %d", ^r)
}

func (e *Ensemble) count(r int32) int {
	if r >= 0 {
		return len(e.Nodes)
	}
	return len(e.Leaves)
}

// Leaf returns the leaf tree t reaches for row x: a walk of at most
// len(Nodes) steps, since Check refused circles.
func (e *Ensemble) Leaf(t int, x []float64) int {
	at := e.Roots[t]
	for at >= 0 {
		n := &e.Nodes[at]
		v := x[n.Feature]
		var yes bool
		switch n.Mode {
		case LEQ:
			yes = v <= n.Value
		case LT:
			yes = v < n.Value
		case GTE:
			yes = v >= n.Value
		case GT:
			yes = v > n.Value
		case EQ:
			yes = v == n.Value
		case NEQ:
			yes = v != n.Value
		default:
			for _, s := range n.Set {
				if v == s {
					yes = true
					break
				}
			}
		}
		if n.MissingTrue && math.IsNaN(v) {
			yes = true
		}
		if yes {
			at = n.True
		} else {
			at = n.False
		}
	}
	return int(^at)
}

// Predict writes the scores of rows of x (rows*Features values) into out
// (rows*Targets values): per target, the Aggregate of the votes the
// leaves each tree reaches give it (Sum: their sum; Average: the sum over
// the number of trees; Min and Max: the least or greatest vote, 0 when no
// vote reached the target), plus Base. It looks at ctx every 64 rows.
func (e *Ensemble) Predict(ctx context.Context, x, out []float64) error {
	return e.PredictReached(ctx, x, out, nil)
}

// PredictReached is Predict that also records, when reached is not nil
// (rows*Targets values), whether any vote reached each target of each
// row: TreeEnsembleClassifier's rules tell a class no tree voted for from
// one whose votes summed to 0.
func (e *Ensemble) PredictReached(ctx context.Context, x, out []float64, reached []bool) error {
	rows := 0
	if e.Features > 0 {
		rows = len(x) / e.Features
	} else if e.Targets > 0 {
		rows = len(out) / e.Targets
	}
	seen := make([]bool, e.Targets)
	for r := range rows {
		if r%64 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		row := x[r*e.Features : (r+1)*e.Features]
		score := out[r*e.Targets : (r+1)*e.Targets]
		clear(score)
		clear(seen)
		for t := range e.Roots {
			for _, v := range e.Leaves[e.Leaf(t, row)] {
				switch {
				case e.Aggregate == Sum || e.Aggregate == Average:
					score[v.Target] += v.Weight
				case !seen[v.Target]:
					score[v.Target] = v.Weight
				case e.Aggregate == Min:
					score[v.Target] = math.Min(score[v.Target], v.Weight)
				default:
					score[v.Target] = math.Max(score[v.Target], v.Weight)
				}
				seen[v.Target] = true
			}
		}
		if reached != nil {
			copy(reached[r*e.Targets:(r+1)*e.Targets], seen)
		}
		for j := range score {
			if e.Aggregate == Average && len(e.Roots) > 0 {
				score[j] /= float64(len(e.Roots))
			}
			if e.Base != nil {
				score[j] += e.Base[j]
			}
		}
	}
	return nil
}
