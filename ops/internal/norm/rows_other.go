//go:build !amd64 || purego

package norm

func lanesF32(x []float32, m float64, term int, p *[16]float64) int { return 0 }

func rowsF32(stat Stat, eps float64, x, y []float32, rows, n int, sc, b []float64, st *[3]*float64) bool {
	return false
}

func lpRowsF32(p int, x, y []float32, rows, n int) bool { return false }

func writeF32(x, y []float32, mean, f float64, sc, b []float64, flags int) int { return 0 }

// haveRowsAVX512 is false: no vector loops here.
var haveRowsAVX512 = false
