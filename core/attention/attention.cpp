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

namespace {

// The rows of positions 0..n-1 of every sequence, stacked: [B*n, d].
Mat gatherPrefix(const Mat& x, int B, int stride, int n) {
    Mat out(static_cast<Eigen::Index>(B) * n, x.cols());
    for (int b = 0; b < B; ++b) out.middleRows(b * n, n) = x.middleRows(b * stride, n);
    return out;
}

}  // namespace

void AttentionVariant::logitsStep(const DecodeStep& s, std::vector<Mat>& S) {
    const Mat xq = gatherPrefix(*s.xq, s.B, s.qStride, s.q + 1);
    const Mat xk = gatherPrefix(*s.xk, s.B, s.kStride, s.Tk);
    std::vector<Mat> full;
    logits(xq, xk, s.B, s.q + 1, s.Tk, full);
    S.resize(full.size());
    for (size_t i = 0; i < full.size(); ++i) S[i] = full[i].row(s.q);
}

void AttentionVariant::rowOnlyLogitsStep(const DecodeStep& s, std::vector<Mat>& S) {
    Mat xq(s.B, s.xq->cols());
    for (int b = 0; b < s.B; ++b) xq.row(b) = s.xq->row(b * s.qStride + s.q);
    logits(xq, xq, s.B, 1, s.Tk, S);
}

void AttentionVariant::weightsStep(const DecodeStep& s, const AttentionMask& mask,
                                   std::vector<Mat>& A) {
    std::vector<Mat> full;
    weights(s.B, s.q + 1, s.Tk, mask, full);
    A.resize(full.size());
    for (size_t i = 0; i < full.size(); ++i) A[i] = full[i].row(s.q);
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
    A.resize(Tq, Tk);  // each row written once: its allowed keys, then zeros
    for (Eigen::Index i = 0; i < Tq; ++i) {
        const int n = mask.limit(b, int(i), int(Tk));
        if (n <= 0) {  // no allowed key: the row is all zeros
            A.row(i).setZero();
            continue;
        }
        A.row(i).tail(Tk - n).setZero();
        const Scalar mx = S.row(i).head(n).maxCoeff();
        if (mx == -std::numeric_limits<Scalar>::infinity()) {  // −inf logits only: zeros
            A.row(i).head(n).setZero();
            continue;
        }
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
