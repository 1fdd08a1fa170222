package graph

// Version is onnxshape's version: the release this tree is, or the next
// one with "-dev" until it is tagged. `onnxshape version` prints it, with
// the build's revision when the build recorded one; CHANGELOG.md says what
// each release holds.
const Version = "0.1.0-dev"
