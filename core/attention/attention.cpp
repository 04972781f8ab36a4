// SPDX-License-Identifier: GPL-3.0-or-later
#include "attention.h"

#include <cmath>
#include <limits>

#include "error.h"

namespace attnviz {

std::string shapeToString(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

Init Init::xavier(int64_t fanIn, int64_t fanOut) {
    return uniform(std::sqrt(6.0 / static_cast<double>(fanIn + fanOut)));
}

void AttentionVariant::logits(const Mat&, const Mat&, int, int, int, std::vector<Mat>&) {
    throw Error("variant '" + m_cfg.variant + "' has no logits");
}

void AttentionVariant::weights(int, int, int, const AttentionMask&, std::vector<Mat>&) {
    throw Error("variant '" + m_cfg.variant + "' computes weights through logits");
}

const Tensor* AttentionVariant::find(const ParamStore& store, const std::string& prefix,
                                     const std::string& name) {
    auto it = store.find(prefix + name);
    if (it == store.end()) throw Error("missing tensor '" + prefix + name + "'");
    return &it->second;
}

void maskedSoftmax(const Mat& S, int b, const AttentionMask& mask, Mat& A) {
    const auto Tq = S.rows(), Tk = S.cols();
    A.resize(Tq, Tk);
    for (Eigen::Index i = 0; i < Tq; ++i) {
        float mx = -std::numeric_limits<float>::infinity();
        for (Eigen::Index j = 0; j < Tk; ++j)
            if (mask.allowed(b, int(i), int(j))) mx = std::max(mx, S(i, j));
        if (mx == -std::numeric_limits<float>::infinity()) {  // no allowed key
            A.row(i).setZero();
            continue;
        }
        float sum = 0;
        for (Eigen::Index j = 0; j < Tk; ++j) {
            const float e = mask.allowed(b, int(i), int(j)) ? std::exp(S(i, j) - mx) : 0.0f;
            A(i, j) = e;
            sum += e;
        }
        A.row(i) /= sum;
    }
}

}  // namespace attnviz
