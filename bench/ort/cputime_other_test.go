//go:build ort && !unix

package main

func cpuSeconds() float64 { return 0 }
