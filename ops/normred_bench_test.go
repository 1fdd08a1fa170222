package ops

import (
	"math/rand/v2"
	"testing"

	"github.com/onnxshape/onnxshape/tensor"
)

// The every-operator benchmark's large cases of the normalizations, the
// arg-reductions and the selections, at one thread: for profiling beside
// bench/ort (which times onnxruntime on the same cases). Each run
// allocates its output, so a profile shows its page faults in the kernel
// that first writes it (bench/ort's pooled runs do not pay them).

func benchFloats(shape ...int) *tensor.Tensor {
	x := tensor.MustNew(tensor.Float, shape...)
	r := rand.New(rand.NewPCG(1, 2))
	v := asElems[float32](x.Bytes())
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return x
}

func benchNode(b *testing.B, name string, attrs map[string]Attribute, outputs int, in ...*tensor.Tensor) {
	s, err := Lookup("", name, 23)
	if err != nil {
		b.Fatal(err)
	}
	values := make([]tensor.Value, len(in))
	for i, t := range in {
		values[i] = t
	}
	opt := &Options{Threads: 1}
	n := &Node{OpType: name, Version: s.Since, Attrs: attrs, NumOutputs: outputs}
	for b.Loop() {
		if _, err := s.Run(opt, n, values); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEveryTopK(b *testing.B) {
	benchNode(b, "TopK", nil, 2, benchFloats(784, 8192), tensor.MustFromSlice([]int64{10}))
}

func BenchmarkEveryArgMaxLast(b *testing.B) {
	benchNode(b, "ArgMax", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(8, 64, 112, 112))
}

func BenchmarkEveryHardmaxLast(b *testing.B) {
	benchNode(b, "Hardmax", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(8, 64, 112, 112))
}

func BenchmarkEveryLogSoftmaxLast(b *testing.B) {
	benchNode(b, "LogSoftmax", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(8, 64, 112, 112))
}

func BenchmarkEveryReduceLogSumExp(b *testing.B) {
	for _, c := range []struct {
		name string
		axis int64
	}{{"last", -1}, {"first", 0}, {"middle", 1}} {
		b.Run(c.name, func(b *testing.B) {
			benchNode(b, "ReduceLogSumExp", nil, 1, benchFloats(8, 64, 112, 112), tensor.MustFromSlice([]int64{c.axis}))
		})
	}
}

func BenchmarkEveryLayerNormalization(b *testing.B) {
	benchNode(b, "LayerNormalization", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(8, 64, 112, 112), benchFloats(112))
}

func BenchmarkEveryRMSNormalization(b *testing.B) {
	benchNode(b, "RMSNormalization", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(8, 64, 112, 112), benchFloats(112))
}

func BenchmarkEveryMeanVarianceNormalization(b *testing.B) {
	benchNode(b, "MeanVarianceNormalization", nil, 1, benchFloats(8, 64, 112, 112))
}

func BenchmarkEveryLRN(b *testing.B) {
	benchNode(b, "LRN", map[string]Attribute{"size": intAttribute(3)}, 1, benchFloats(8, 64, 112, 112))
}

// The small cases (a few KB), where the cost of a call dominates.
func BenchmarkEverySmall(b *testing.B) {
	b.Run("LayerNormalization", func(b *testing.B) {
		benchNode(b, "LayerNormalization", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(1, 4, 16, 16), benchFloats(16))
	})
	b.Run("RMSNormalization", func(b *testing.B) {
		benchNode(b, "RMSNormalization", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(1, 4, 16, 16), benchFloats(16))
	})
	b.Run("LogSoftmax", func(b *testing.B) {
		benchNode(b, "LogSoftmax", map[string]Attribute{"axis": intAttribute(-1)}, 1, benchFloats(1, 4, 16, 16))
	})
	b.Run("TopK", func(b *testing.B) {
		benchNode(b, "TopK", nil, 2, benchFloats(4, 256), tensor.MustFromSlice([]int64{10}))
	})
	b.Run("BatchNormalization", func(b *testing.B) {
		benchNode(b, "BatchNormalization", nil, 1, benchFloats(1, 4, 16, 16), benchFloats(4), benchFloats(4), benchFloats(4), benchFloats(4))
	})
}
