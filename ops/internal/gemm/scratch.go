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
// time (one call's, or the sum over products running at once on several
// cores), not the sum over calls. The buffers themselves come from a pool
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
	s.mu.Lock()
	defer s.mu.Unlock()
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
	s.mu.Lock()
	s.inUse -= bytes
	s.mu.Unlock()
}

// Charged returns the bytes the account has charged so far: the most
// scratch its products held at once.
func (s *Scratch) Charged() int64 {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.charged
}
