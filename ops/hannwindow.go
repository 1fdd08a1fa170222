// HannWindow generates the Hann window,
// sin²(πn/N) = 0.5 - 0.5 cos(2πn/N), of size values (windows.go).
//
// Versions: 17.

package ops

func init() { registerWindow("HannWindow", 0.5, 0.5, 0) }
