package reference_test

// Refusals reached by breaking a valid node one way at a time. For each
// operator with a generator of random valid nodes (engines_test.go and the
// files that add to it), the first node the reference engine runs is
// taken, and then run again with
//   - each attribute replaced by one of another type,
//   - each input left out, and each replaced by a sequence,
//   - a per-tensor cap of 16 bytes,
//   - the run's budget refusing its k-th charge, for every k up to the
//     number of charges the kernel makes (the error branch of every
//     allocation on the node's path),
//   - a cancelled run.
// Every result must be the kernel's outputs or an *ops.Error naming the
// operator and its version (a budget's refusal [size], a cancellation
// [cancelled]), never a panic; and the exact results are kept in
// testdata/mutations.golden, so that a changed refusal branch fails here.
// After a deliberate change, and when an operator's generator changes,
// refresh it with
//
//	go test ./reference -run TestReferenceMutations -update-mutations
//
// and read the diff. Operators the file does not list are skipped (their
// tests are their own until they are added with -update-mutations).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/onnxshape/onnxshape/internal/runenv"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/reference"
	"github.com/onnxshape/onnxshape/tensor"
)

// mutationFindings are the mutations whose run shows a defect of the
// kernel (a panic or a loop that does not stop), reported to be fixed in
// reference/ and skipped here until then.
var mutationFindings = map[string]string{
	// none open: the two it held (TfIdfVectorizer's unbounded gram
	// lengths, GridSample's empty image) are fixed.
}

var updateMutations = flag.Bool("update-mutations", false, "rewrite testdata/mutations.golden")

const mutationsGolden = "testdata/mutations.golden"

// mutationOptions returns the Options of one run: a per-tensor cap, and a
// budget that refuses its failAt-th charge and after (never when 0).
func mutationOptions(ctx context.Context, maxBytes int64, failAt int, charges *int) *ops.Options {
	opt := ops.NewOptions(ops.WithMaxTensorBytes(maxBytes))
	runenv.Bind(opt, runenv.Env{Ctx: ctx, Charge: func(int64) error {
		*charges++
		if failAt > 0 && *charges >= failAt {
			return ops.ErrLimit
		}
		return nil
	}})
	return opt
}

// wrongType is an attribute of another type than a.
func wrongType(a ops.Attribute) ops.Attribute {
	if a.Type == ops.AttrString {
		return ops.Attribute{Type: ops.AttrInt, Int: 1}
	}
	return ops.Attribute{Type: ops.AttrString, String: "x"}
}

// validNode draws nodes from gen until the reference engine runs one.
func validNode(t *testing.T, name string, gen func(*rand.Rand) (*ops.Node, []tensor.Value)) (*ops.Node, []tensor.Value, bool) {
	r := rand.New(rand.NewPCG(27, uint64(len(name))))
	var last error
	for range 200 {
		n, in := gen(r)
		s, err := ops.Lookup(n.Domain, n.OpType, max(n.Version, 1))
		if err != nil {
			if s, err = ops.Lookup(n.Domain, n.OpType, 25); err != nil {
				return nil, nil, false
			}
		}
		n.Version = s.Since
		if n.NumOutputs == 0 {
			n.NumOutputs = 1
		}
		k, ok := reference.Kernel(n.Domain, n.OpType, n.Version)
		if !ok {
			return nil, nil, false
		}
		var charges int
		_, err = k(mutationOptions(context.Background(), 1<<22, 0, &charges), n, in)
		if err == nil {
			return n, in, true
		}
		last = err
	}
	t.Logf("%s: %v", name, last)
	return nil, nil, false
}

func TestReferenceMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every generator's node some hundred times")
	}
	want := map[string][]string{}
	if b, err := os.ReadFile(mutationsGolden); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			op, _, _ := strings.Cut(line, " ")
			want[op] = append(want[op], line)
		}
	} else if !*updateMutations {
		t.Fatal(err)
	}
	var names []string
	seeds := map[string]func(*rand.Rand) (*ops.Node, []tensor.Value){}
	for name, gen := range generators {
		seeds[name] = gen
	}
	for name, gen := range mutationSeeds() {
		if _, ok := seeds[name]; ok {
			name += "#1" // a generator's operator: the seed adds a node
		}
		seeds[name] = gen
	}
	for name := range seeds {
		names = append(names, name)
	}
	sort.Strings(names)
	var golden []string
	cancelledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range names {
		if _, ok := want[name]; !ok && !*updateMutations {
			continue
		}
		n, in, ok := validNode(t, name, seeds[name])
		if !ok {
			t.Logf("%s: no valid node drawn", name)
			continue
		}
		k, _ := reference.Kernel(n.Domain, n.OpType, n.Version)
		var got []string
		run := func(what string, n *ops.Node, in []tensor.Value, opt *ops.Options, rule string) bool {
			if why, ok := mutationFindings[name+" "+what]; ok {
				t.Logf("%s %s: skipped, %s", name, what, why)
				return false
			}
			type kernelResult struct {
				out []tensor.Value
				err error
			}
			done := make(chan kernelResult, 1)
			go func() {
				defer func() {
					if r := recover(); r != nil {
						done <- kernelResult{err: fmt.Errorf("panic: %v", r)}
					}
				}()
				out, err := k(opt, n, in)
				done <- kernelResult{out, err}
			}()
			var out []tensor.Value
			var err error
			select {
			case r := <-done:
				out, err = r.out, r.err
			case <-time.After(time.Minute):
				t.Errorf("%s %s: the kernel has not returned after a minute", name, what)
				return false
			}
			result := "ok"
			if err != nil {
				result = err.Error()
				var e *ops.Error
				if !errors.As(err, &e) || e.Op != n.OpType || e.Version != n.Version || (rule != "" && e.Rule != rule) || !noOutputs(out) {
					t.Errorf("%s-%d %s: got %v (%d outputs), want an *ops.Error of %s-%d [%s]", n.OpType, n.Version, what, err, len(out), n.OpType, n.Version, rule)
				}
			}
			got = append(got, fmt.Sprintf("%s %s: %s", name, what, strings.ReplaceAll(result, "\n", " ")))
			return err == nil
		}
		attrs := make([]string, 0, len(n.Attrs))
		for a := range n.Attrs {
			attrs = append(attrs, a)
		}
		sort.Strings(attrs)
		for _, a := range attrs {
			m := *n
			m.Attrs = map[string]ops.Attribute{}
			for k, v := range n.Attrs {
				m.Attrs[k] = v
			}
			m.Attrs[a] = wrongType(n.Attrs[a])
			var charges int
			run("attribute "+a+" retyped", &m, in, mutationOptions(context.Background(), 1<<22, 0, &charges), "")
		}
		for i := range in {
			for _, v := range []tensor.Value{nil, &tensor.Sequence{ElemType: tensor.Float}} {
				mut := slices.Clone(in)
				mut[i] = v
				what := fmt.Sprintf("input %d left out", i)
				if v != nil {
					what = fmt.Sprintf("input %d a sequence", i)
				}
				var charges int
				run(what, n, mut, mutationOptions(context.Background(), 1<<22, 0, &charges), "")
			}
		}
		for _, a := range attrs {
			for i, v := range badValues(n.Attrs[a]) {
				m := *n
				m.Attrs = map[string]ops.Attribute{}
				for k, v := range n.Attrs {
					m.Attrs[k] = v
				}
				m.Attrs[a] = v
				var charges int
				run(fmt.Sprintf("attribute %s bad value %d", a, i), &m, in, mutationOptions(context.Background(), 1<<22, 0, &charges), "")
			}
		}
		for i, v := range in {
			for _, w := range badInputs(v) {
				mut := slices.Clone(in)
				mut[i] = w.v
				var charges int
				run(fmt.Sprintf("input %d %s", i, w.what), n, mut, mutationOptions(context.Background(), 1<<22, 0, &charges), "")
			}
		}
		var charges int
		run("under SONNX", n, in, ops.NewOptions(ops.WithProfile(ops.ProfileSONNX), ops.WithMaxTensorBytes(1<<22)), "")
		run("tensor cap 16 bytes", n, in, mutationOptions(context.Background(), 16, 0, &charges), "")
		charges = 0
		run("cancelled", n, in, mutationOptions(cancelledCtx, 1<<22, 0, &charges), "cancelled")
		for at := 1; at <= 400; at++ {
			charges = 0
			if run(fmt.Sprintf("charge %d refused", at), n, in, mutationOptions(context.Background(), 1<<22, at, &charges), "size") {
				break
			}
		}
		golden = append(golden, got...)
		if !*updateMutations && !slices.Equal(got, want[name]) {
			t.Errorf("%s: the refusals changed (-update-mutations to accept):\n%s", name, lineDiff(want[name], got))
		}
	}
	if *updateMutations {
		if err := os.MkdirAll(filepath.Dir(mutationsGolden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mutationsGolden, []byte(strings.Join(golden, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got []string) string {
	var b strings.Builder
	for _, l := range want {
		if !slices.Contains(got, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range got {
		if !slices.Contains(want, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// noOutputs reports whether out holds no value: nil, or (Identity's way
// beside an error) only nil tensors.
func noOutputs(out []tensor.Value) bool {
	for _, v := range out {
		if t, ok := v.(*tensor.Tensor); !ok || t != nil {
			return false
		}
	}
	return true
}

// badValues are values of attribute a's type that a kernel should refuse
// or handle: negative, huge, empty, longer, unknown.
func badValues(a ops.Attribute) []ops.Attribute {
	switch a.Type {
	case ops.AttrInt:
		return []ops.Attribute{{Type: ops.AttrInt, Int: -1}, {Type: ops.AttrInt, Int: 1 << 40}, {Type: ops.AttrInt, Int: 2}}
	case ops.AttrInts:
		return []ops.Attribute{{Type: ops.AttrInts}, {Type: ops.AttrInts, Ints: append(slices.Clone(a.Ints), 1<<40)}, {Type: ops.AttrInts, Ints: append(slices.Clone(a.Ints), -1)}}
	case ops.AttrFloat:
		return []ops.Attribute{{Type: ops.AttrFloat, Float: -1}, {Type: ops.AttrFloat, Float: float32(math.NaN())}}
	case ops.AttrFloats:
		return []ops.Attribute{{Type: ops.AttrFloats}, {Type: ops.AttrFloats, Floats: append(slices.Clone(a.Floats), -1)}}
	case ops.AttrString:
		return []ops.Attribute{{Type: ops.AttrString, String: "bogus"}}
	case ops.AttrStrings:
		return []ops.Attribute{{Type: ops.AttrStrings}, {Type: ops.AttrStrings, Strings: append(slices.Clone(a.Strings), "bogus")}}
	case ops.AttrTensor:
		if a.Tensor != nil {
			return []ops.Attribute{{Type: ops.AttrTensor, Tensor: tensor.MustNew(tensor.Complex64, a.Tensor.Shape()...)}, {Type: ops.AttrTensor, Tensor: tensor.MustNew(a.Tensor.DataType(), 0)}}
		}
	}
	return nil
}

// labelled is a mutated input and what the mutation did.
type labelled struct {
	what string
	v    tensor.Value
}

// badInputs are replacements of input v: another element type, a leading
// axis more, a scalar, an empty tensor; for a sequence, a tensor.
func badInputs(v tensor.Value) []labelled {
	x, ok := v.(*tensor.Tensor)
	if !ok || x == nil {
		if v != nil {
			return []labelled{{"a tensor", f32(1)}}
		}
		return nil
	}
	other := tensor.Float
	if x.DataType() == tensor.Float {
		other = tensor.Int32
	}
	out := []labelled{{"retyped", tensor.MustNew(other, x.Shape()...)}, {"with an axis more", tensor.MustNew(x.DataType(), append([]int{1}, x.Shape()...)...)}}
	// Parameters (axes, pads, sizes, counts): every value negative, huge.
	if x.Len() <= 8 && x.Len() > 0 {
		switch x.DataType() {
		case tensor.Int64:
			for _, v := range []int64{-1, 1 << 40} {
				w := make([]int64, x.Len())
				for i := range w {
					w[i] = v
				}
				out = append(out, labelled{fmt.Sprintf("all %d", v), tensor.MustFromSlice(w, x.Shape()...)})
			}
		case tensor.Float:
			for _, v := range []float32{float32(math.NaN()), -1, float32(math.Inf(1))} {
				w := make([]float32, x.Len())
				for i := range w {
					w[i] = v
				}
				out = append(out, labelled{fmt.Sprintf("all %v", v), tensor.MustFromSlice(w, x.Shape()...)})
			}
		}
	}
	if x.Rank() > 0 {
		out = append(out, labelled{"a scalar", tensor.MustNew(x.DataType())}, labelled{"empty", tensor.MustNew(x.DataType(), append(slices.Clone(x.Shape()[:x.Rank()-1]), 0)...)})
	}
	return out
}
