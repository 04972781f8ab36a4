// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small dense layers on row-stacked activations: a batch of B sequences padded to T is an
// [B*T, d] matrix whose sequence b occupies rows b*T .. b*T+T-1. Each forward function has
// its backward beside it; backward functions *add* parameter gradients into the bound
// accumulators (Param::grad, skipped when null).
#include <vector>

#include "attention/attention.h"
#include "tensor.h"

namespace attnviz {

// y [N, out] = x [N, in] · Wᵀ [in, out] + b [out]   (W [out, in], b may be null)
void linear(const Mat& x, const Tensor& w, const Tensor* b, Mat& y);
void linear(const Mat& x, const Param& w, const Param& b, Mat& y);  // b may be empty
// dW += dyᵀ x, db += Σ_rows dy; dx = dy W (or dx += dy W when `accumulate`); dx may be null.
void linearBackward(const Mat& x, const Mat& dy, const Param& w, const Param& b, Mat* dx,
                    bool accumulate = false);

// Row-wise LayerNorm with eps 1e-5: y = (x - mean) / sqrt(var + eps) * weight + bias,
// keeping what its backward needs: xhat [N, d] and 1/sqrt(var + eps) [N].
struct LayerNorm {
    Param weight, bias;
    Mat xhat;
    ColVec rstd;
    Eigen::Array<Scalar, 1, Eigen::Dynamic> dxhat;  // backward's scratch row [d]
    // x [N, d] -> y [N, d]
    void forward(const Mat& x, Mat& y);
    // dy [N, d] -> dx [N, d] (dx = … or dx += … when `accumulate`); adds dweight, dbias.
    void backward(const Mat& dy, Mat& dx, bool accumulate);
};

// Sinusoidal position encoding PE [T, d]: PE(t,2i) = sin(t/10000^(2i/d)), PE(t,2i+1) = cos(…).
Mat positionalEncoding(int T, int d);

// x [B*T, d] = E[ids] · sqrt(d) + PE(t); ids [B*T] with position t = row mod T; pe [>= T, d].
void embed(const Tensor& table, const std::vector<int>& ids, int T, const Mat& pe, Mat& x);
// Backward of embed: dE[ids[r]] += sqrt(d) · dx[r] (dE [V, d], dx [B*T, d]).
void embedBackward(const std::vector<int>& ids, const Mat& dx, Tensor& dtable);

// Token cross-entropy of logits [N, V] against targets [N] (kPad = 0 rows are ignored).
// Label smoothing eps spreads eps uniformly over all V classes, as PyTorch's
// CrossEntropyLoss(label_smoothing=eps): q = (1 - eps)·onehot + eps / V.
struct CrossEntropy {
    double nll = 0;       // Σ -log p(target)
    double smoothed = 0;  // Σ of the smoothed loss (equals nll when eps = 0)
    int tokens = 0;       // non-pad rows
    int correct = 0;      // rows whose argmax is the target
};
// When dlogits is given it receives scale · d(smoothed sum)/dlogits = scale · (p − q),
// zero on pad rows.
// Rows whose target is `ignore` (default kPad = 0; -1 for class labels, where 0 is a class)
// count nowhere.
CrossEntropy crossEntropy(const Mat& logits, const std::vector<int>& targets, float smoothing,
                          float scale, Mat* dlogits, int ignore = 0);

}  // namespace attnviz
