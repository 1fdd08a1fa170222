//go:build amd64 && !purego

package reduce

import "testing"

// BenchmarkMaxMiddle25MBDown is BenchmarkMaxMiddle25MB walking down the 64
// rows in registers (colMaxAVX512, the path before colrows_amd64.s).
func BenchmarkMaxMiddle25MBDown(b *testing.B) {
	defer func(r int) { rowStreams = r }(rowStreams)
	rowStreams = 1 << 30
	benchColumns(b, Max, 8, 64, 112*112)
}
