//go:build !race

package main

// raceEnabled tells the tests that run the built command whether they run
// under the race detector.
const raceEnabled = false
