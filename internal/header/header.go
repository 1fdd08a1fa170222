// Package header lets the module's own engines reuse a tensor header (the
// *tensor.Tensor value: type, shape and a reference to storage) from one
// run of a model to the next, which package tensor's public API does not
// allow: a Tensor handed to anyone is immutable. The model runner calls
// these only on headers it made itself and that nothing outside the run
// can still reach (see graph's reusable headers), so no caller ever sees
// a Tensor change.
//
// Package tensor sets the functions when it is initialised; the arguments
// are *tensor.Tensor values passed as any to avoid an import cycle.
package header

// Rewrap points dst, a *tensor.Tensor of a non-string type, at buf, keeping
// its element type and shape. It reports false, changing nothing, when dst
// is not such a tensor or buf's length is not dst's byte size.
var Rewrap func(dst any, buf []byte) bool

// Detach lets dst, a *tensor.Tensor, go of its storage, so that a header
// kept for a later run does not keep a released value's storage alive.
// Until Rewrap or Review points it at storage again, nothing may read it.
var Detach func(dst any)

// Review points dst at the storage of src, keeping dst's element type and
// shape. It reports false, changing nothing, when the two are not
// *tensor.Tensor values of one element type and element count.
var Review func(dst, src any) bool
