package graph

// storageSet is the storage a run holds, with its holdings. A run holds a
// few pieces of storage at once (a chain, two or three), and looking one up
// happens twice per value: a short slice searched in turn costs less than a
// map. Past smallSet entries an index by key takes over.
type storageSet struct {
	entries []storageEntry
	index   map[storageKey]int // position in entries; nil while entries is short
}

type storageEntry struct {
	key storageKey
	holding
}

// smallSet is the most entries searched one by one.
const smallSet = 16

func (s *storageSet) len() int { return len(s.entries) }

// find returns the position of k in s.entries, or -1.
func (s *storageSet) find(k storageKey) int {
	if s.index != nil {
		if i, ok := s.index[k]; ok {
			return i
		}
		return -1
	}
	for i := range s.entries {
		if s.entries[i].key == k {
			return i
		}
	}
	return -1
}

// add stores a new entry for k, which s does not hold.
func (s *storageSet) add(k storageKey, h holding) {
	s.entries = append(s.entries, storageEntry{k, h})
	switch {
	case s.index != nil:
		s.index[k] = len(s.entries) - 1
	case len(s.entries) > smallSet:
		s.index = make(map[storageKey]int, len(s.entries))
		for i, e := range s.entries {
			s.index[e.key] = i
		}
	}
}

// remove deletes the entry at position i; the last entry takes its place.
func (s *storageSet) remove(i int) {
	last := len(s.entries) - 1
	if s.index != nil {
		delete(s.index, s.entries[i].key)
		if i != last {
			s.index[s.entries[last].key] = i
		}
	}
	s.entries[i] = s.entries[last]
	s.entries[last] = storageEntry{}
	s.entries = s.entries[:last]
}

// reset empties s, keeping a short slice for the next run.
func (s *storageSet) reset() {
	clear(s.entries)
	s.entries = s.entries[:0]
	if cap(s.entries) > 1024 {
		s.entries = nil
	}
	s.index = nil
}
