// Package infer knows the type and shape of every value of a model without
// running it: dimensions are numbers or symbolic expressions (N, H*W,
// floor((H-1)/2)+1), carried through each operator's shape rule and kept
// in a canonical form, so that two dimensions are equal exactly when their
// expressions are.
//
// File infers a model file, Bytes an encoded model and Model a model
// package graph has loaded; each returns a Result listing every value of
// the main graph as a *Value (element type, shape as []graph.Dim, contents when
// known) and the Problems inference found: a node that refuses its inputs,
// a declaration the inferred type contradicts, an operator without a rule.
// Options fix the inputs' shapes (InputShapes) and cap the values whose
// contents inference computes (MaxFoldBytes).
//
// Fold replaces what is known before the model runs by constants and
// removes the nodes that become needless, returning the folded model's
// bytes; Annotate writes the inferred types into a model's value_info.
//
// The context is each long call's first argument: once it is done,
// inference stops and the call returns its error (errors.Is matches
// context.Canceled or context.DeadlineExceeded), never a partial Result.
//
// Proto, FoldProto and AnnotateProto are the same calls for a caller who
// holds the model as a protobuf message (package onnx/pb).
package infer
