package bench

import (
	"context"
	"errors"
	"testing"

	"github.com/onnxshape/onnxshape/graph"
	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

// BenchmarkStandard runs every standard case, built in memory (no files),
// through graph.Model.Run, one sub-benchmark per case:
//
//	go test ./bench -run XXX -bench Standard/transpose -cpuprofile cpu.prof
//
// It is the go test face of `onnxshape bench`, for pprof; -short uses
// batch 1 instead of 8.
func BenchmarkStandard(b *testing.B) {
	batch := 8
	if testing.Short() {
		batch = 1
	}
	for _, s := range Standards() {
		b.Run(s.Name, func(b *testing.B) {
			c, m, inputs := loadStandard(b, s, batch)
			var outBytes int64
			for _, out := range c.outputs {
				n, err := tensor.ByteSize(out.dt, out.shape)
				if err != nil {
					b.Fatal(err)
				}
				outBytes += int64(n)
			}
			b.SetBytes(outBytes)
			b.ReportAllocs()
			ctx := context.Background()
			for b.Loop() {
				if _, err := m.Run(ctx, inputs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStandardPooled is BenchmarkStandard with a graph.Pool, each
// run's outputs released before the next: what a warm service loop costs.
// A warm pooled run of a chain allocates only its outputs.
func BenchmarkStandardPooled(b *testing.B) {
	batch := 8
	if testing.Short() {
		batch = 1
	}
	for _, s := range Standards() {
		b.Run(s.Name, func(b *testing.B) {
			_, m, inputs := loadStandard(b, s, batch)
			pool := graph.NewPool()
			opts := &graph.RunOptions{Pool: pool}
			b.ReportAllocs()
			ctx := context.Background()
			var held []tensor.Value
			for b.Loop() {
				held = held[:0]
				out, err := m.Run(ctx, inputs, opts)
				if err != nil {
					b.Fatal(err)
				}
				for _, v := range out.Map() {
					held = append(held, v)
				}
				if err := pool.Release(held...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// loadStandard builds case s at batch in memory and loads its model; a
// case whose operator onnxshape lacks is skipped.
func loadStandard(b *testing.B, s Standard, batch int) (caseSpec, *graph.Model, map[string]tensor.Value) {
	b.Helper()
	c := s.build(batch)
	mp, err := c.model(s.Name)
	if err != nil {
		b.Fatal(err)
	}
	m, err := graph.FromProto(mp, "")
	if errors.Is(err, ops.ErrUnsupported) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	inputs := map[string]tensor.Value{}
	for _, in := range c.inputs {
		inputs[in.name] = in.t
	}
	return c, m, inputs
}
