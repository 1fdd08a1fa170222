package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/onnxshape/onnxshape/profile"
)

const traceUsage = `usage: onnxshape trace [--json]

Prints the SONNX profile's requirements trace: for every item of the
specifications the profile checks (the rows of docs/sonnx.md), where it is
stated, the functions that check it before the model runs, those that refuse
it while the model runs under the profile, and the tests that violate and
satisfy it. --json prints it as a JSON array, one object an item.`

func init() {
	register("trace", "print the SONNX requirements trace: spec item, code, tests (--json)", func(args []string) int {
		return traceMain(args, os.Stdout, os.Stderr)
	})
}

func traceMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("trace")
	asJSON := fs.Bool("json", false, "print the trace as JSON")
	pos, code, ok := parseCommand(fs, traceUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, "trace", "takes no argument, got %d", len(pos))
	}
	items := profile.Trace()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(items); err != nil {
			fmt.Fprintln(stderr, "onnxshape trace:", oneLine(err.Error()))
			return 1
		}
		return 0
	}
	for _, it := range items {
		refused := strings.Join(it.Refusers, ", ")
		if refused == "" {
			refused = "decided by check"
		}
		fmt.Fprintf(stdout, "%s: %s\n  checked by %s; refused at run time by %s\n  tests %s, %s", it.Key, it.Statement,
			strings.Join(it.Checkers, ", "), refused, it.Tests.Violated, it.Tests.Satisfied)
		if it.Tests.RunTime != "" {
			fmt.Fprintf(stdout, ", %s", it.Tests.RunTime)
		}
		fmt.Fprintln(stdout)
	}
	return 0
}
