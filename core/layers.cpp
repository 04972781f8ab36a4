// SPDX-License-Identifier: GPL-3.0-or-later
#include "layers.h"

#include <cmath>

#include "error.h"

namespace attnviz {

void linear(const Mat& x, const Tensor& w, const Tensor* b, Mat& y) {
    y.noalias() = x * w.m.transpose();
    if (b) y.rowwise() += Eigen::Map<const Vec>(b->data(), 1, b->numel());
}

void layerNorm(const Mat& x, const Tensor& weight, const Tensor& bias, Mat& y) {
    const auto d = x.cols();
    y.resize(x.rows(), d);
    Eigen::Map<const Vec> w(weight.data(), 1, d), bb(bias.data(), 1, d);
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const float mean = x.row(r).mean();
        const float var = (x.row(r).array() - mean).square().mean();
        const float inv = 1.0f / std::sqrt(var + 1e-5f);
        y.row(r) = ((x.row(r).array() - mean) * inv * w.array() + bb.array()).matrix();
    }
}

Mat positionalEncoding(int T, int d) {
    Mat pe(T, d);
    for (int t = 0; t < T; ++t) {
        for (int c = 0; c < d; ++c) {
            const int i2 = c - (c % 2);  // 2i
            const double angle = t / std::pow(10000.0, static_cast<double>(i2) / d);
            pe(t, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

void embed(const Tensor& table, const std::vector<int>& ids, int T, Mat& x) {
    const auto d = table.m.cols();
    const auto V = table.m.rows();
    const float scale = std::sqrt(static_cast<float>(d));
    const Mat pe = positionalEncoding(T, static_cast<int>(d));
    x.resize(static_cast<Eigen::Index>(ids.size()), d);
    for (size_t r = 0; r < ids.size(); ++r) {
        const int id = ids[r];
        if (id < 0 || id >= V) throw Error("token id " + std::to_string(id) + " out of range");
        x.row(Eigen::Index(r)) = table.m.row(id) * scale + pe.row(Eigen::Index(r % size_t(T)));
    }
}

}  // namespace attnviz
