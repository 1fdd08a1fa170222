package rnn

import (
	"testing"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
	"github.com/onnxshape/onnxshape/ops/internal/mathf"
)

func BenchmarkProbeStep(b *testing.B) {
	h, rt, c := filled(8*128, 0.3), filled(128*512, 0.2), make([]float32, 8*512)
	cpu := cpuSeconds()
	for b.Loop() {
		for range 100 {
			gemm.Float32(gemm.Config{Threads: 1}, false, false, 8, 512, 128, 1, h, 128, rt, 512, 0, c, 512)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}

func BenchmarkProbeProj(b *testing.B) {
	x, wt, c := filled(800*64, 0.3), filled(64*512, 0.2), make([]float32, 800*512)
	cpu := cpuSeconds()
	for b.Loop() {
		gemm.Float32(gemm.Config{Threads: 1}, false, false, 800, 512, 64, 1, x, 64, wt, 512, 0, c, 512)
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}

func BenchmarkProbeSig(b *testing.B) {
	x := filled(384, 0.3)
	cpu := cpuSeconds()
	for b.Loop() {
		for range 800 {
			mathf.Sigmoids(x)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}
func BenchmarkProbeTanh(b *testing.B) {
	x := filled(128, 0.3)
	cpu := cpuSeconds()
	for b.Loop() {
		for range 1600 {
			mathf.Tanhs(x)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}
