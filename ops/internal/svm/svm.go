// Package svm computes the support-vector machines of ai.onnx.ml: the
// kernel values of rows against support vectors, the one-vs-one scores and
// votes of libsvm's multi-class classifier, and the pairwise-coupling
// probabilities of prob_a and prob_b. SVMClassifier and SVMRegressor use
// it; the post-transforms are ops/internal/mlpost's.
//
// The kernels LINEAR, POLY and SIGMOID are matrix products of the rows and
// the support vectors, which go through ops/internal/gemm in float64; RBF
// is a distance, computed directly. Everything is float64.
//
// It never allocates beyond its Probabilities scratch (which the caller
// passes), never writes into its inputs, and looks at the context between
// blocks of rows in Products.
package svm

import (
	"context"
	"math"

	"github.com/onnxshape/onnxshape/ops/internal/gemm"
)

// KernelType is a kernel_type.
type KernelType uint8

// The kernels of kernel_type.
const (
	Linear KernelType = iota
	Poly
	RBF
	Sigmoid
)

// Kernel is a kernel function with its kernel_params.
type Kernel struct {
	Type                 KernelType
	Gamma, Coef0, Degree float64
}

// Products writes out[r*n+v] = K(x_r, sv_v) for the rows of x (rows x
// features) and the n support vectors of sv (n x features): LINEAR x·sv,
// POLY (gamma x·sv + coef0)^degree, SIGMOID tanh(gamma x·sv + coef0), RBF
// exp(-gamma |x-sv|^2).
func (k Kernel) Products(cfg gemm.Config, x []float64, rows, features int, sv []float64, n int, out []float64) error {
	if rows == 0 || n == 0 {
		return nil
	}
	if k.Type == RBF {
		for r := range rows {
			if r%64 == 0 && cfg.Ctx != nil {
				if err := cfg.Ctx.Err(); err != nil {
					return err
				}
			}
			xr := x[r*features : (r+1)*features]
			for v := range n {
				s := sv[v*features : (v+1)*features]
				sum := 0.0
				for f, a := range xr {
					d := a - s[f]
					sum += d * d
				}
				out[r*n+v] = math.Exp(-k.Gamma * sum)
			}
		}
		return nil
	}
	alpha := 1.0
	if k.Type != Linear {
		alpha = k.Gamma
	}
	if features == 0 {
		clear(out[:rows*n])
	} else if err := gemm.Float64(cfg, false, true, rows, n, features, alpha, x, features, sv, features, 0, out, n); err != nil {
		return err
	}
	switch k.Type {
	case Poly:
		for i, v := range out[:rows*n] {
			out[i] = math.Pow(v+k.Coef0, k.Degree)
		}
	case Sigmoid:
		for i, v := range out[:rows*n] {
			out[i] = math.Tanh(v + k.Coef0)
		}
	}
	return checkCtx(cfg.Ctx)
}

func checkCtx(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	return ctx.Err()
}

// OneVsOne scores the classes' pairs (i, j), i < j in order, from one
// row's kernel values kv (one per support vector, the classes' vectors
// one after another, perClass of each): the score of (i, j) is class i's
// vectors weighted by row j-1 of coef plus class j's weighted by row i
// (coef is classes-1 rows of len(kv)) plus rho of the pair, libsvm's
// layout; a score above 0 is a vote for i, else for j. start is where
// each class's vectors begin; scores has one entry per pair and votes one
// per class (cleared here).
func OneVsOne(kv []float64, perClass, start []int, coef, rho []float64, scores []float64, votes []int) {
	clear(votes)
	v := len(kv)
	pair := 0
	for i := range perClass {
		for j := i + 1; j < len(perClass); j++ {
			sum := 0.0
			for m := range perClass[i] {
				sum += coef[(j-1)*v+start[i]+m] * kv[start[i]+m]
			}
			for m := range perClass[j] {
				sum += coef[i*v+start[j]+m] * kv[start[j]+m]
			}
			sum += rho[pair]
			scores[pair] = sum
			if sum > 0 {
				votes[i]++
			} else {
				votes[j]++
			}
			pair++
		}
	}
}

// ProbabilitiesScratch is the memory Probabilities needs for k classes, in
// float64s.
func ProbabilitiesScratch(k int) int { return 2*k*k + k }

// Probabilities turns the pair scores of OneVsOne into k class
// probabilities (out): each pair's probability 1 - logistic(score*a + b),
// clamped to [1e-7, 1-1e-7], then libsvm's pairwise coupling
// (multiclass_probability: Wu, Lin and Weng's second method, at most 100
// iterations, stopping when the error is below 0.005/k). scratch holds
// ProbabilitiesScratch(k) values.
func Probabilities(scores, probA, probB []float64, k int, scratch, out []float64) {
	r, q, qp := scratch[:k*k], scratch[k*k:2*k*k], scratch[2*k*k:2*k*k+k]
	clear(r)
	clear(q)
	pair := 0
	for i := range k {
		for j := i + 1; j < k; j++ {
			p := 1 - 1/(1+math.Exp(-(scores[pair]*probA[pair]+probB[pair])))
			p = math.Min(math.Max(p, 1e-7), 1-1e-7)
			r[i*k+j], r[j*k+i] = p, 1-p
			pair++
		}
	}
	for i := range k {
		out[i] = 1 / float64(k)
		for j := range i {
			q[i*k+i] += r[j*k+i] * r[j*k+i]
			q[i*k+j] = q[j*k+i]
		}
		for j := i + 1; j < k; j++ {
			q[i*k+i] += r[j*k+i] * r[j*k+i]
			q[i*k+j] = -r[j*k+i] * r[i*k+j]
		}
	}
	eps := 0.005 / float64(k)
	for range 100 {
		pqp := 0.0
		for i := range k {
			qp[i] = 0
			for j := range k {
				qp[i] += q[i*k+j] * out[j]
			}
			pqp += out[i] * qp[i]
		}
		worst := 0.0
		for i := range k {
			worst = math.Max(worst, math.Abs(qp[i]-pqp))
		}
		if worst < eps {
			break
		}
		for i := range k {
			diff := (-qp[i] + pqp) / q[i*k+i]
			out[i] += diff
			pqp = (pqp + diff*(diff*q[i*k+i]+2*qp[i])) / (1 + diff) / (1 + diff)
			for j := range k {
				qp[j] = (qp[j] + diff*q[i*k+j]) / (1 + diff)
				out[j] /= 1 + diff
			}
		}
	}
}
