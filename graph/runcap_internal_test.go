package graph

import (
	"math"
	"testing"
)

// The default run cap under the memory the process may use:
// the derivation itself is tested with fake cgroup files in
// internal/memlimit.
func TestRunCapWithin(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	for _, c := range []struct{ limit, want int64 }{
		{math.MaxInt64, DefaultMaxRunBytes}, // no limit
		{64 * gib, DefaultMaxRunBytes},
		{4 * gib, (4*gib - 256*mib) / 2}, // ulimit -v 4194304
		{8*gib + 512*mib, DefaultMaxRunBytes},
		{100 * mib, (100*mib - 25*mib) / 2},
		{1, 1},
	} {
		if got := runCapWithin(c.limit); got != c.want {
			t.Errorf("under %d bytes: %d, want %d", c.limit, got, c.want)
		}
	}
	if got := DefaultRunCap(); got <= 0 || got > DefaultMaxRunBytes {
		t.Errorf("this process: %d", got)
	}
}
