package tensor

import (
	"errors"
	"fmt"
)

// Map is an ONNX map, map(K, tensor(V)): keys of type int64 or string, each
// with one scalar value of a tensor element type, what the ai.onnx.ml
// operators read and write (ZipMap, CastMap, DictVectorizer). Keys and
// Values are two 1-D tensors of one length: entry i is Keys[i] -> Values[i].
//
// The entries keep the order they were made in, as ONNX's MapProto lists
// them (keys and values side by side) and as ZipMap makes them (the order of
// its labels). onnxruntime keeps its maps sorted by key instead; the order
// changes no operator's result (CastMap sorts by key, as its specification
// says; DictVectorizer looks keys up), only the order in which a map is
// printed or walked.
//
// A key appears once. Build maps with NewMap, which checks that; Check
// checks everything but that (it needs no memory).
type Map struct {
	Keys   *Tensor
	Values *Tensor
}

// MapSequence is an ONNX sequence of maps, seq(map(K, tensor(V))), what
// ZipMap returns: one map per row of its input. KeyType and ValueType hold
// even when Items is empty.
type MapSequence struct {
	KeyType   DataType
	ValueType DataType
	Items     []*Map
}

// NewMap returns the map keys[i] -> values[i]: keys a 1-D tensor of int64 or
// string, values a 1-D tensor of one length, keys never repeated.
func NewMap(keys, values *Tensor) (*Map, error) {
	m := &Map{Keys: keys, Values: values}
	if err := m.Check(); err != nil {
		return nil, err
	}
	if i, j, dup := RepeatedKey(keys); dup {
		return nil, fmt.Errorf("map keys %d and %d are both %s (%w)", i, j, m.KeyString(i), ErrType)
	}
	return m, nil
}

// MapOf returns the map keys[i] -> values[i] of two Go slices, e.g.
// MapOf([]string{"a", "b"}, []float32{0.25, 0.75}).
func MapOf[K int64 | string, V Element](keys []K, values []V) (*Map, error) {
	k, err := FromSlice(keys, len(keys))
	if err != nil {
		return nil, err
	}
	v, err := FromSlice(values, len(values))
	if err != nil {
		return nil, err
	}
	return NewMap(k, v)
}

// Check returns an error when m is not a well-formed map: nil, keys of a
// type other than int64 and string, keys or values that are not 1-D
// tensors of one length. It does not look for repeated keys (NewMap does;
// the operators that read a map do so under the run's accounting).
func (m *Map) Check() error {
	switch {
	case m == nil:
		return errors.New("is a nil map")
	case m.Keys == nil || m.Values == nil:
		return errors.New("is a map without keys or values (make maps with tensor.NewMap)")
	case m.Keys.DataType() != Int64 && m.Keys.DataType() != String:
		return fmt.Errorf("is a map with keys of %v, not int64 or string (%w)", m.Keys.DataType(), ErrType)
	case !m.Values.DataType().Valid():
		return fmt.Errorf("is a map whose values have no element type (%w)", ErrType)
	case m.Keys.Rank() != 1 || m.Values.Rank() != 1 || m.Keys.Len() != m.Values.Len():
		return fmt.Errorf("is a map whose keys %v and values %v are not two 1-D tensors of one length (%w)", m.Keys.Shape(), m.Values.Shape(), ErrShape)
	}
	return nil
}

// RepeatedKey finds the first key of a 1-D int64 or string tensor that
// repeats an earlier one: keys[first] == keys[again], first < again. It
// makes a Go map as large as keys: a caller under a run's accounting
// charges that first.
func RepeatedKey(keys *Tensor) (first, again int, ok bool) {
	if keys.DataType() == String {
		return repeated(keys.Strings())
	}
	return repeated(asInt64s(keys))
}

func repeated[K comparable](keys []K) (first, again int, ok bool) {
	seen := make(map[K]int, len(keys))
	for j, k := range keys {
		if i, ok := seen[k]; ok {
			return i, j, true
		}
		seen[k] = j
	}
	return 0, 0, false
}

// Len returns the number of entries (0 for a nil map).
func (m *Map) Len() int {
	if m == nil || m.Keys == nil {
		return 0
	}
	return m.Keys.Len()
}

// KeyType returns the type of the keys: Int64 or String.
func (m *Map) KeyType() DataType { return m.Keys.DataType() }

// ValueType returns the element type of the values.
func (m *Map) ValueType() DataType { return m.Values.DataType() }

// KeyString returns key i as text (an int64 key in decimal).
func (m *Map) KeyString(i int) string {
	if m.Keys.DataType() == String {
		return m.Keys.Strings()[i]
	}
	return fmt.Sprint(asInt64s(m.Keys)[i])
}

// Int64Keys returns the keys of an int64-keyed map, read-only; nil for
// string keys.
func (m *Map) Int64Keys() []int64 {
	if m.Keys.DataType() != Int64 {
		return nil
	}
	return asInt64s(m.Keys)
}

// StringKeys returns the keys of a string-keyed map, read-only; nil for
// int64 keys.
func (m *Map) StringKeys() []string {
	if m.Keys.DataType() != String {
		return nil
	}
	return m.Keys.Strings()
}

func asInt64s(t *Tensor) []int64 {
	d, _ := Data[int64](t)
	return d
}

// Describe implements Value: "map(int64,tensor(float))[3 entries]".
func (m *Map) Describe() string {
	if m == nil {
		return "<nil map>"
	}
	if m.Check() != nil {
		return "<malformed map>"
	}
	return fmt.Sprintf("map(%v,tensor(%v))[%d entries]", m.KeyType(), m.ValueType(), m.Len())
}

// Describe implements Value: "seq(map(int64,tensor(float)))[2 items]".
func (s *MapSequence) Describe() string {
	if s == nil {
		return "<nil sequence>"
	}
	return fmt.Sprintf("seq(map(%v,tensor(%v)))[%d items]", s.KeyType, s.ValueType, len(s.Items))
}

// Check returns an error when s is nil, holds a malformed map, or a map
// whose key or value type is not s's.
func (s *MapSequence) Check() error {
	if s == nil {
		return errors.New("is a nil sequence")
	}
	for i, m := range s.Items {
		if err := m.Check(); err != nil {
			return fmt.Errorf("item %d %w", i, err)
		}
		if m.KeyType() != s.KeyType || m.ValueType() != s.ValueType {
			return fmt.Errorf("item %d is map(%v,tensor(%v)) in a sequence of map(%v,tensor(%v)) (%w)", i, m.KeyType(), m.ValueType(), s.KeyType, s.ValueType, ErrType)
		}
	}
	return nil
}
