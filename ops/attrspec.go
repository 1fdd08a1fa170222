package ops

import "sync"

// AttrSpec declares one attribute that some versions of an operator take.
// The model loader refuses, in every mode, an attribute a node's operator
// version does not declare and one of another type.
type AttrSpec struct {
	Name string
	Type AttrType
	// From and Before bound the since-versions that take the attribute:
	// From <= version < Before; 0 leaves that side open.
	From, Before int
}

// appliesTo reports whether the attribute belongs to since-version v.
func (a AttrSpec) appliesTo(v int) bool {
	return (a.From == 0 || v >= a.From) && (a.Before == 0 || v < a.Before)
}

var attrRegistry = struct {
	sync.RWMutex
	byName map[string][]AttrSpec // domain/name -> every version's attributes
}{byName: map[string][]AttrSpec{}}

// declareAttrs records the attributes of operator name (default domain) at
// every version; an operator that takes none calls it with no spec, so that
// "declared, none" differs from "not declared".
func declareAttrs(name string, specs ...AttrSpec) {
	declareDomainAttrs("", name, specs...)
}

// declareDomainAttrs is declareAttrs for an operator of another domain.
func declareDomainAttrs(domain, name string, specs ...AttrSpec) {
	attrRegistry.Lock()
	defer attrRegistry.Unlock()
	k := key(domain, name)
	attrRegistry.byName[k] = append(append([]AttrSpec{}, attrRegistry.byName[k]...), specs...)
	if attrRegistry.byName[k] == nil {
		attrRegistry.byName[k] = []AttrSpec{}
	}
}

// Attributes returns the attributes the schema's operator version takes;
// declared is false when the operator declares none at all (every
// operator of the registry should).
func (s *Schema) Attributes() (specs []AttrSpec, declared bool) {
	attrRegistry.RLock()
	defer attrRegistry.RUnlock()
	all, declared := attrRegistry.byName[key(s.Domain, s.Name)]
	for _, a := range all {
		if a.appliesTo(s.Since) {
			specs = append(specs, a)
		}
	}
	return specs, declared
}
