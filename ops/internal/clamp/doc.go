// Package clamp limits float32 and float64 spans to [lo, hi]: Clip's
// kernel for the two types that carry most models (ops/clip.go).
//
// An element below lo becomes lo, one above hi becomes hi, and every other,
// NaN included, is kept as it is: x < lo and x > hi as Go compares, so a
// zero bound does not change the sign of a zero (the reference engine,
// reference/clip.go, states the same). On amd64 with AVX the spans go eight
// (float32) or four (float64) elements at a time with VMAXPS/VMINPS, whose
// operand order gives exactly that rule, a short tail through the same
// kernel in a buffer on the stack (no branch per element); elsewhere a
// plain loop.
//
// It never allocates, never writes into its input (dst and src may be the
// same span) and knows nothing of tensors or of the run's options: the
// operator splits the work across cores and checks the context.
package clamp
