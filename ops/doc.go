// Package ops implements the ONNX operators, every opset version of each,
// for every ONNX tensor type the spec allows.
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
// # The map
//
// One file per operator (transpose.go, cast.go, maxpool.go, ...): its
// public function and options, its schema and constraints in the spec's
// order, its output shape, and the glue to the engine that does its work.
// The engines live in packages of their own under ops/internal, which
// never import ops; each one's package doc says what it does, which
// operators use it and what it never does. By family:
//
//   - movement (Transpose, Reshape, Flatten, Squeeze, Unsqueeze, Identity,
//     Concat, Split, Slice, Pad, Tile, Expand, DepthToSpace, SpaceToDepth,
//     CenterCropPad): the shape-only ones return views that share the
//     input's storage; the others are copy plans of ops/internal/movement,
//     type-agnostic (by element size), which merges the axes a copy keeps
//     whole, tiles transposes and spreads large copies over the cores.
//   - elementwise and activations (Add, Mul, Where, Clip, Pow, Relu,
//     Sigmoid, the comparisons and bitwise operators, ...): the numpy
//     broadcasting walk, the span loops and their AVX assembly are
//     ops/internal/elementwise; the framework every elementwise operator
//     file plugs into (unaryOp, binaryOp, fixedUnaries, the type tables)
//     stays in ops (elementwise_node.go; the type tables it builds are the
//     engine's, tables.go). The float32 elementary functions (Exp, Log,
//     Sigmoid, Tanh, Erf, the trigonometric and hyperbolic functions, the
//     activations built on them, and Pow's float32 power) are
//     ops/internal/mathf.
//   - conversion (Cast, CastLike, BitCast, QuantizeLinear,
//     DequantizeLinear, DynamicQuantizeLinear): ops/internal/convert (and
//     ops/internal/quant for the linear quantizers' scale layouts), which
//     also rounds to float16 (with F16C on amd64) and the float8 formats
//     and loads any float tensor as float32 or float64 for the kernels
//     that compute in a native float (Resize, Clip, Range, ...);
//     DynamicQuantizeLinear's range scan and uint8 quantization are
//     ops/internal/dynquant.
//   - reductions (ReduceSum and the other Reduce*, ArgMax, ArgMin,
//     Softmax, LogSoftmax, Hardmax, TopK, CumSum, CumProd):
//     ops/internal/reduce. A family's glue (attributes, types, the
//     tensor loads around the engine) sits in the file of the operator the
//     others build on, and each sibling's header points there: reducesum.go
//     for every Reduce* (and the float16 loads the other engines reuse),
//     argmax.go for ArgMin, softmax.go for LogSoftmax and Hardmax.
//   - normalizations (BatchNormalization, InstanceNormalization,
//     LayerNormalization, GroupNormalization, RMSNormalization,
//     MeanVarianceNormalization, LpNormalization, LRN): ops/internal/norm;
//     their shared glue is in layernormalization.go.
//   - losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss): the
//     rules and the weighted reduction in negativeloglikelihoodloss.go, the
//     log-softmax in ops/internal/reduce.
//   - indexing (Gather, GatherElements, GatherND, ScatterElements,
//     ScatterND, TensorScatter, OneHot, NonZero, Compress, Unique, Trilu):
//     index lists checked in ops (inputs.go), moved by the index copies
//     of ops/internal/movement.
//   - pooling (MaxPool, AveragePool, LpPool, their Global forms,
//     MaxUnpool): ops/internal/window, the window geometry and tap tables
//     (shared with the convolutions) and the sums of AveragePool and
//     LpPool; the attributes are read in ops (maxpool.go), the Global forms
//     are reductions (ops/internal/reduce).
//   - resampling (Resize, Upsample): ops/internal/resample, the per-axis
//     plans of the linear and cubic modes, the passes of the outer axes
//     and the fused kernel of the two innermost (SSE row sums on amd64);
//     ops checks the
//     attributes and charges the plans (resize.go); nearest modes are
//     table copies of ops/internal/movement.
//   - sequences and optionals (SequenceConstruct, SequenceAt,
//     SplitToSequence, ConcatFromSequence, Optional, ...): plain Go over
//     tensor.Sequence and tensor.Optional (the shared input readers are in
//     inputs.go). The maps of ai.onnx.ml (ZipMap, CastMap, DictVectorizer)
//     are plain Go over tensor.Map and tensor.MapSequence.
//   - control flow (If, Loop, Scan): run by package graph, which owns
//     subgraphs, not by ops.
//   - convolution (Conv, ConvTranspose, ConvInteger, QLinearConv,
//     DeformConv, Col2Im): ops/internal/conv, which lowers them to
//     products of ops/internal/gemm (im2col in bounded tiles, 1x1 as a
//     plain product, depthwise direct, col2im scatter); the shared window
//     attributes are read in conv.go, their geometry is ops/internal/window.
//   - compute (MatMul, Gemm, Einsum, MatMulInteger, QLinearMatMul):
//     ops/internal/gemm, the matrix-product engine. What the product
//     operators share in ops (numpy matmul's shapes, the walk of the
//     batches, the engine's settings and errors, the quantized operands'
//     layouts) is op glue that needs Options and opRef, so it sits at the
//     end of matmul.go, the first of them; the weights packed once at load
//     (PackConstants) at the end of gemm.go.
//   - linear algebra (Det): ops/internal/linalg, the LU factorization with
//     partial pivoting in float64 and its AVX-512 form for 8×8 matrices.
//   - recurrent (LSTM, GRU, RNN): ops/internal/rnn, cells over
//     ops/internal/gemm; the node reading, constraints and float16 glue
//     the three share sit at the end of lstm.go.
//   - random generators (RandomUniform, RandomNormal, their Like forms,
//     Bernoulli): the attributes and the seeded stream in randomuniform.go,
//     the uniform draws in lanes and pieces across the cores in
//     ops/internal/random (the PCG's jumps, the same values as draws one
//     by one).
//
// Every engine spreads work over the cores through ops/internal/parallel
// (ops calls it through parallelRange) and looks at the run's context
// through ops/internal/poll.
//
// The rest of ops is its core, kept in ops because every operator file
// calls it by its short name: the registry and schemas (registry.go,
// attributes.go with the attribute specs and enumerated modes, node.go,
// call.go), the run's knobs
// and accounting (options.go, limits.go, inputs.go, axes.go), errors
// (errors.go), the SONNX rules (sonnx.go) and the prepared-node recorder
// (prepared.go), which replays the copy plans a node recorded and so sits
// with Options rather than in an engine, and the kernels' side of
// load-time fusion (epilogue.go: a Conv, Gemm or MatMul node applying the
// BatchNormalization folded into it or the activation fused after it),
// which graph/fuse.go decides, and of elementwise chains (fusedchain.go:
// a region of Add, Mul, Pow, Tanh, Erf, ... nodes such as an exported
// GELU run as one pass with the nodes' bits), which
// graph/fusetransformer.go decides.
//
// On amd64 a few inner loops run in SSE2, AVX or F16C registers, in Go
// assembly beside their engine (the transpose blocks, streaming stores
// and REP MOVSB of ops/internal/movement; float16 rounding in
// ops/internal/convert; the reductions' lanes and exp32 in
// ops/internal/reduce; Resize's float32 row sums in ops/internal/resample;
// Det's 8×8 factorizations in ops/internal/linalg;
// the float32 and float64 arithmetic, Relu and Where in
// ops/internal/elementwise; the float32 elementary functions, in AVX2 and
// AVX-512, in ops/internal/mathf);
// the purego build tag, and every other platform, runs the same contracts
// in Go. No operator ever writes into an
// input.
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
