//go:build !amd64 || purego

package convert

// f32sToF16sVector has no vector form here: f32sToF16s's loop does it all.
func f32sToF16sVector(d []uint16, s []uint32) int { return 0 }

// f16AlignHead: no streaming stores here, no head to align.
func f16AlignHead(d []uint16) int { return 0 }

// f32sToI32sVector has no vector form here: f32sToI32s's loop does it all.
func f32sToI32sVector(d []uint32, s []float32) int { return 0 }

// f32sToNarrowVector has no vector form here.
func f32sToNarrowVector[D uint8 | uint16](d []D, s []float32) int { return 0 }

// f16sToF32sVector has no vector form here: f16sToF32s's loop does it all.
func f16sToF32sVector(d []uint32, s []uint16) int { return 0 }

func f32sToBoolsVector(d []byte, s []float32) int { return 0 }

func boolsToF32sVector(d []float32, s []byte) int { return 0 }

func intFloatVector[D, S int32 | int64 | float32](d []D, s []S) int { return 0 }

func i64sToI32sVector(d []int32, s []int64) int { return 0 }

func f32sToBF16sVector(d []uint16, s []float32) int { return 0 }

func widenVector[D, S float32 | float64 | int32 | int64](d []D, s []S) int { return 0 }
