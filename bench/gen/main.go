// Command gen writes the standard benchmark cases as ONNX
// node-test folders (model.onnx + test_data_set_0/input_K.pb) with
// deterministic pseudo-random float32 data:
//
//	go run ./bench/gen [-batch N] [-run REGEXP] [DIR]
//
// DIR defaults to bench-data, which .gitignore keeps out of the repository
// (the full set is about 600 MB). -batch changes the N of the NCHW shapes
// (8 in the standard cases) for a quicker, smaller set; -run writes only
// the cases whose name matches.
package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"

	"github.com/onnxshape/onnxshape/bench"
)

func main() {
	batch := flag.Int("batch", 8, "the N of the NCHW shapes")
	zoo := flag.Bool("zoo", false, "also write the model zoo's whole networks (ResNet-50, MobileNetV2, BERT- and GPT-style, int8 MLP), at their real size")
	run := flag.String("run", "", "write only the cases whose name matches this regular expression")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: go run ./bench/gen [-batch N] [-run REGEXP] [-zoo] [DIR]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 1 || *batch < 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir := "bench-data"
	if flag.NArg() == 1 {
		dir = flag.Arg(0)
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
	n := 0
	for _, s := range bench.Standards() {
		if !re.MatchString(s.Name) {
			continue
		}
		if err := s.Write(dir, *batch); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		n++
	}
	for _, z := range bench.Zoo() {
		if !*zoo || !re.MatchString(z.Name) {
			continue
		}
		if err := z.Write(dir, 1); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		n++
	}
	fmt.Printf("wrote %d cases to %s\n", n, dir)
}
