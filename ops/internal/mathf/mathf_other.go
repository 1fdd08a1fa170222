//go:build !amd64 || purego

package mathf

// The slice loops: Go only (the assembly loops are amd64's).

func sigmoids(o, a []float32) { sigmoidsGo(o, a) }
func tanhs(o, a []float32)    { tanhsGo(o, a) }
func erfs(o, a []float32)     { erfsGo(o, a) }
