// BlackmanWindow generates the Blackman window,
// 0.42 - 0.5 cos(2πn/N) + 0.08 cos(4πn/N), of size values (hannwindow.go).
//
// Versions: 17.

package ops

func init() { registerWindow("BlackmanWindow", 0.42, 0.5, 0.08) }
