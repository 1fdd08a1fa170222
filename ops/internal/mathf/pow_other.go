//go:build !amd64 || purego

package mathf

func pows(o, x, y []float32) { powsGo(o, x, y) }
