package graph

import (
	"runtime"
	"sync/atomic"
)

// activeRuns counts the runs under way in the process. A run that leaves
// RunOptions.Threads at 0 shares the cores with the others instead of each
// taking them all: eight concurrent runs on two cores would otherwise
// spread sixteen workers over two cores, and a cancelled run would wait
// for its share of a crowded scheduler before it noticed.
var activeRuns atomic.Int64

// sharedThreads is the thread count of a run that sets none while active
// runs (itself included) are under way: GOMAXPROCS divided between them,
// at least one.
func sharedThreads(active int64) int {
	return max(1, runtime.GOMAXPROCS(0)/int(max(active, 1)))
}
