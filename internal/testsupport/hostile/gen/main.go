// Command gen writes the hostile corpus of package hostile into a folder
// and prints, for each case, its class and the onnxshape command line with
// what it must do:
//
//	go run ./internal/testsupport/hostile/gen DIR
//
// The large files are sparse: the folder takes a few tens of megabytes.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/onnxshape/onnxshape/internal/testsupport/hostile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/testsupport/hostile/gen DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	cases, err := hostile.Write(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for _, c := range cases {
		if c.Skipped != "" {
			fmt.Printf("%-32s not built: %s\n", c.Name, c.Skipped)
			continue
		}
		want := "exit 1, one line on stderr"
		if len(c.Exits) > 0 {
			want = fmt.Sprintf("exit in %v", c.Exits)
		}
		fmt.Printf("%-32s %s\n    onnxshape %s\n    must: %s", c.Name, c.Class, strings.Join(c.Args, " "), want)
		fmt.Println()
	}
}
