package mathf

// The streamed slice forms: the same bits as ExpsTo, SigmoidsTo, TanhsTo,
// ErfsTo and SoftsignsTo, with the stores of the bulk non-temporal where
// AVX-512 is (VMOVNTPS: a line is written whole to memory, with no read
// for ownership and no room taken in the cache) and a store fence at the
// end of each call. A large call is bounded by memory (25 MB in, 25 MB
// out: the loops' arithmetic waits on the lines), and the reads for
// ownership of its output are a third of the traffic; a call whose data
// fits in the cache, or whose output the next operator reads at once,
// wants the plain forms. The caller decides (elementwise.Config.StreamFrom,
// as the streamed arithmetic of ops/internal/elementwise).

// ExpsToStreamed is ExpsTo with streaming stores.
func ExpsToStreamed(o, a []float32) { streamedTo(o, a[:len(o)], ExpsTo, kernelExpsNT) }

// SigmoidsToStreamed is SigmoidsTo with streaming stores.
func SigmoidsToStreamed(o, a []float32) { streamedTo(o, a[:len(o)], SigmoidsTo, kernelSigmoidsNT) }

// TanhsToStreamed is TanhsTo with streaming stores.
func TanhsToStreamed(o, a []float32) { streamedTo(o, a[:len(o)], TanhsTo, kernelTanhsNT) }

// ErfsToStreamed is ErfsTo with streaming stores.
func ErfsToStreamed(o, a []float32) { streamedTo(o, a[:len(o)], ErfsTo, kernelErfsNT) }

// SoftsignsToStreamed is SoftsignsTo with streaming stores.
func SoftsignsToStreamed(o, a []float32) { streamedTo(o, a[:len(o)], SoftsignsTo, kernelSoftsignsNT) }
