// DFT (17, 20), after the ONNX specification: "Computes the discrete
// Fourier Transform (DFT) of the input. Assuming the input has shape
// [M, N], where N is the dimension over which the DFT is computed ... the
// DFT y[m, k] ... is defined as y[m, k] = sum_{n=0}^{N-1} e^{-2πj kn/N}
// x[m, n], and the inverse transform ... x[m, n] = (1/N) sum_{k=0}^{N-1}
// e^{2πj kn/N} y[m, k]." The input's last axis is 1 (real) or 2 (real,
// imaginary); "dft_length: The length of the signal ... If greater than
// the axis dimension, the signal will be zero-padded up to dft_length. If
// less than the axis dimension, only the first dft_length values will be
// used as the signal"; "onesided: If onesided is 1, only values for k in
// [0, 1, 2, ..., floor(n_fft/2) + 1] are returned" (forward); with inverse
// as well, the input holds those first frequencies of a Hermitian
// spectrum and the output is real (numpy's irfft: n defaults to
// 2*(length-1), X[n-k] = conj(X[k]), the imaginary parts of X[0] and of
// X[n/2] dropped). axis: an attribute, default 1 (17), an input, default
// -2 (20), "Accepted range is [-r, -2] ∪ [0, r-2]". Summed in float64 in
// the order of the definition, each output rounded once.

package reference

import (
	"math"
	"math/cmplx"

	"github.com/onnxshape/onnxshape/ops"
	"github.com/onnxshape/onnxshape/tensor"
)

func init() {
	register("DFT", []int{17, 20}, func(opt *ops.Options, n *ops.Node, in []tensor.Value) ([]tensor.Value, error) {
		op := opOf(n)
		x, err := requiredInput(op, in, 0, "input")
		if err != nil {
			return nil, err
		}
		if !signalType(x.DataType()) {
			return nil, op.errorf("type", "input is %v", x.DataType())
		}
		dftLength, hasLength, err := scalarInput(op, in, 1, "dft_length")
		if err != nil {
			return nil, err
		}
		var axis int64
		if n.Version < 20 {
			if axis, err = n.Int("axis", 1); err != nil {
				return nil, err
			}
		} else {
			var ok bool
			if axis, ok, err = scalarInput(op, in, 2, "axis"); err != nil {
				return nil, err
			}
			if !ok {
				axis = -2
			}
		}
		inverse, err := n.Int("inverse", 0)
		if err != nil {
			return nil, err
		}
		onesided, err := n.Int("onesided", 0)
		if err != nil {
			return nil, err
		}
		xs := x.Shape()
		r := len(xs)
		if r < 2 || (xs[r-1] != 1 && xs[r-1] != 2) {
			return nil, op.errorf("input-rank", "input %v", xs)
		}
		if axis < -int64(r) || axis > int64(r-2) || axis == -1 {
			return nil, op.errorf("axis", "axis %d for rank %d", axis, r)
		}
		a := int(axis)
		if a < 0 {
			a += r
		}
		irfft := inverse != 0 && onesided != 0
		length := xs[a]
		N := length
		switch {
		case hasLength:
			if dftLength < 1 || dftLength > 1<<40 {
				return nil, op.errorf("dft_length", "dft_length %d", dftLength)
			}
			N = int(dftLength)
		case irfft:
			N = 2 * (length - 1)
		}
		if N < 1 {
			return nil, op.errorf("dft_length", "transform of length %d", N)
		}
		shape := append([]int(nil), xs...)
		shape[a], shape[r-1] = N, 2
		if irfft {
			shape[r-1] = 1
		} else if onesided != 0 {
			shape[a] = N/2 + 1
		}
		y, err := newTensor(opt, op, x.DataType(), shape)
		if err != nil {
			return nil, err
		}
		if err := cancelled(opt, op); err != nil {
			return nil, err
		}
		if err := chargeScratch(opt, op, "float64 copies of the inputs, the results and the output", inputElements(in)+2*numElements(shape), 8); err != nil {
			return nil, err
		}
		xv := computeElements[float64](x)
		xStrides := stridesOf(xs)
		// signal returns element k of the line through idx (of the output's
		// shape) along the axis, zero past the input's end.
		signal := func(idx []int, k int) complex128 {
			if k >= length {
				return 0
			}
			off := 0
			for i := range r - 1 {
				j := idx[i]
				if i == a {
					j = k
				}
				off += j * xStrides[i]
			}
			if xs[r-1] == 1 {
				return complex(xv[off], 0)
			}
			return complex(xv[off], xv[off+1])
		}
		sign := -1.0
		if inverse != 0 {
			sign = 1
		}
		out := make([]float64, y.Len())
		forEachIndex(shape, func(flat int, idx []int) {
			part := idx[r-1]
			j := idx[a]
			var s complex128
			for k := range N {
				v := signal(idx, k)
				if irfft {
					// The Hermitian spectrum from its first half.
					m := k
					if k > N/2 {
						m = N - k
					}
					v = signal(idx, m)
					if m == 0 || 2*m == N {
						v = complex(real(v), 0)
					}
					if m != k {
						v = cmplx.Conj(v)
					}
				}
				angle := sign * 2 * math.Pi * float64((j*k)%N) / float64(N)
				s += v * complex(math.Cos(angle), math.Sin(angle))
			}
			if inverse != 0 {
				s /= complex(float64(N), 0)
			}
			if part == 0 {
				out[flat] = real(s)
			} else {
				out[flat] = imag(s)
			}
		})
		return values(computeTensor(x.DataType(), shape, out)), nil
	})
}

// signalType reports whether DFT and STFT take signals of type dt.
func signalType(dt tensor.DataType) bool {
	switch dt {
	case tensor.Float16, tensor.Float, tensor.Double, tensor.BFloat16:
		return true
	}
	return false
}

// scalarInput reads optional input i, an int32 or int64 scalar or tensor
// of one element; ok is false when it is absent.
func scalarInput(op opRef, in []tensor.Value, i int, name string) (v int64, ok bool, err error) {
	t, err := optionalInput(op, in, i)
	if err != nil || t == nil {
		return 0, false, err
	}
	if (t.DataType() != tensor.Int32 && t.DataType() != tensor.Int64) || t.Len() != 1 || t.Rank() > 1 {
		return 0, false, op.errorf(name, "%s %s", name, t.Describe())
	}
	return exactValue(t, 0).i, true, nil
}
