package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/onnxshape/onnxshape/profile"
)

const checkUsage = `usage: onnxshape check [--profile sonnx] [--json] [--summary] [--input-shape NAME=1,3,H,W]... MODEL

Reports every place where MODEL leaves the SONNX profile, one line each:
the node (name, or #index), the operator and its version, the rule id
(GR1..GR4, OPS, TYPES, ONNX, or the operator's own [Cn]/[Rn]), what is
wrong and what would fix it. Rules that could not be decided before the
model runs (values known only at run time, declarations of values whose
shape depends on them, operators onnxshape has no specification of) are
listed as "undecided:" lines with the node and the rule ids; the runner and
the operators check them when the model runs with --profile sonnx. The
operators the profile admits are listed once, after those lines, when a
line refers to them. docs/sonnx.md lists every rule.

Shapes are those of infer (symbolic dimensions through every operator's
shape rule) where the check's own propagation stops. --input-shape replaces
an input's declared shape, as for infer, fold and plan, so that what fixed
sizes settle is decided before the run. --summary prints, instead of the
lines, how many findings and undecided nodes each rule and each operator
has, then the summary.

Exit status: 0 inside the profile (every rule decided, none broken),
1 outside, 3 undecided (no rule broken, some left to run time), 2 when the
model cannot be read or an input shape names no input.`

func init() {
	register("check", "check a model against the SONNX profile (one line per finding; --json)", func(args []string) int {
		return checkMain(args, os.Stdout, os.Stderr)
	})
}

func checkMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("check")
	prof := fs.String("profile", "sonnx", "the profile to check against (only sonnx)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	summary := fs.Bool("summary", false, "print the count of findings and undecided nodes by rule and by operator instead of the lines")
	shapes := inputShapeFlags{}
	fs.Var(shapes, "input-shape", "an input's shape, as NAME=D1,D2,... (numbers or symbols); repeat for each input")
	fs.Var(shapes, "shape", "the same as --input-shape")
	models, code, ok := parseCommand(fs, checkUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if *prof != "sonnx" {
		return usageError(stderr, "check", "--profile must be sonnx, not %q", *prof)
	}
	if len(models) != 1 {
		return usageError(stderr, "check", "give one MODEL, not %d", len(models))
	}
	rep, err := profile.CheckFileWith(modelPath(models[0]), &profile.Options{InputShapes: shapes})
	if err != nil {
		fmt.Fprintln(stderr, "onnxshape check:", oneLine(err.Error()))
		return 2
	}
	if *asJSON {
		// The library's JSON of the report, as json.Marshal gives it.
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintln(stderr, "onnxshape check:", oneLine(err.Error()))
			return 2
		}
	} else if *summary {
		fmt.Fprint(stdout, capLines(checkSummary(rep)))
	} else {
		fmt.Fprint(stdout, capLines(rep.String()))
	}
	switch rep.Verdict() {
	case profile.VerdictOutside:
		return 1
	case profile.VerdictUndecided:
		return 3
	}
	return 0
}
