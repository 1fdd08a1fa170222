//go:build race

package graph_test

// raceEnabled: the race detector drops sync.Pool entries at random, so
// allocation counts are not exact under it.
const raceEnabled = true
