package conv

import "github.com/onnxshape/onnxshape/ops/internal/gemm"

// The few-positions path (float32, one spatial axis, one group, weights
// packed once at load): a convolution of a short signal, such as an STFT
// written as a Conv (kernel 256, stride 128, four output positions) or a
// kernel-3 layer over a few frames, is a product whose columns are the
// output positions. Forward's paths put the positions on the GEMM's wide
// side (the micro-kernel's 32 columns for 1 to 4 positions) and read the
// weights as A, so most of each step's multiplies are of padding. Here
// the product is turned around: Y^T (positions x M) = windows^T
// (positions x K, one window a row, gathered from the image) times W^T
// (K x M), whose panels the model packed once (PackFew), so that no run
// copies the weights; the result is written back transposed, with the
// bias and the epilogue. The scratch (the windows and the transposed
// result, a few KiB) is charged before any work. The sums are the GEMM
// engine's, within the bound of Forward.

// FewMax is the largest number of output rows (images times positions)
// the few-positions path takes: past it the usual paths fill the
// micro-kernel's columns.
const FewMax = 24

// Few reports whether ForwardFew runs s: one spatial axis, one group, at
// most FewMax output positions over all images.
func Few(s Shape) bool {
	return len(s.Kernel) == 1 && s.Group == 1 && s.N*prod(s.Grid) <= FewMax && s.N*prod(s.Grid) > 0
}

// PackFew packs the weights w of a one-group convolution (M x K, K = C
// times the taps, row-major) as the B operand of ForwardFew, charging
// cfg's account for them first.
func PackFew(cfg Config, m, k int, w []float32) (*gemm.PackedB32, error) {
	return gemm.PackB32(cfg.gemm(1), true, k, m, w, k)
}

// FewScratchBytes is the scratch ForwardFew charges for s (float32).
func FewScratchBytes(s Shape) int64 {
	rows := s.N * prod(s.Grid)
	return int64(rows) * int64(s.C*prod(s.Kernel)+s.M) * 4
}

// ForwardFew is Forward for a shape Few accepts, with its weights packed
// by PackFew (pw); b is the bias (M values, or nil).
func ForwardFew(cfg Config, s Shape, x []float32, pw *gemm.PackedB32, b, y []float32) error {
	kt := s.Kernel[0]
	k := s.C * kt
	pout, pin := s.Grid[0], s.Image[0]
	rows := s.N * pout
	if err := cfg.charge(FewScratchBytes(s)); err != nil {
		return err
	}
	if err := cfg.err(); err != nil {
		return err
	}
	buf := make([]float32, rows*(k+s.M))
	win, yt := buf[:rows*k], buf[rows*k:]
	st, dil, pad := s.Stride[0], s.Dilation[0], s.Pad[0]
	for n := range s.N {
		for p := range pout {
			row := win[(n*pout+p)*k : (n*pout+p+1)*k]
			base := p*st - pad
			for c := range s.C {
				img := x[(n*s.C+c)*pin : (n*s.C+c+1)*pin]
				taps := row[c*kt : (c+1)*kt]
				if dil == 1 && base >= 0 && base+kt <= pin {
					copy(taps, img[base:base+kt])
					continue
				}
				for t := range taps {
					i := base + t*dil
					if i >= 0 && i < pin {
						taps[t] = img[i]
					} else {
						taps[t] = 0
					}
				}
			}
		}
	}
	if err := gemm.Float32Packed(cfg.gemm(cfg.threads()), false, rows, s.M, k, 1, win, k, pw, 0, yt, s.M); err != nil {
		return err
	}
	for n := range s.N {
		for m := range s.M {
			var bv float32
			if b != nil {
				bv = b[m]
			}
			out := y[(n*s.M+m)*pout : (n*s.M+m+1)*pout]
			for p := range out {
				out[p] = yt[(n*pout+p)*s.M+m] + bv
			}
		}
	}
	epilogue(cfg, y[:s.N*s.M*pout])
	return nil
}
