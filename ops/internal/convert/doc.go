// Package convert is the type-conversion engine: it converts tensor
// elements between every pair of ONNX types (Into, with the saturation and
// rounding of Options), rounds float32 and float64 to float16, bfloat16, the
// float8 and float4 formats and E8M0 (F32ToF16 and the vector path of
// convert_amd64.s with F16C, minifloat), widens float16 to float32 (F16C's
// VCVTPH2PS there too), parses and formats strings, and
// loads or stores any float tensor as []float32 or []float64 for the
// kernels that compute in a native float (LoadFloats, StoreFloats and
// their Polled forms).
//
// Cast, CastLike, BitCast, QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, Clip, Pad, Range, EyeLike, NonZero, Unique,
// RegexFullMatch, the window functions, Resize and the scatter reductions
// use it. It never writes into a source
// tensor, never checks an operator's rules (the caller has), and allocates
// only what it returns, which the caller has sized and charged; the Polled
// forms look at the run's context through ops/internal/poll.
package convert
