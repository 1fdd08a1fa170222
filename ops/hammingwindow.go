// HammingWindow generates the Hamming window,
// α - β cos(2πn/N) with α = 25/46 and β = 1 - α, of size values (hannwindow.go).
//
// Versions: 17.

package ops

func init() { registerWindow("HammingWindow", 25.0/46, 21.0/46, 0) }
