// The other commands:
//
//	onnxshape check [--profile sonnx] [--json] MODEL
//	onnxshape bench DIR... [--threads N] [--format text|tsv] [--pool]
//
// Every command prints its help on stdout for -h or `onnxshape help
// COMMAND`. check exits 0 inside the SONNX profile, 1 outside, 3 undecided
// and 2 when the model cannot be read; test and bench exit 1 when a folder
// holds no case.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// The conventions of every command (usage.go holds them once):
//   - -h, --help and `onnxshape help COMMAND` print the usage on stdout
//     and exit 0;
//   - a usage error prints one line on stderr, "onnxshape COMMAND: why",
//     and a pointer to the help, and exits 2;
//   - any other error prints one line "onnxshape COMMAND: why" on stderr
//     and exits 1 (check has its own statuses for its verdicts).

// commandFlags returns the FlagSet of command name. Parse it with
// parseCommand, which prints what the flag package would print in the
// right place.
func commandFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseCommand parses args with fs (flags before, between and after the
// positional arguments). ok is false when the command must exit with code:
// 0 after printing the usage on stdout for -h, 2 after a usage error on
// stderr.
func parseCommand(fs *flag.FlagSet, synopsis string, args []string, stdout, stderr io.Writer) (pos []string, code int, ok bool) {
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(fs, synopsis, stdout)
		return nil, 0, false
	}
	if err != nil {
		return nil, usageError(stderr, fs.Name(), "%v", err), false
	}
	return pos, 0, true
}

// printUsage writes the synopsis and the flags to w.
func printUsage(fs *flag.FlagSet, synopsis string, w io.Writer) {
	fmt.Fprintln(w, synopsis)
	fmt.Fprintln(w, "\nflags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// usageError reports why the command line of command name is wrong, with
// a pointer to its help, and returns the exit status of usage errors.
func usageError(stderr io.Writer, name, format string, args ...any) int {
	fmt.Fprintln(stderr, oneLine(fmt.Sprintf("onnxshape %s: %s (see onnxshape help %s)", name, fmt.Sprintf(format, args...), name)))
	return 2
}
