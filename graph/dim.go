package graph

import (
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// Dim is one dimension of a shape, the one vocabulary of graph (a model's
// declared shapes), builder (InputDims) and infer (inferred shapes): a known
// size (Const), a symbol (Sym: a model's dim_param, such as "N" or
// "height"), or an expression over symbols that inference derives ("H*W",
// "floor((H-1)/2)+1"). A dimension a model leaves undeclared is the symbol
// "?". The zero Dim is the constant 0. Dims are values: every operation
// returns a new one.
//
// An expression is held as a polynomial with integer coefficients over
// atoms: symbols, and the operations a polynomial cannot express exactly
// (floor and ceil division, remainder, max, min), whose arguments are
// Dims again. Sums and products are multiplied out and like terms
// combined, so N*(H+1) and H*N+N are one Dim.
type Dim struct {
	terms []term // sorted by monomial key; no zero coefficient
}

// term is coef times the product of atoms (sorted by key; repeated for a
// power).
type term struct {
	coef  int64
	atoms []atom
}

// atom is a symbol (op == "") or an irreducible operation on Dims.
type atom struct {
	op   string // "", "floor", "ceil", "mod", "max", "min"
	name string // the symbol, when op == ""
	args []Dim
	key  string // the canonical text, for ordering and equality
}

// Const returns the dimension n.
func Const(n int64) Dim {
	if n == 0 {
		return Dim{}
	}
	return Dim{terms: []term{{coef: n}}}
}

// Sym returns the symbolic dimension name ("N", "batch", "H").
func Sym(name string) Dim {
	return Dim{terms: []term{{coef: 1, atoms: []atom{{name: name, key: name}}}}}
}

// Symbol returns the symbol's name when d is one symbol, as a model's
// dim_param is: "N" for Sym("N"), false for a number or an expression.
func (d Dim) Symbol() (string, bool) {
	if len(d.terms) == 1 && d.terms[0].coef == 1 && len(d.terms[0].atoms) == 1 && d.terms[0].atoms[0].op == "" {
		return d.terms[0].atoms[0].name, true
	}
	return "", false
}

// Value returns the dimension's size when it is a known number.
func (d Dim) Value() (int64, bool) {
	switch len(d.terms) {
	case 0:
		return 0, true
	case 1:
		if len(d.terms[0].atoms) == 0 {
			return d.terms[0].coef, true
		}
	}
	return 0, false
}

// IsKnown reports whether the dimension is a number.
func (d Dim) IsKnown() bool { _, ok := d.Value(); return ok }

// Equal reports whether two dimensions have the same canonical expression.
func (d Dim) Equal(e Dim) bool {
	if len(d.terms) != len(e.terms) {
		return false
	}
	for i, t := range d.terms {
		u := e.terms[i]
		if t.coef != u.coef || len(t.atoms) != len(u.atoms) {
			return false
		}
		for k, a := range t.atoms {
			if a.key != u.atoms[k].key {
				return false
			}
		}
	}
	return true
}

// Sign returns 1 when d is positive for every value of its symbols, -1
// when it is negative, 0 when that depends on them. Symbols are sizes, so
// never negative, and so are floor, ceil, mod, max and min of sizes: N+1
// is positive, -N-1 negative, N-1 undecided.
func (d Dim) Sign() int {
	if v, ok := d.Value(); ok {
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	pos, neg := true, true
	var constant int64
	for _, t := range d.terms {
		if len(t.atoms) == 0 {
			constant = t.coef
			continue
		}
		pos = pos && t.coef > 0
		neg = neg && t.coef < 0
	}
	switch {
	case pos && constant > 0:
		return 1
	case neg && constant < 0:
		return -1
	}
	return 0
}

// bounds reports whether d is never negative and whether it is never
// positive, whatever the sizes its symbols stand for.
func (d Dim) bounds() (nonneg, nonpos bool) {
	nonneg, nonpos = true, true
	for _, t := range d.terms {
		nonneg = nonneg && t.coef >= 0
		nonpos = nonpos && t.coef <= 0
	}
	return nonneg, nonpos
}

// ExprSize measures the expression: its terms and the text of their
// atoms. Inference caps it, so that a shape computed in a loop cannot grow
// without bound.
func (d Dim) ExprSize() int {
	n := len(d.terms)
	for _, t := range d.terms {
		for _, a := range t.atoms {
			n += len(a.key)
		}
	}
	return n
}

// Symbols returns the symbols the dimension depends on, sorted.
func (d Dim) Symbols() []string {
	seen := map[string]bool{}
	var walk func(Dim)
	walk = func(d Dim) {
		for _, t := range d.terms {
			for _, a := range t.atoms {
				if a.op == "" {
					seen[a.name] = true
				}
				for _, x := range a.args {
					walk(x)
				}
			}
		}
	}
	walk(d)
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func monomialKey(atoms []atom) string {
	keys := make([]string, len(atoms))
	for i, a := range atoms {
		keys[i] = a.key
	}
	return strings.Join(keys, "*")
}

// normalize sorts terms and combines like ones. ok is false when a
// coefficient overflows int64.
func normalize(ts []term) (Dim, bool) {
	type keyed struct {
		term
		key string
	}
	out := make([]keyed, 0, len(ts))
	for _, t := range ts {
		if t.coef == 0 {
			continue
		}
		atoms := t.atoms
		if !sort.SliceIsSorted(atoms, func(i, j int) bool { return atoms[i].key < atoms[j].key }) {
			atoms = append([]atom{}, atoms...)
			sort.Slice(atoms, func(i, j int) bool { return atoms[i].key < atoms[j].key })
		}
		k := monomialKey(atoms)
		found := false
		for i := range out {
			if out[i].key == k {
				s, ok := addInt(out[i].coef, t.coef)
				if !ok {
					return Dim{}, false
				}
				out[i].coef = s
				found = true
				break
			}
		}
		if !found {
			out = append(out, keyed{term{coef: t.coef, atoms: atoms}, k})
		}
	}
	kept := out[:0]
	for _, t := range out {
		if t.coef != 0 {
			kept = append(kept, t)
		}
	}
	// Falling degree, then key, so that constants come last: N*H*W+2*H-3.
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if len(a.atoms) != len(b.atoms) {
			return len(a.atoms) > len(b.atoms)
		}
		return a.key < b.key
	})
	terms := make([]term, len(kept))
	for i, t := range kept {
		terms[i] = t.term
	}
	return Dim{terms: terms}, true
}

func addInt(a, b int64) (int64, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return 0, false
	}
	return s, true
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(abs(a)), uint64(abs(b)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	p := int64(lo)
	if (a < 0) != (b < 0) {
		p = -p
	}
	return p, true
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// opaque wraps a result that overflowed int64 as an atom, so that it stays
// a valid, if unsimplified, expression.
func opaque(op string, args ...Dim) Dim {
	a := atom{op: op, args: args}
	a.key = a.render()
	return Dim{terms: []term{{coef: 1, atoms: []atom{a}}}}
}

// Add returns d + e.
func (d Dim) Add(e Dim) Dim {
	r, ok := normalize(append(append([]term{}, d.terms...), e.terms...))
	if !ok {
		return opaque("add", d, e)
	}
	return r
}

// Neg returns -d.
func (d Dim) Neg() Dim {
	ts := make([]term, len(d.terms))
	for i, t := range d.terms {
		if t.coef == math.MinInt64 {
			return opaque("neg", d)
		}
		ts[i] = term{coef: -t.coef, atoms: t.atoms}
	}
	return Dim{terms: ts}
}

// Sub returns d - e.
func (d Dim) Sub(e Dim) Dim { return d.Add(e.Neg()) }

// maxTerms bounds the terms of a product multiplied out; a larger one
// stays a product, so that repeated squaring of sums cannot grow without
// end.
const maxTerms = 64

// Mul returns d * e, multiplied out.
func (d Dim) Mul(e Dim) Dim {
	if len(d.terms)*len(e.terms) > maxTerms {
		return opaque("mul", d, e)
	}
	var ts []term
	for _, a := range d.terms {
		for _, b := range e.terms {
			c, ok := mulInt(a.coef, b.coef)
			if !ok {
				return opaque("mul", d, e)
			}
			ts = append(ts, term{coef: c, atoms: append(append([]atom{}, a.atoms...), b.atoms...)})
		}
	}
	r, ok := normalize(ts)
	if !ok {
		return opaque("mul", d, e)
	}
	return r
}

// FloorDiv returns floor(d / e). A division by a constant that divides
// every coefficient is exact; a division by zero is the atom floor(d/0),
// which the caller's shape rule should have refused first.
func (d Dim) FloorDiv(e Dim) Dim {
	if q, ok := d.DivExact(e); ok {
		return q
	}
	if x, ok := d.Value(); ok {
		if y, ok := e.Value(); ok && y != 0 {
			return Const(floorDiv(x, y))
		}
	}
	return atomOf("floor", d, e)
}

// CeilDiv returns ceil(d / e).
func (d Dim) CeilDiv(e Dim) Dim {
	if q, ok := d.DivExact(e); ok {
		return q
	}
	if x, ok := d.Value(); ok {
		if y, ok := e.Value(); ok && y != 0 {
			return Const(-floorDiv(-x, y))
		}
	}
	return atomOf("ceil", d, e)
}

// Mod returns d mod e, with the sign of e as Python's %.
func (d Dim) Mod(e Dim) Dim {
	if x, ok := d.Value(); ok {
		if y, ok := e.Value(); ok && y != 0 {
			return Const(x - floorDiv(x, y)*y)
		}
	}
	if _, ok := d.DivExact(e); ok {
		return Const(0)
	}
	return atomOf("mod", d, e)
}

// Max returns the larger of d and e; max(N+1, N) is N+1, as sizes are
// never negative (see Sign).
func (d Dim) Max(e Dim) Dim {
	if d.Equal(e) {
		return d
	}
	switch nonneg, nonpos := d.Sub(e).bounds(); {
	case nonneg:
		return d
	case nonpos:
		return e
	}
	if x, ok := d.Value(); ok {
		if y, ok := e.Value(); ok {
			return Const(max(x, y))
		}
	}
	return atomOf("max", d, e)
}

// Min returns the smaller of d and e.
func (d Dim) Min(e Dim) Dim {
	if d.Equal(e) {
		return d
	}
	switch nonneg, nonpos := d.Sub(e).bounds(); {
	case nonneg:
		return e
	case nonpos:
		return d
	}
	if x, ok := d.Value(); ok {
		if y, ok := e.Value(); ok {
			return Const(min(x, y))
		}
	}
	return atomOf("min", d, e)
}

// DivExact returns d / e when the division is exact: e is a nonzero
// constant dividing every coefficient, e equals d, or e is one term (3*N,
// H*W) that divides every term of d.
func (d Dim) DivExact(e Dim) (Dim, bool) {
	y, ok := e.Value()
	if !ok {
		if len(d.terms) > 0 && d.Equal(e) {
			return Const(1), true
		}
		return d.divMonomial(e)
	}
	if y == 0 {
		return Dim{}, false
	}
	ts := make([]term, len(d.terms))
	for i, t := range d.terms {
		if t.coef%y != 0 {
			return Dim{}, false
		}
		ts[i] = term{coef: t.coef / y, atoms: t.atoms}
	}
	return Dim{terms: ts}, true
}

// divMonomial divides d by a single term e (3*N, H*W) when every term of
// d is a multiple of it: N*C*H*W / N is C*H*W.
func (d Dim) divMonomial(e Dim) (Dim, bool) {
	if len(e.terms) != 1 || e.terms[0].coef == 0 || len(d.terms) == 0 {
		return Dim{}, false
	}
	div := e.terms[0]
	ts := make([]term, len(d.terms))
	for i, t := range d.terms {
		if t.coef%div.coef != 0 {
			return Dim{}, false
		}
		rest, ok := removeAtoms(t.atoms, div.atoms)
		if !ok {
			return Dim{}, false
		}
		ts[i] = term{coef: t.coef / div.coef, atoms: rest}
	}
	r, ok := normalize(ts)
	return r, ok
}

// removeAtoms returns atoms less one occurrence of each of drop.
func removeAtoms(atoms, drop []atom) ([]atom, bool) {
	rest := append([]atom{}, atoms...)
	for _, a := range drop {
		found := false
		for i, b := range rest {
			if b.key == a.key {
				rest = append(rest[:i], rest[i+1:]...)
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return rest, true
}

func floorDiv(x, y int64) int64 {
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

func atomOf(op string, args ...Dim) Dim {
	if op == "max" || op == "min" {
		sort.Slice(args, func(i, j int) bool { return args[i].String() < args[j].String() })
	}
	return opaque(op, args...)
}

// String renders the dimension: "3", "N", "H*W", "2*N+1",
// "floor((H-1)/2)+1".
func (d Dim) String() string {
	if len(d.terms) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, t := range d.terms {
		c := t.coef
		switch {
		case i > 0 && c < 0:
			b.WriteString("-")
			c = -c
		case i > 0:
			b.WriteString("+")
		case c < 0 && len(t.atoms) > 0:
			b.WriteString("-")
			c = -c
		}
		if len(t.atoms) == 0 {
			b.WriteString(strconv.FormatInt(c, 10))
			continue
		}
		if c != 1 {
			b.WriteString(strconv.FormatInt(c, 10))
			b.WriteString("*")
		}
		for k, a := range t.atoms {
			if k > 0 {
				b.WriteString("*")
			}
			b.WriteString(a.key)
		}
	}
	return b.String()
}

func (a atom) render() string {
	if a.op == "" {
		return a.name
	}
	switch a.op {
	case "floor", "ceil":
		return fmt.Sprintf("%s(%s/%s)", a.op, group(a.args[0], false), group(a.args[1], true))
	case "mod":
		return fmt.Sprintf("(%s mod %s)", group(a.args[0], false), group(a.args[1], true))
	}
	parts := make([]string, len(a.args))
	for i, x := range a.args {
		parts[i] = x.String()
	}
	return a.op + "(" + strings.Join(parts, ",") + ")"
}

// group puts parentheses around a sum, so that it reads as one operand,
// and, for a divisor, around a product too.
func group(d Dim, divisor bool) string {
	s := d.String()
	single := len(d.terms) == 1 && d.terms[0].coef > 0
	product := single && (len(d.terms[0].atoms) > 1 || (len(d.terms[0].atoms) == 1 && d.terms[0].coef != 1))
	if !single && len(d.terms) > 0 || divisor && product {
		return "(" + s + ")"
	}
	return s
}

// MarshalJSON writes a known dimension as a number, a symbolic one as its
// expression: 3, "N", "H*W".
func (d Dim) MarshalJSON() ([]byte, error) {
	if v, ok := d.Value(); ok {
		return []byte(strconv.FormatInt(v, 10)), nil
	}
	return json.Marshal(d.String())
}
