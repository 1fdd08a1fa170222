package rnn

// The elementwise loops of an LSTM cell after its gates' activations: on
// amd64 with AVX, float32 runs 8 elements at a time in the loops of
// cell_amd64.s, the same operations in the same order as the Go loops
// below (which finish the last elements and run float64 and other
// platforms): the same bits.

// lstmState sets c[j] = f[j]*c[j] + i[j]*g[j], the new cell state, and
// copies it into g (whose output activation reads it); f, i and g are at
// least as long as c.
func lstmState[T float32 | float64](c, g, f, i []T) {
	m := 0
	if c32, ok := any(c).([]float32); ok {
		m = lstmStateVec(c32, any(g).([]float32), any(f).([]float32), any(i).([]float32))
	}
	c, g, f, i = c[m:], g[m:len(c)], f[m:len(c)], i[m:len(c)]
	for j := range c {
		c[j] = T(f[j]*c[j]) + T(i[j]*g[j]) // each product rounded: never fused
		g[j] = c[j]
	}
}

// mulTo sets o[j] = a[j]*b[j]; a and b are at least as long as o.
func mulTo[T float32 | float64](o, a, b []T) {
	m := 0
	if o32, ok := any(o).([]float32); ok {
		m = mulVec(o32, any(a).([]float32), any(b).([]float32))
	}
	o, a, b = o[m:], a[m:len(o)], b[m:len(o)]
	for j := range o {
		o[j] = a[j] * b[j]
	}
}
