// Command genopfuncs writes ops/functions_gen.go: a documented Go function
// for every registered operator that has no hand-written one, in one
// signature style (see ops/call.go), from the registry (ops.Schemas)
// and the attributes each operator declares (Schema.Attributes). Run it
// with go generate ./ops; a test in package ops fails when the file is
// stale.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/onnxshape/onnxshape/internal/genopfuncs/gen"
)

func main() {
	out := flag.String("o", "functions_gen.go", "the file to write")
	dir := flag.String("dir", ".", "the ops folder (operator files and their header comments)")
	flag.Parse()
	src, err := gen.Generate(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genopfuncs:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genopfuncs:", err)
		os.Exit(1)
	}
}
