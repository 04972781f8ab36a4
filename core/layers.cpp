// SPDX-License-Identifier: GPL-3.0-or-later
#include "layers.h"

#include <cmath>

#include "error.h"
#include "gemm.h"

namespace attnviz {
namespace {

// A gradient tensor of any shape as one row vector.
Eigen::Map<Vec> flatGrad(Tensor& t) {
    return {t.data(), 1, t.numel()};
}

}  // namespace

void linear(const Mat& x, const Tensor& w, const Tensor* b, Mat& y) {
    assignProduct(y, x, w.m.transpose());
    if (b) y.rowwise() += Eigen::Map<const Vec>(b->data(), 1, b->numel());
}

void linear(const Mat& x, const Param& w, const Param& b, Mat& y) {
    linear(x, *w.value, b.value, y);
}

void linearBackward(const Mat& x, const Mat& dy, const Param& w, const Param& b, Mat* dx,
                    bool accumulate) {
    if (w.grad) w.grad->m.noalias() += dy.transpose() * x;
    if (b.grad) flatGrad(*b.grad) += dy.colwise().sum();
    if (dx) {
        if (accumulate) {
            dx->noalias() += dy * w.m();
        } else {
            assignProduct(*dx, dy, w.m());
        }
    }
}

void LayerNorm::forward(const Mat& x, Mat& y) {
    const auto n = x.rows(), d = x.cols();
    xhat.resize(n, d);
    rstd.resize(n);
    y.resize(n, d);
    Eigen::Map<const Vec> w(weight.value->data(), 1, d), bb(bias.value->data(), 1, d);
    for (Eigen::Index r = 0; r < n; ++r) {
        const Scalar mean = x.row(r).mean();
        const Scalar var = (x.row(r).array() - mean).square().mean();
        const Scalar inv = Scalar(1) / std::sqrt(var + Scalar(1e-5));
        rstd(r) = inv;
        xhat.row(r) = (x.row(r).array() - mean) * inv;
        y.row(r) = (xhat.row(r).array() * w.array() + bb.array()).matrix();
    }
}

void LayerNorm::backward(const Mat& dy, Mat& dx, bool accumulate) {
    const auto n = dy.rows(), d = dy.cols();
    if (weight.grad) flatGrad(*weight.grad) += dy.cwiseProduct(xhat).colwise().sum();
    if (bias.grad) flatGrad(*bias.grad) += dy.colwise().sum();
    if (!accumulate) dx.setZero(n, d);
    Eigen::Map<const Vec> w(weight.value->data(), 1, d);
    const Scalar invD = Scalar(1) / static_cast<Scalar>(d);
    for (Eigen::Index r = 0; r < n; ++r) {
        // dxhat = dy ⊙ w; dx = rstd · (dxhat − mean(dxhat) − xhat · mean(dxhat ⊙ xhat))
        dxhat = dy.row(r).array() * w.array();  // no allocation per row
        const auto& g = dxhat;
        const Scalar m1 = g.sum() * invD;
        const Scalar m2 = (g * xhat.row(r).array()).sum() * invD;
        dx.row(r).array() += rstd(r) * (g - m1 - xhat.row(r).array() * m2);
    }
}

Mat positionalEncoding(int T, int d) {
    Mat pe(T, d);
    for (int t = 0; t < T; ++t) {
        for (int c = 0; c < d; ++c) {
            const int i2 = c - (c % 2);  // 2i
            const double angle = t / std::pow(10000.0, static_cast<double>(i2) / d);
            pe(t, c) = static_cast<Scalar>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

void embed(const Tensor& table, const std::vector<int>& ids, int T, const Mat& pe, Mat& x) {
    const auto d = table.m.cols();
    const auto V = table.m.rows();
    const Scalar scale = std::sqrt(static_cast<Scalar>(d));
    x.resize(static_cast<Eigen::Index>(ids.size()), d);
    for (size_t r = 0; r < ids.size(); ++r) {
        const int id = ids[r];
        if (id < 0 || id >= V) throw Error("token id " + std::to_string(id) + " out of range");
        x.row(Eigen::Index(r)) = table.m.row(id) * scale + pe.row(Eigen::Index(r % size_t(T)));
    }
}

}  // namespace attnviz

namespace attnviz {

void embedBackward(const std::vector<int>& ids, const Mat& dx, Tensor& dtable) {
    const Scalar scale = std::sqrt(static_cast<Scalar>(dx.cols()));
    for (size_t r = 0; r < ids.size(); ++r)
        dtable.m.row(ids[r]) += scale * dx.row(static_cast<Eigen::Index>(r));
}

}  // namespace attnviz

namespace attnviz {

namespace {

// What Eigen's maxCoeff(&i) finds (its scalar loop keeps x[i] only when x[i] > the best so
// far: the first maximum, NaNs after x[0] skipped, a NaN x[0] kept), found with vectorised
// passes: the largest number, then the first element equal to it. The value is read back
// from that element, so even the sign of a zero maximum is the scalar loop's.
Eigen::Index firstArgmax(const Eigen::Ref<const Vec>& x) {
    const Eigen::Index n = x.size();
    if (n == 0 || std::isnan(x(0))) return 0;
    const Scalar m = x.maxCoeff<Eigen::PropagateNumbers>();
    for (Eigen::Index i = 0; i < n; ++i)
        if (x(i) == m) return i;
    return 0;  // not reached: m is one of the numbers in x
}

}  // namespace

CrossEntropy crossEntropy(const Mat& logits, const std::vector<int>& targets, float smoothing,
                          float scale, Mat* dlogits, int ignore) {
    CrossEntropy r;
    const auto V = logits.cols();
    if (dlogits) dlogits->resize(logits.rows(), V);
    const Scalar uniform = smoothing / static_cast<Scalar>(V);
    for (Eigen::Index row = 0; row < logits.rows(); ++row) {
        const int target = targets[size_t(row)];
        if (target == ignore) {  // <pad>
            if (dlogits) dlogits->row(row).setZero();
            continue;
        }
        const Eigen::Index best = firstArgmax(logits.row(row));
        const Scalar mx = logits(row, best);
        const double sum = static_cast<double>((logits.row(row).array() - mx).exp().sum());
        const double lse = mx + std::log(sum);
        const double nll = lse - logits(row, target);
        r.nll += nll;
        r.smoothed += (1.0 - smoothing) * nll + smoothing * (lse - logits.row(row).mean());
        ++r.tokens;
        if (best == target) ++r.correct;
        if (dlogits) {
            auto g = dlogits->row(row);
            g = ((logits.row(row).array() - static_cast<Scalar>(lse)).exp() - uniform).matrix();
            g(target) -= Scalar(1) - smoothing;
            g *= static_cast<Scalar>(scale);
        }
    }
    return r;
}

}  // namespace attnviz
