// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

// The engine computes in float32. The gradient tests compile the same engine sources a second
// time with ATTNVIZ_DOUBLE, so that finite differences are not drowned in rounding.
#ifdef ATTNVIZ_DOUBLE
using Scalar = double;
#else
using Scalar = float;
#endif

// Row-major matrix: the layout of safetensors data and of PyTorch tensors, so a tensor's
// bytes can be copied in and out without transposition.
using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<Scalar, 1, Eigen::Dynamic, Eigen::RowMajor>;  // a row vector
using ColVec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

// An N-d float32 tensor stored as a 2-d matrix: rows = product of all dimensions but the
// last (1 for a 1-d tensor), cols = the last dimension. A [h, L, L] tensor is therefore an
// [h*L, L] matrix whose head h is rows h*L .. h*L+L-1.
struct Tensor {
    std::vector<int64_t> shape;
    Mat m;

    Tensor() = default;
    explicit Tensor(std::vector<int64_t> s) : shape(std::move(s)) {
        m = Mat::Zero(rowsOf(shape), colsOf(shape));
    }
    int64_t numel() const { return static_cast<int64_t>(m.size()); }
    Scalar* data() { return m.data(); }
    const Scalar* data() const { return m.data(); }

    static Eigen::Index rowsOf(const std::vector<int64_t>& s) {
        Eigen::Index r = 1;
        for (size_t i = 0; i + 1 < s.size(); ++i) r *= static_cast<Eigen::Index>(s[i]);
        return r;
    }
    static Eigen::Index colsOf(const std::vector<int64_t>& s) {
        return s.empty() ? 1 : static_cast<Eigen::Index>(s.back());
    }
};

std::string shapeToString(const std::vector<int64_t>& shape);

}  // namespace attnviz
