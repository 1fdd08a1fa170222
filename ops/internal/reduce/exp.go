package reduce

// The constants of expShiftedRow's fast path: 1/ln 2; the number whose
// addition rounds a float64 below 2^51 to an integer; ln 2 split in a high
// part of 32 bits (k times it is exact for every k the range gives) and
// the rest.
const (
	invLn2   = 1.4426950408889634
	roundMag = 0x1.8p52
	ln2Hi    = 0.6931471806019545
	ln2Lo    = -4.2009150726810846e-11
)
