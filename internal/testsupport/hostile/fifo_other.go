//go:build !unix

package hostile

import "errors"

func mkfifo(string) error { return errors.New("named pipes are a Unix feature") }
