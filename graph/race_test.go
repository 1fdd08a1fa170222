//go:build race

package graph_test

// raceEnabled tells the tests whether they run under the race detector,
// whose slowdown the hang detectors of scale_test.go have no room for.
const raceEnabled = true
