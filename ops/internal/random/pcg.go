// Package random draws the random generators' uniform stream fast: the
// same values as rand.PCG.Uint64 called once per element in order (ops'
// randomStream.uniform):
//
//   - The PCG's state is a 128-bit linear congruential generator,
//     state = state*mul + inc, so k steps are one affine map
//     state*A_k + C_k, computed in log2(k) squarings (pcgJump). Element i
//     of the output is then drawn from the seed's state jumped i+1 steps,
//     whatever drew the elements before it.
//   - A loop draws four elements at a time from four states a step apart,
//     each advanced four steps per turn: four independent chains of
//     multiplies instead of one, which the core runs side by side.
//   - The cores take pieces of the output in turn (ops' fillUniform, with
//     parallel.Shared), each starting from the state jumped to its first
//     element.
//
// Afterwards the PCG is left where drawing the elements one by one would
// leave it.
package random

import (
	"math/bits"
	"math/rand/v2"
)

// The PCG's multiplier and increment (math/rand/v2, pcg.go).
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
)

// u128 is an unsigned 128-bit integer, arithmetic modulo 2^128.
type u128 struct{ hi, lo uint64 }

// State is a PCG's state.
type State = u128

func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	hi += a.hi*b.lo + a.lo*b.hi
	return u128{hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// pcgJump returns the map of k steps of the PCG: after k steps from state
// s the state is s*a + c.
func pcgJump(k uint64) (a, c u128) {
	a = u128{0, 1}
	m, i := u128{pcgMulHi, pcgMulLo}, u128{pcgIncHi, pcgIncLo}
	for ; k > 0; k >>= 1 {
		if k&1 != 0 {
			a = a.mul(m)
			c = c.mul(m).add(i)
		}
		i = m.add(u128{0, 1}).mul(i)
		m = m.mul(m)
	}
	return a, c
}

// StateOf reads a rand.PCG's state (its binary form: "pcg:", hi, lo).
func StateOf(p *rand.PCG) State {
	b, _ := p.MarshalBinary()
	be := func(b []byte) uint64 {
		var v uint64
		for _, x := range b {
			v = v<<8 | uint64(x)
		}
		return v
	}
	return u128{be(b[4:12]), be(b[12:20])}
}

// pcgOutput is rand.PCG.Uint64's output for a state just stepped to s
// (DXSM).
func pcgOutput(s u128) uint64 {
	const cheapMul = 0xda942042e4dd58b5
	hi := s.hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (s.lo | 1)
}

// pcgFloat is rand.Rand.Float64 from the output of state s: its 53 bits
// converted as a signed integer (the same value, without the branch of an
// unsigned conversion), times 2^-53 (exact, as the division).
func pcgFloat(s u128) float64 {
	return float64(int64(pcgOutput(s)<<11>>11)) * (1.0 / (1 << 53))
}

// PieceLen is the elements a core draws at a time.
const PieceLen = 1 << 15

// Advance sets p to the state n steps after s: where drawing n elements
// one by one from s leaves it.
func Advance(p *rand.PCG, s State, n int) {
	a, c := pcgJump(uint64(n))
	end := s.mul(a).add(c)
	p.Seed(end.hi, end.lo)
}

// Uniform sets dst[i] to low + (high-low)*u for the draws at positions
// at, at+1, ... of the stream that starts at state start.
func Uniform[F float32 | float64](dst []F, start u128, at int, low, high float64) {
	a1, c1 := pcgJump(uint64(at) + 1)
	s0 := start.mul(a1).add(c1)
	one := u128{pcgMulHi, pcgMulLo}
	inc := u128{pcgIncHi, pcgIncLo}
	s1 := s0.mul(one).add(inc)
	s2 := s1.mul(one).add(inc)
	s3 := s2.mul(one).add(inc)
	a4, c4 := pcgJump(4)
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		d := dst[i : i+4 : i+4]
		d[0] = F(low + (high-low)*pcgFloat(s0))
		d[1] = F(low + (high-low)*pcgFloat(s1))
		d[2] = F(low + (high-low)*pcgFloat(s2))
		d[3] = F(low + (high-low)*pcgFloat(s3))
		s0 = s0.mul(a4).add(c4)
		s1 = s1.mul(a4).add(c4)
		s2 = s2.mul(a4).add(c4)
		s3 = s3.mul(a4).add(c4)
	}
	for ; i < len(dst); i++ {
		dst[i] = F(low + (high-low)*pcgFloat(s0))
		s0 = s0.mul(one).add(inc)
	}
}
