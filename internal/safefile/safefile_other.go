//go:build !unix

package safefile

// OpenNonBlocking is 0 where named pipes do not block open; the type of
// the file is checked before it is opened.
const OpenNonBlocking = 0
