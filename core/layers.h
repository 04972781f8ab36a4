// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small dense layers on row-stacked activations: a batch of B sequences padded to T is an
// [B*T, d] matrix whose sequence b occupies rows b*T .. b*T+T-1.
#include "tensor.h"

namespace attnviz {

// y [N, out] = x [N, in] · Wᵀ [in, out] + b [out]   (W [out, in], b may be null)
void linear(const Mat& x, const Tensor& w, const Tensor* b, Mat& y);

// Row-wise LayerNorm with eps 1e-5: y = (x - mean) / sqrt(var + eps) * weight + bias.
// x, y [N, d]; weight, bias [d].
void layerNorm(const Mat& x, const Tensor& weight, const Tensor& bias, Mat& y);

// Sinusoidal position encoding PE [T, d]: PE(t,2i) = sin(t/10000^(2i/d)), PE(t,2i+1) = cos(…).
Mat positionalEncoding(int T, int d);

// x [B*T, d] = E[ids] · sqrt(d) + PE(t); ids [B*T] with position t = row mod T.
void embed(const Tensor& table, const std::vector<int>& ids, int T, Mat& x);

}  // namespace attnviz
