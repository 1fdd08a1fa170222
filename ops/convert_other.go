//go:build !amd64 || purego

package ops

// f32sToF16sVector has no vector form here: f32sToF16s's loop does it all.
func f32sToF16sVector(d []uint16, s []uint32) int { return 0 }
