package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Every error line onnxshape prints is bounded: an error that names a
// 10 MiB node name, or the nodes of a cycle of 100,000, is cut after
// maxErrorLine bytes with a note of how many bytes more it had, so that
// it reaches the terminal (and the supervisor, which passes on lines of
// at most maxPassedLine bytes) as one readable line.
const maxErrorLine = 4 << 10

// oneLine joins the lines of an error message into one, its runs of white
// space into single spaces, and cuts it after maxErrorLine bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxErrorLine {
		return s
	}
	return cutLine([]byte(s[:maxErrorLine]), len(s)-maxErrorLine)
}

// cutLine returns head, the first bytes of a line of which more bytes
// were left out, with the note "... (N bytes more)"; a character cut in
// two at the end of head counts among the bytes left out.
func cutLine(head []byte, more int) string {
	if more == 0 {
		return string(head)
	}
	// Back off to the start of the last character when it is incomplete.
	for k := 1; k <= utf8.UTFMax && k <= len(head); k++ {
		if utf8.RuneStart(head[len(head)-k]) {
			if !utf8.FullRune(head[len(head)-k:]) {
				more += k
				head = head[:len(head)-k]
			}
			break
		}
	}
	return fmt.Sprintf("%s... (%d bytes more)", head, more)
}

// capLines cuts every line of a text report (check's findings, which name
// nodes and values) after maxErrorLine bytes, as oneLine cuts an error.
func capLines(s string) string {
	if len(s) <= maxErrorLine {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		if len(body) > maxErrorLine {
			lines[i] = cutLine([]byte(body[:maxErrorLine]), len(body)-maxErrorLine) + l[len(body):]
		}
	}
	return strings.Join(lines, "")
}
