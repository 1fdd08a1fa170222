package main

import (
	"fmt"
	"io"
	"os"

	"github.com/onnxshape/onnxshape/profile"
)

const versionUsage = `usage: onnxshape version

Prints onnxshape's version (graph.Version, or the module version of a
tagged build) and, when the build recorded them, its revision and whether
the tree was modified: what a bug report or a SONNX check names.`

func init() {
	register("version", "print onnxshape's version and the build's revision", func(args []string) int {
		return versionMain(args, os.Stdout, os.Stderr)
	})
}

func versionMain(args []string, stdout, stderr io.Writer) int {
	fs := commandFlags("version")
	pos, code, ok := parseCommand(fs, versionUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, "version", "takes no argument, got %d", len(pos))
	}
	fmt.Fprintln(stdout, profile.ToolVersion())
	return 0
}
