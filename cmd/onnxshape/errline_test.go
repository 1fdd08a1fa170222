package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOneLineIsBounded(t *testing.T) {
	if got := oneLine("a\n  b\tc"); got != "a b c" {
		t.Errorf("short: %q", got)
	}
	long := strings.Repeat("x", 10<<20)
	got := oneLine("node " + long)
	if len(got) > maxErrorLine+64 || !strings.HasSuffix(got, "... (10481669 bytes more)") {
		t.Errorf("10 MiB: %d bytes ending %q", len(got), got[max(0, len(got)-40):])
	}
	// A character cut in two is left out whole.
	cut := oneLine(strings.Repeat("a", maxErrorLine-1) + "é" + strings.Repeat("b", 10))
	if !utf8.ValidString(cut) || !strings.HasSuffix(cut, "a... (12 bytes more)") {
		t.Errorf("cut in a character: %q", cut[len(cut)-30:])
	}
}

// The supervisor passes every line on, an over-long one cut, never
// dropped (a 1 MiB error line vanished).
func TestEachLinePassesLongLines(t *testing.T) {
	in := "short\n" + strings.Repeat("y", 3<<20) + "\nafter\nunterminated"
	var lines []string
	eachLine(strings.NewReader(in), 100, func(s string) { lines = append(lines, s) })
	want := []string{"short", strings.Repeat("y", 100) + "... (3145628 bytes more)", "after", "unterminated"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %.300q", len(lines), len(want), lines)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %.200q, want %.200q", i, lines[i], want[i])
		}
	}
	var out bytes.Buffer
	if crash := filterCrash(strings.NewReader("onnxshape run: "+strings.Repeat("z", 2<<20)+"\n"), &out); crash != "" {
		t.Errorf("crash %q", crash)
	}
	if out.Len() > maxPassedLine+64 || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("passed %d bytes: %.100q", out.Len(), out.String())
	}
}

func TestCapLines(t *testing.T) {
	in := "a\n" + strings.Repeat("b", maxErrorLine+10) + "\nc\n"
	want := "a\n" + strings.Repeat("b", maxErrorLine) + "... (10 bytes more)\nc\n"
	if got := capLines(in); got != want {
		t.Errorf("got %.100q...", got)
	}
	if got := capLines("x\ny"); got != "x\ny" {
		t.Errorf("short: %q", got)
	}
}
