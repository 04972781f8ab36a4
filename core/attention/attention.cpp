// SPDX-License-Identifier: GPL-3.0-or-later
#include "attention.h"

#include <cmath>
#include <limits>

#include "error.h"

namespace attnviz {

Init Init::xavier(int64_t fanIn, int64_t fanOut) {
    return uniform(std::sqrt(6.0 / static_cast<double>(fanIn + fanOut)));
}

void AttentionVariant::logits(const Mat&, const Mat&, int, int, int, std::vector<Mat>&) {
    throw Error("variant '" + m_cfg.variant + "' has no logits");
}

void AttentionVariant::weights(int, int, int, const AttentionMask&, std::vector<Mat>&) {
    throw Error("variant '" + m_cfg.variant + "' computes weights through logits");
}

void AttentionVariant::logitsBackward(const std::vector<Mat>&, Mat&, Mat&) {
    throw Error("variant '" + m_cfg.variant + "' has no logits");
}

Param Bindings::find(const std::string& name) const {
    auto it = values->find(name);
    if (it == values->end()) throw Error("missing tensor '" + name + "'");
    Param p{&it->second, nullptr};
    if (grads) {
        auto g = grads->find(name);
        if (g != grads->end()) p.grad = &g->second;
    }
    return p;
}

void maskedSoftmax(const Mat& S, int b, const AttentionMask& mask, Mat& A) {
    const auto Tq = S.rows(), Tk = S.cols();
    A.setZero(Tq, Tk);
    for (Eigen::Index i = 0; i < Tq; ++i) {
        const int n = mask.limit(b, int(i), int(Tk));
        if (n <= 0) continue;  // no allowed key: the row stays all zeros
        const Scalar mx = S.row(i).head(n).maxCoeff();
        if (mx == -std::numeric_limits<Scalar>::infinity()) continue;  // −inf logits only: zeros
        auto row = A.row(i).head(n);
        row = (S.row(i).head(n).array() - mx).exp().matrix();
        row /= row.sum();
    }
}

}  // namespace attnviz

namespace attnviz {

void softmaxBackward(const Mat& A, const Mat& dA, Mat& dS) {
    // [Tq, 1] row sums of dA ⊙ A, broadcast over keys.
    const ColVec dot = A.cwiseProduct(dA).rowwise().sum();
    dS.noalias() = A.cwiseProduct(dA - dot.replicate(1, A.cols()));
}

}  // namespace attnviz
