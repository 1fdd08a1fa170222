package main

import (
	"fmt"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/internal/memlimit"
)

// runCapHelp tells, in run's and plan's help, where the default of
// --max-run-bytes comes from.
const runCapHelp = `The default --max-run-bytes is 4 GiB, or less when the process may use
less memory: the smallest of the cgroup's memory limit (memory.max,
memory.limit_in_bytes), the address-space limit (ulimit -v, less the
address space the process holds at start: the Go runtime reserves about
1.2 GB) and GOMEMLIMIT, less a quarter of it (at most 256 MiB) for the
runtime and the model, then halved for the garbage collector's headroom.
Under ulimit -v 4194304 that is about 1.3 GiB: a model that needs more is
refused instead of running out of memory. A --max-run-bytes given is used
as it is.`

// runCapDefault describes the default run cap on this machine, for the
// flag's help.
func runCapDefault() string {
	runCap := graph.DefaultRunCap()
	if l := memlimit.Process(); l.From != "" && runCap < graph.DefaultMaxRunBytes {
		return fmt.Sprintf("%s here, from %s, %s", humanBytes(runCap), l.From, humanBytes(l.Bytes))
	}
	return humanBytes(runCap)
}
