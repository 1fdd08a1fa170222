package gemm

import "sync"

// Scratch accounts for the packing scratch of many products under one
// budget: a node that runs a product per batch, per group or per time step
// (MatMul over a batch, Conv over groups, LSTM over a sequence, attention
// over tiles) would otherwise charge Config.Charge the same reused buffers
// at every call, and a long batch or sequence would pass the run's cap
// though it never holds more than a few buffers at once.
//
// With Config.Scratch set, a product takes its scratch from the account
// and gives it back when it returns; the account charges Config.Charge
// only when the bytes in use at once pass what it has charged already, so
// the total charged is the most scratch the products ever held at the same
// time, not the sum over calls. Products run by the parts of a
// parallel.RangeW take their part's slot (Slot), so that the charge is
// the sum of each part's most, the same at every run, not what the parts
// happened to hold at the same instant. The buffers themselves come from a pool
// and are reused across calls either way.
//
// The zero value is an empty account; it is safe for products running at
// once on several goroutines. A Scratch lives as long as the budget it
// charges: one operator call (a node of a run), never longer, since the
// run's budget forgets a node's charges when the node ends.
type Scratch struct {
	mu      sync.Mutex
	charged int64 // bytes charged to the budget so far
	inUse   int64 // bytes the products under way hold
	slots   []*Scratch
	// root is the account a slot belongs to, whose mutex guards the slot
	// too (nil: the account is its own root). One mutex for all the
	// slots keeps the calls of Config.Charge one at a time, as they were
	// through one shared account: a run's budget (the graph's) is not
	// safe for calls at once.
	root *Scratch
}

// guard returns the mutex that guards s: its root's.
func (s *Scratch) guard() *sync.Mutex {
	if s.root != nil {
		return &s.root.mu
	}
	return &s.mu
}

// Slot returns the account of part w of a parallel.RangeW whose parts
// each run their products one after another: part 0's is s itself, the
// others' an account of their own that s keeps for its next split. A
// shared high-water mark would charge what happened to overlap: two
// products that ran side by side twice what the same two charge when one
// part finished before the other started. Per part, the charge is the
// most that part held, the same at every run with the same cores. A nil
// s gives nil (each product charges its own scratch).
func (s *Scratch) Slot(w int) *Scratch {
	if s == nil || w <= 0 {
		return s
	}
	m := s.guard()
	m.Lock()
	defer m.Unlock()
	root := s
	if s.root != nil {
		root = s.root
	}
	for len(s.slots) < w {
		s.slots = append(s.slots, &Scratch{root: root})
	}
	return s.slots[w-1]
}

// take reserves bytes of scratch for one product, charging cfg.Charge for
// what passes the account's high-water mark.
func (s *Scratch) take(cfg Config, bytes int64) error {
	if bytes <= 0 {
		return nil
	}
	if s == nil {
		if cfg.Charge == nil {
			return nil
		}
		return cfg.Charge(bytes)
	}
	m := s.guard()
	m.Lock()
	defer m.Unlock()
	need := s.inUse + bytes
	if need > s.charged {
		if cfg.Charge != nil {
			if err := cfg.Charge(need - s.charged); err != nil {
				return err
			}
		}
		s.charged = need
	}
	s.inUse = need
	return nil
}

// give returns bytes taken by take.
func (s *Scratch) give(bytes int64) {
	if s == nil || bytes <= 0 {
		return
	}
	m := s.guard()
	m.Lock()
	s.inUse -= bytes
	m.Unlock()
}

// Charged returns the bytes the account and its slots have charged so
// far: the most scratch each held at once.
func (s *Scratch) Charged() int64 {
	if s == nil {
		return 0
	}
	m := s.guard()
	m.Lock()
	defer m.Unlock()
	return s.chargedLocked()
}

// chargedLocked is Charged with the root's mutex held.
func (s *Scratch) chargedLocked() int64 {
	c := s.charged
	for _, p := range s.slots {
		c += p.chargedLocked()
	}
	return c
}
