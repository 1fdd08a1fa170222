package graph

// PoolFreshBytes returns the bytes p allocated new rather than recycled:
// with sizes that repeat, the most storage the pool's runs held at once.
func PoolFreshBytes(p *Pool) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fresh
}
