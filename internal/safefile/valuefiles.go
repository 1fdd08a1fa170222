package safefile

import (
	"fmt"
	"strings"
)

// ValueFiles are the file names, without extension, under which a dump
// holds the values names, in order (onnxshape run --out writes them,
// onnxshape diff --against and the onnxruntime dumper of bench/ort use
// them): each name with every character but [A-Za-z0-9._-] turned into _
// (ONNX names may hold any character, path separators included), made
// unique, case aside for the file systems that ignore it, by a suffix
// _2, _3, ...
func ValueFiles(names []string) []string {
	used := map[string]bool{}
	files := make([]string, len(names))
	for i, n := range names {
		name := valueFile(n)
		for k := 2; used[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d", valueFile(n), k)
		}
		used[strings.ToLower(name)] = true
		files[i] = name
	}
	return files
}

func valueFile(name string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	if clean == "" || strings.Trim(clean, ".") == "" {
		clean = "output"
	}
	return clean
}
