package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/onnxshape/onnxshape/ops"
)

const opsUsage = `usage: onnxshape ops [--markdown] [--update-readme FILE]

Lists the operators onnxshape implements, one row an operator with the
since-versions it registers (each serves the opsets from it up to the next).
--markdown prints the table that README.md holds between its
<!-- ops:begin --> and <!-- ops:end --> markers; --update-readme rewrites
that part of FILE in place.`

func init() {
	register("ops", "list the operators and opset versions onnxshape implements", func(args []string) int {
		return opsMain(args, os.Stdout, os.Stderr)
	})
}

func opsMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("ops")
	markdown := fs.Bool("markdown", false, "print the table in markdown")
	readme := fs.String("update-readme", "", "rewrite the table between the ops markers of this file")
	pos, code, ok := parseCommand(fs, opsUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, "ops", "ops takes no arguments, got %q", pos)
	}
	if *readme != "" {
		if err := updateReadme(*readme); err != nil {
			fmt.Fprintln(stderr, "onnxshape ops:", oneLine(err.Error()))
			return 1
		}
		return 0
	}
	if *markdown {
		io.WriteString(stdout, opsMarkdown())
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "OPERATOR\tDOMAIN\tSINCE VERSIONS")
	for _, row := range opsRows() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", row.name, row.domain, strings.Join(row.versions, " "))
	}
	tw.Flush()
	return 0
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
