package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/onnxshape/onnxshape/infer"
)

const inferUsage = `usage: onnxshape infer MODEL [--json] [--input-shape NAME=1,3,H,W]...

Prints the element type and shape of every value of MODEL's main graph
(MODEL is a .onnx file or a node-test folder holding model.onnx)
(inputs, initializers, node outputs), without running it: a dimension is a
number or an expression over the symbols of the inputs (N, H*W,
floor((H-1)/2)+1); unk__K names a size only known at run time. Small
integer values whose contents are known (shapes, sizes) follow "=".
Operators onnxshape does not run are followed by their ONNX shape rules.
--input-shape replaces an input's declared shape; a symbol stays symbolic.
Problems (a node that refuses its inputs, a declared type that contradicts
the inferred one, an operator without a rule) follow the values. An If
whose condition is known (a constant, or a rank or shape test computed
from the shapes) is inferred through the branch it takes only; when the
condition is not known, both branches are, and a declared type one of them
contradicts is a "note": a contradiction only if that branch runs.

--json prints {"model", "values": [{"name", "type", "shape"}], "problems"}
with each dimension a number or a string and "shape": null for an unknown
rank.

Exit status (the same for fold): 0, or 1 when a node refuses its inputs or
a declaration is contradicted outside any branch that may not run (an
operator without a rule or a note is no failure); 2 when the model cannot
be read.`

func init() {
	register("infer", "print the type and shape of every value of a model, symbolically (--json)", func(args []string) int {
		return inferMain(args, os.Stdout, os.Stderr)
	})
}

// inputShapeFlags collects the repeated --input-shape flag.
type inputShapeFlags map[string][]graph.Dim

func (f inputShapeFlags) String() string { return fmt.Sprint(map[string][]graph.Dim(f)) }
func (f inputShapeFlags) Set(s string) error {
	name, dims, err := infer.ParseInputShape(s)
	if err != nil {
		return err
	}
	f[name] = dims
	return nil
}

// jsonValue is one value in infer's JSON.
type jsonValue struct {
	Name     string       `json:"name"`
	Type     string       `json:"type"`
	Shape    *[]graph.Dim `json:"shape"`
	Kind     string       `json:"kind,omitempty"`
	Contents []graph.Dim  `json:"contents,omitempty"`
}

type jsonProblem struct {
	Kind  string `json:"kind"`
	Node  string `json:"node,omitempty"`
	Op    string `json:"op,omitempty"`
	Value string `json:"value,omitempty"`
	Msg   string `json:"message"`
	// Branch: a note's If branch, which may not run.
	Branch string `json:"branch,omitempty"`
}

func inferMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("infer")
	asJSON := fs.Bool("json", false, "print the values as JSON")
	shapes := inputShapeFlags{}
	fs.Var(shapes, "input-shape", "an input's shape, as NAME=D1,D2,... (numbers or symbols); repeat for each input")
	fs.Var(shapes, "shape", "the same as --input-shape")
	pos, code, ok := parseCommand(fs, inferUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(stderr, "infer", "give one MODEL, not %d", len(pos))
	}
	path := modelPath(pos[0])
	r, err := infer.File(context.Background(), path, &infer.Options{InputShapes: shapes})
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape infer:", oneLine(err.Error()))
		return 2
	}
	if *asJSON {
		if err := writeInferJSON(stdout, path, r); err != nil {
			fmt.Fprintln(stderr, "onnxshape infer:", oneLine(err.Error()))
			return 2
		}
	} else {
		writeInferText(stdout, r)
	}
	return inferExit(r)
}

// modelPath is path, or the model.onnx inside it when it is a folder (a
// node test).
func modelPath(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, "model.onnx")
	}
	return path
}

// inferExit is the exit status infer and fold share: 1 when a problem
// means the model would fail or contradicts itself (Result.Failed), not
// for a missing rule or a note.
func inferExit(r *infer.Result) int {
	if r.Failed() {
		return 1
	}
	return 0
}

func problemKind(k infer.ProblemKind) string {
	switch k {
	case infer.Conflict:
		return "conflict"
	case infer.NoRule:
		return "no-rule"
	case infer.Note:
		return "note"
	}
	return "refused"
}

func writeInferText(w io.Writer, r *infer.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, v := range r.Values {
		fmt.Fprintf(tw, "%s\t%s\n", printable(v.Name), printable(v.Value.String()))
	}
	tw.Flush()
	for _, p := range r.Problems {
		fmt.Fprintf(w, "%s: %s\n", problemKind(p.Kind), printable(p.String()))
	}
}

// printable returns s with every rune that is not printable (a newline, a
// tab, an escape sequence's ESC, a Unicode line separator) written as its
// Go escape: names come from the model file, and a raw newline would forge
// a line of the output, an escape sequence reach the terminal.
func printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i]) // a byte that is no UTF-8
		case unicode.IsPrint(r):
			b.WriteString(s[i : i+size])
		default:
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u2028'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

func writeInferJSON(w io.Writer, model string, r *infer.Result) error {
	out := struct {
		Model    string        `json:"model"`
		Values   []jsonValue   `json:"values"`
		Problems []jsonProblem `json:"problems"`
	}{Model: model, Values: []jsonValue{}, Problems: []jsonProblem{}}
	for _, v := range r.Values {
		jv := jsonValue{Name: v.Name, Type: typeString(v.Value)}
		if v.Ranked {
			s := append([]graph.Dim{}, v.Shape...)
			jv.Shape = &s
		}
		switch v.Kind {
		case graph.KindSequence:
			jv.Kind = "sequence"
		case graph.KindOptional:
			jv.Kind = "optional"
		case graph.KindMap:
			jv.Kind = "map"
		}
		if len(v.Elems) <= 64 {
			jv.Contents = v.Elems
		}
		out.Values = append(out.Values, jv)
	}
	for _, p := range r.Problems {
		out.Problems = append(out.Problems, jsonProblem{problemKind(p.Kind), p.Node, p.Op, p.Value, p.Msg, p.Branch})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// typeString names a value's element type as ONNX does ("float"), "" when
// unknown.
func typeString(v *infer.Value) string {
	if v.Type == 0 {
		return ""
	}
	return v.Type.String()
}
