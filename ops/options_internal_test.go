package ops

import (
	"context"
	"testing"
)

// The Option values set the knobs the kernels read: the thread count a
// parallel loop splits into, the cap checkSize applies, the context a loop
// polls.
func TestOptionsReachKernelKnobs(t *testing.T) {
	o := NewOptions(WithThreads(1), WithMaxTensorBytes(100), WithProfile(ProfileSONNX))
	if got := o.threads(); got != 1 {
		t.Errorf("threads() = %d under WithThreads(1)", got)
	}
	if got := o.maxBytes(); got != 100 {
		t.Errorf("maxBytes() = %d under WithMaxTensorBytes(100)", got)
	}
	if o.Profile != ProfileSONNX {
		t.Errorf("Profile = %v under WithProfile(ProfileSONNX)", o.Profile)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := NewOptions(WithContext(ctx)).canceller()
	if !c.Stop(pollWork) {
		t.Error("a loop under a cancelled WithContext does not stop")
	}
	if NewOptions(nil, WithThreads(2)).Threads != 2 {
		t.Error("a nil Option is not skipped")
	}
}
