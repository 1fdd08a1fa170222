package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/onnxshape/onnxshape/profile"
)

const checkUsage = `usage: onnxshape check [--profile sonnx] [--json] MODEL

Reports every place where MODEL leaves the SONNX profile, one line each:
the node (name, or #index), the operator and its version, the rule id
(GR1..GR4, OPS, TYPES, ONNX, or the operator's own [Cn]/[Rn]), what is
wrong and what would fix it. Rules that could not be decided before the
model runs (values known only at run time, declarations of values whose
shape depends on them, operators onnxshape has no specification of) are
listed as "undecided:" lines with the node and the rule ids; the runner and
the operators check them when the model runs with --profile sonnx.
docs/sonnx.md lists every rule.

Exit status: 0 inside the profile (every rule decided, none broken),
1 outside, 3 undecided (no rule broken, some left to run time), 2 when the
model cannot be read.`

func init() {
	register("check", "check a model against the SONNX profile (one line per finding; --json)", func(args []string) int {
		return checkMain(args, os.Stdout, os.Stderr)
	})
}

func checkMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("check")
	prof := fs.String("profile", "sonnx", "the profile to check against (only sonnx)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
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
	rep, err := profile.CheckFile(models[0])
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
