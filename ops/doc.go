// Package ops implements the ONNX shape and data-movement operators, every
// opset version of each, for every ONNX tensor type.
//
// Each operator is two things that share one implementation. The first is
// a plain Go function over tensors, with an options struct whose zero value
// is the ONNX default and whose fields carry the spec's names; it follows the
// newest version of its operator:
//
//	y, err := ops.Transpose(x, ops.TransposeOptions{Perm: []int{0, 2, 3, 1}})
//	z, err := ops.Resize(x, ops.ResizeOptions{Mode: ops.Linear, Sizes: []int{1, 3, 448, 448}})
//
// The second is a Kernel in the registry, which the model runner (package
// graph) finds with Lookup by domain, name and the model's opset, and runs
// on a Node whose attributes and version come from the model file.
//
// Operators that only change the shape (Reshape, Flatten, Squeeze,
// Unsqueeze, Identity) return views that share the input's storage. The
// others move data with one copy engine, type-agnostic (by element size),
// which merges the axes a copy keeps whole, tiles transposes and spreads
// large copies over the cores; only Resize, Pad's constant and MaxPool
// compute, with generics over their element types. On amd64 a few inner
// loops (transpose blocks, SpaceToDepth's pairs, Slice's every other
// element, Resize's float32 row sums and uniform filters) run in SSE2
// registers, transposes too large for the cache write with non-temporal
// stores (stream.go), and Concat and Split's large rows go through REP
// MOVSB, in Go assembly; the purego build tag, and every other platform,
// runs the same contracts in Go. The convolutions (Conv, ConvTranspose,
// ConvInteger, QLinearConv, DeformConv, Col2Im) lower to matrix products
// through the engine ops/internal/conv over ops/internal/gemm. No operator
// ever writes into an input.
//
// Every refusal is an *Error naming the operator, its version and the rule
// broken, with SONNX constraint ids where the profile specifies the operator:
//
//	Unsqueeze-13 [C2] axis 1 designated twice (1 and -4)
//
// The same knobs serve both: the plain functions take them as trailing
// Option values, a Kernel as an *Options. WithProfile selects the SONNX
// profile (ProfileSONNX: its extra constraints are checked and what it
// leaves undefined is refused); WithMaxTensorBytes caps the size of any
// tensor an operator creates (an oversized output, or kernel scratch that
// grows with the input, is refused before it is allocated, wrapping
// ErrLimit); WithThreads caps the cores used; WithContext gives a context
// for cancellation: every kernel loop that can run for more than a few
// milliseconds looks at it in strides, and a cancelled kernel returns the
// context's error, never a result. A nil or zero tensor is an error, never
// a panic.
//
//	y, err := ops.Transpose(x, ops.TransposeOptions{Perm: []int{0, 2, 3, 1}},
//		ops.WithContext(ctx), ops.WithMaxTensorBytes(64<<20), ops.WithThreads(2))
//
// Call runs any operator of the registry, at any opset, under a context
// and Options of the caller's:
//
//	out, err := ops.Call(ctx, &ops.Options{MaxTensorBytes: 64 << 20, Threads: 2},
//		ops.Node{OpType: "Transpose", Attrs: map[string]ops.Attribute{"perm": {Type: ops.AttrInts, Ints: []int64{0, 3, 1, 2}}}}, x)
package ops
