package infer

import (
	"fmt"
	"github.com/onnxshape/onnxshape/graph"
	"strconv"
	"strings"
	"unicode"
)

// ParseShape reads a shape written as comma-separated dimensions, each a
// number or a symbol: "1,3,H,W". "" is the shape of a scalar.
func ParseShape(s string) ([]graph.Dim, error) {
	dims := []graph.Dim{}
	if strings.TrimSpace(s) == "" {
		return dims, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if n, err := strconv.ParseInt(part, 10, 64); err == nil {
			if n < 0 {
				return nil, fmt.Errorf("dimension %d is negative", n)
			}
			dims = append(dims, graph.Const(n))
			continue
		}
		if !isSymbol(part) {
			return nil, fmt.Errorf("dimension %q is neither a number nor a symbol", part)
		}
		dims = append(dims, graph.Sym(part))
	}
	return dims, nil
}

// ParseInputShape reads NAME=SHAPE, as the --input-shape flag gives it.
func ParseInputShape(s string) (string, []graph.Dim, error) {
	name, shape, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return "", nil, fmt.Errorf("input shape %q is not of the form NAME=D1,D2", s)
	}
	dims, err := ParseShape(shape)
	if err != nil {
		return "", nil, fmt.Errorf("input shape of %s: %w", name, err)
	}
	return name, dims, nil
}

func isSymbol(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || (i > 0 && (unicode.IsDigit(r) || r == '.' || r == '-'))) {
			return false
		}
	}
	return true
}
