// Command onnxshape runs ONNX models natively, checks them against the
// SONNX safety profile, runs the ONNX node tests and lists the operators it
// covers.
//
//	onnxshape run [MODEL] [--input NAME=FILE]... [--output NAME|all]... [--out DIR]
//	onnxshape diff MODEL [--input NAME=FILE]... [--engine A,B | --threads A,B | --profile A,B | --against DIR]
//	onnxshape plan MODEL [--input-shape NAME=D,D,...]... [--steps]
//	onnxshape test DIR... [--profile onnx|sonnx] [--fail-on-skip]
//	onnxshape check [--profile sonnx] [--json] MODEL
//	onnxshape trace [--json]
//	onnxshape bench DIR...
//	onnxshape infer MODEL [--json] [--input-shape NAME=D,D,...]...
//	onnxshape fold MODEL -o OUT [--input-shape NAME=D,D,...]... [--annotate]
//	onnxshape ops [--markdown] [NAME...] | ops --model MODEL
//	onnxshape version
//	onnxshape help [COMMAND]
//
// Each subcommand lives in its own file and registers itself in init().
//
// # Exit status
//
// Every error is one line on stderr, never a Go stack trace, cut after
// 4 KiB with "... (N bytes more)", and the exit status says what happened:
//
//	0  success (check: the model is inside the profile)
//	1  refused or failed: a bad or hostile file, a cap reached, a failing
//	   run, an interrupt (check: the model is outside the profile)
//	2  usage error: unknown command or flag, wrong arguments (check: the
//	   model cannot be read)
//	3  check only: undecided, some rules need values known at run time
//	4  internal error: a bug in onnxshape, reported as one line
//	   "onnxshape: internal error: ..."
//
// Status 4 covers a panic and also a crash of the Go runtime itself (out of
// memory, which the caps exist to prevent): the command runs in a child
// process, and the parent reports the child's crash as that one line.
// Set ONNXSHAPE_IN_PROCESS=1 to run in one process and see the runtime's
// full report instead.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/onnxshape/onnxshape/ops"
)

// command is one subcommand: its name, a one-line help and its main
// function, which returns the exit status.
type command struct {
	name string
	help string
	run  func(args []string) int
}

// commands holds every subcommand, by name.
var commands = map[string]command{}

// register adds a subcommand; each file of the command calls it in init().
func register(name, help string, run func(args []string) int) {
	if _, dup := commands[name]; dup {
		panic("onnxshape: command " + name + " registered twice")
	}
	commands[name] = command{name, help, run}
}

// Exit statuses; see the package documentation.
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitInternal = 4
)

func main() {
	if os.Getenv(inProcessEnv) == "" {
		if code, ok := supervise(os.Args[1:], os.Stderr); ok {
			os.Exit(code)
		}
	}
	os.Exit(dispatch(os.Args[1:], os.Stderr))
}

// dispatch runs the subcommand args[0] with the remaining arguments. A
// panic, which would be a bug, is reported as one line, not a stack trace.
func dispatch(args []string, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintln(stderr, "onnxshape: internal error:", oneLine(fmt.Sprint(p)))
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run([]string{"-h"})
			}
			fmt.Fprintln(stderr, oneLine(fmt.Sprintf("onnxshape: no command %q", args[1])))
			return 2
		}
		usage(os.Stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintln(stderr, oneLine(fmt.Sprintf("onnxshape: no command %q; see onnxshape help", name)))
		return 2
	}
	return c.run(args[1:])
}

func usage(w io.Writer) {
	names := make([]string, 0, len(commands))
	width := 0
	for name := range commands {
		names = append(names, name)
		width = max(width, len(name))
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("onnxshape runs ONNX models natively, bounded, with the SONNX safety profile built in.\n\nusage: onnxshape COMMAND [ARGUMENTS]\n\ncommands:\n")
	for _, name := range names {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, name, commands[name].help)
	}
	b.WriteString("\n`onnxshape help COMMAND` or `onnxshape COMMAND -h` tells more about one.\n")
	io.WriteString(w, b.String())
}

// parseFlags parses args with fs, flags being allowed before, between and
// after the positional arguments (`test DIR --profile sonnx`); it returns
// the positional ones. A lone "--" ends the flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseProfile reads the --profile flag.
func parseProfile(s string) (ops.Profile, error) {
	switch s {
	case "onnx", "":
		return ops.ProfileONNX, nil
	case "sonnx":
		return ops.ProfileSONNX, nil
	}
	return 0, fmt.Errorf("--profile must be onnx or sonnx, not %q", s)
}
