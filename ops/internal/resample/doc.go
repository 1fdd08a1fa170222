// Package resample is the resampling engine of Resize (and Upsample, which
// ops runs as Resize): the per-axis plans of every mode (PlanAxis, from an
// AxisSpec of the attributes and the axis' geometry: for every output index
// its clamped input taps and their weights, or a mark that
// tf_crop_and_resize extrapolates it), the pass that resamples one outer
// axis through a plan (Pass), and the fused kernel that resamples the two
// innermost axes plane by plane through a small ring of rows (RowFilter,
// Planes), with SSE kernels for float32 rows on amd64 (rows_amd64.s; the
// purego tag and other platforms run the same loops in Go, to the bit).
//
// ops checks the attributes, charges a plan's memory to the run before it
// asks for it, allocates the outputs and scratch through the run's
// accounting, and calls Pass and Planes with the run's context and cap on
// cores. The nearest modes' copies are not here: ops makes them table
// copies of ops/internal/movement from the plans.
//
// The engine never writes into its source slices and allocates nothing
// that grows with the tensor: only copies of a plan's weights (which ops
// charged with the plan) and per-core rows of a plane (which ops charges
// beforehand, sized by PlanesScratch). It checks the context row by row
// and never imports ops.
package resample
