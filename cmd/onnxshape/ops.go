package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/onnxshape/onnxshape/onnx"
	"github.com/onnxshape/onnxshape/onnx/pb"
	"github.com/onnxshape/onnxshape/ops"
)

const opsUsage = `usage: onnxshape ops [--markdown] [--update-readme FILE] [NAME...]
       onnxshape ops --model MODEL

Lists the operators onnxshape implements, one row an operator with the
since-versions it registers (each serves the opsets from it up to the next);
with NAMEs, only those operators (exit status 1 when one is not implemented).
--markdown prints the table that README.md holds between its
<!-- ops:begin --> and <!-- ops:end --> markers; --update-readme rewrites
that part of FILE in place.

--model lists the operators MODEL uses, subgraphs included, with the number
of nodes of each and the version that serves them, or "not supported": the
exit status is 1 when onnxshape cannot run every node of the model.`

func init() {
	register("ops", "list the operators and opset versions onnxshape implements", func(args []string) int {
		return opsMain(args, os.Stdout, os.Stderr)
	})
}

func opsMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("ops")
	markdown := fs.Bool("markdown", false, "print the table in markdown")
	readme := fs.String("update-readme", "", "rewrite the table between the ops markers of this file")
	model := fs.String("model", "", "list the operators this model uses and whether onnxshape runs them")
	pos, code, ok := parseCommand(fs, opsUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if *model != "" {
		if len(pos) > 0 || *markdown || *readme != "" {
			return usageError(stderr, "ops", "--model takes no other argument or flag")
		}
		return opsOfModel(*model, stdout, stderr)
	}
	if len(pos) > 0 && (*markdown || *readme != "") {
		return usageError(stderr, "ops", "operator names cannot be given with --markdown or --update-readme")
	}
	if *readme != "" {
		if err := updateReadme(*readme); err != nil {
			fmt.Fprintln(stderr, "onnxshape ops:", err)
			return 1
		}
		return 0
	}
	if *markdown {
		io.WriteString(stdout, opsMarkdown())
		return 0
	}
	rows, missing := filterRows(opsRows(), pos)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "OPERATOR\tDOMAIN\tSINCE VERSIONS")
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", row.name, row.domain, strings.Join(row.versions, " "))
	}
	tw.Flush()
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "onnxshape ops: not implemented: %s\n", printable(strings.Join(missing, ", ")))
		return exitError
	}
	return 0
}

// filterRows keeps the rows of the operators named (case aside, with or
// without their domain: "Conv", "ai.onnx.ml.LabelEncoder"), all rows when
// names is empty, and returns the names no row matches.
func filterRows(rows []opsRow, names []string) (kept []opsRow, missing []string) {
	if len(names) == 0 {
		return rows, nil
	}
	for _, name := range names {
		found := false
		for _, r := range rows {
			if strings.EqualFold(name, r.name) || strings.EqualFold(name, r.domain+"."+r.name) {
				kept = append(kept, r)
				found = true
			}
		}
		if !found {
			missing = append(missing, name)
		}
	}
	return kept, missing
}

type opsRow struct {
	domain, name string
	versions     []string
}

// opsRows groups ops.Schemas() by operator, in its order (domain, name).
func opsRows() []opsRow {
	var rows []opsRow
	for _, s := range ops.Schemas() {
		domain := s.Domain
		if domain == "" {
			domain = "ai.onnx"
		}
		if n := len(rows); n == 0 || rows[n-1].name != s.Name || rows[n-1].domain != domain {
			rows = append(rows, opsRow{domain: domain, name: s.Name})
		}
		rows[len(rows)-1].versions = append(rows[len(rows)-1].versions, fmt.Sprint(s.Since))
	}
	return rows
}

// opsMarkdown is the coverage table as README.md holds it.
func opsMarkdown() string {
	rows := opsRows()
	var b strings.Builder
	b.WriteString("| Operator | Domain | Since versions |\n|---|---|---|\n")
	versions := 0
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.name, r.domain, strings.Join(r.versions, ", "))
		versions += len(r.versions)
	}
	fmt.Fprintf(&b, "\n%d operators, %d since-versions.\n", len(rows), versions)
	return b.String()
}

const (
	opsBegin = "<!-- ops:begin -->"
	opsEnd   = "<!-- ops:end -->"
)

// readmeTable returns the text between the ops markers of a README, and
// where it starts and ends.
func readmeTable(readme string) (table string, start, end int, err error) {
	start = strings.Index(readme, opsBegin)
	end = strings.Index(readme, opsEnd)
	if start < 0 || end < start {
		return "", 0, 0, fmt.Errorf("no %s ... %s section", opsBegin, opsEnd)
	}
	start += len(opsBegin)
	return readme[start:end], start, end, nil
}

// updateReadme replaces the coverage table of the README at path.
func updateReadme(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	_, start, end, err := readmeTable(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	out := string(b[:start]) + "\n" + opsMarkdown() + string(b[end:])
	return os.WriteFile(path, []byte(out), 0o644)
}

// modelOp is one operator a model uses, at the opset its domain imports.
type modelOp struct {
	domain, name string
	opset        int
}

// opsOfModel prints the operators the model at path uses and which
// version of onnxshape's serves each; it fails when one is not served.
func opsOfModel(path string, stdout, stderr io.Writer) int {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "model.onnx")
	}
	mp, err := onnx.ReadModelWith(path, &onnx.Limits{})
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape ops:", oneLine(err.Error()))
		return exitError
	}
	opsets := map[string]int{}
	for _, imp := range mp.GetOpsetImport() {
		d := imp.GetDomain()
		if d == "ai.onnx" {
			d = ""
		}
		opsets[d] = int(imp.GetVersion())
	}
	counts := map[modelOp]int{}
	var order []modelOp
	// The graphs to visit, subgraphs pushed as they are met; their
	// nesting is bounded by the decoder's.
	stack := []*pb.GraphProto{mp.GetGraph()}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, np := range g.GetNode() {
			d := np.GetDomain()
			if d == "ai.onnx" {
				d = ""
			}
			op := modelOp{d, np.GetOpType(), opsets[d]}
			if counts[op] == 0 {
				order = append(order, op)
			}
			counts[op]++
			for _, a := range np.GetAttribute() {
				if a.GetG() != nil {
					stack = append(stack, a.GetG())
				}
				stack = append(stack, a.GetGraphs()...)
			}
		}
	}
	slices.SortFunc(order, func(a, b modelOp) int {
		return cmp.Or(cmp.Compare(a.domain, b.domain), cmp.Compare(a.name, b.name))
	})
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "OPERATOR\tDOMAIN\tOPSET\tNODES\tSERVED BY")
	var missing []string
	for _, op := range order {
		domain := op.domain
		if domain == "" {
			domain = "ai.onnx"
		}
		served := "not supported"
		if op.opset == 0 {
			served = "no opset imported for the domain"
			missing = append(missing, op.name)
		} else if s, err := ops.Lookup(op.domain, op.name, op.opset); err == nil {
			served = fmt.Sprintf("%s-%d", s.Name, s.Since)
		} else {
			missing = append(missing, op.name)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", printable(op.name), printable(domain), op.opset, counts[op], served)
	}
	tw.Flush()
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "onnxshape ops: %s: %d of %d operators are not supported: %s\n", printable(path), len(missing), len(order), printable(strings.Join(missing, ", ")))
		return exitError
	}
	return 0
}
