// SPDX-License-Identifier: GPL-3.0-or-later
#include "conv_stem.h"

#include <cmath>
#include <cstring>
#include <string>

#include "layers.h"

namespace attnviz {
namespace {

// The taps of a 3 × 3 convolution of stride 2 and padding 1 over nb maps of H × W cells
// (row b·H·W + y·W + x): for output pixel (oy, ox) (row b·(H/2)·(W/2) + oy·(W/2) + ox) and each
// (ky, kx) whose input cell (2·oy + ky − 1, 2·ox + kx − 1) is inside the map,
// tap(output row, ky·3 + kx, input row).
template <class Tap>
void forEachTap(int nb, int H, int W, Tap tap) {
    const int Ho = H / 2, Wo = W / 2;
    for (int b = 0; b < nb; ++b)
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox) {
                const Eigen::Index row = (Eigen::Index(b) * Ho + oy) * Wo + ox;
                for (int ky = 0; ky < 3; ++ky) {
                    const int y = 2 * oy + ky - 1;
                    if (y < 0 || y >= H) continue;
                    for (int kx = 0; kx < 3; ++kx) {
                        const int x = 2 * ox + kx - 1;
                        if (x >= 0 && x < W)
                            tap(row, ky * 3 + kx, (Eigen::Index(b) * H + y) * W + x);
                    }
                }
            }
}

// The convolution as a product: in [B·H·W, Cin] -> cols [B·(H/2)·(W/2), 9·Cin], tap k's input
// at columns k·Cin … k·Cin + Cin − 1, 0 outside the image.
void im2col(const Mat& in, int H, int W, Mat& cols) {
    const Eigen::Index Cin = in.cols();
    const int nb = int(in.rows() / (Eigen::Index(H) * W));
    cols.setZero(Eigen::Index(nb) * (H / 2) * (W / 2), 9 * Cin);
    const Scalar* src = in.data();  // row-major: a row's Cin values together
    Scalar* dst = cols.data();
    const size_t bytes = size_t(Cin) * sizeof(Scalar);
    forEachTap(nb, H, W, [&](Eigen::Index row, int k, Eigen::Index from) {
        std::memcpy(dst + row * 9 * Cin + k * Cin, src + from * Cin, bytes);
    });
}

// Its adjoint: dcols [B·(H/2)·(W/2), 9·Cin] added into din [B·H·W, Cin] (zeroed first).
void col2im(const Mat& dcols, int H, int W, Eigen::Index Cin, Mat& din) {
    const int nb = int(dcols.rows() / (Eigen::Index(H / 2) * (W / 2)));
    din.setZero(Eigen::Index(nb) * H * W, Cin);
    const Scalar* src = dcols.data();  // row-major, as in im2col
    Scalar* dst = din.data();
    forEachTap(nb, H, W, [&](Eigen::Index row, int k, Eigen::Index to) {
        const Scalar* from = src + row * 9 * Cin + k * Cin;
        Scalar* into = dst + to * Cin;
        for (Eigen::Index c = 0; c < Cin; ++c) into[c] += from[c];
    });
}

}  // namespace

std::vector<ParamInfo> ConvStem::parameters(const ModelConfig& cfg) {
    std::vector<ParamInfo> p;
    for (size_t i = 0; i < cfg.stem.size(); ++i) {  // He-uniform: each convolution feeds a ReLU
        const std::string n = "stem." + std::to_string(i);
        const int64_t in = 9 * int64_t(cfg.stemInputs(i)), out = cfg.stem[i];
        p.push_back({n + ".weight",
                     {out, in},
                     Init::uniform(std::sqrt(6.0 / double(in))),
                     true,
                     "stem",
                     "stem"});
        p.push_back({n + ".bias", {out}, Init::zeros(), true, "stem", "stem"});
    }
    return p;
}

void ConvStem::bind(const ModelConfig& cfg, const Bindings& b) {
    m_convs.resize(cfg.stem.size());
    for (size_t i = 0; i < cfg.stem.size(); ++i) {
        m_convs[i].w = b.find("stem." + std::to_string(i) + ".weight");
        m_convs[i].b = b.find("stem." + std::to_string(i) + ".bias");
    }
}

void ConvStem::forward(const uint8_t* pixels, int B, const ModelConfig& cfg, Mat& patches) {
    const int S = cfg.imageSize;
    m_image.resize(Eigen::Index(B) * S * S, cfg.channels);
    for (Eigen::Index i = 0; i < m_image.size(); ++i)  // row-major [B·S·S, K]: a pixel's values
        m_image.data()[i] = Scalar(pixels[i]) / Scalar(127.5) - Scalar(1);
    int side = S;
    for (size_t i = 0; i < m_convs.size(); ++i) {
        Conv& c = m_convs[i];
        im2col(i == 0 ? m_image : m_convs[i - 1].out, side, side, c.cols);
        linear(c.cols, c.w, c.b, c.out);
        c.out = c.out.cwiseMax(Scalar(0));
        side /= 2;
    }
    patches = m_convs.back().out;
}

void ConvStem::backward(Mat& dpatches, const ModelConfig& cfg) {
    int side = cfg.gridSize();  // the output side of convolution i
    for (size_t i = m_convs.size(); i-- > 0;) {
        Conv& c = m_convs[i];
        Mat& dout = i + 1 == m_convs.size() ? dpatches : m_grad;
        dout = (c.out.array() > Scalar(0)).select(dout, Scalar(0));  // through the ReLU
        if (i == 0) {
            linearBackward(c.cols, dout, c.w, c.b, nullptr);  // the image needs no gradient
            break;
        }
        Mat dcols;
        linearBackward(c.cols, dout, c.w, c.b, &dcols);
        col2im(dcols, side * 2, side * 2, m_convs[i - 1].out.cols(), m_grad);
        side *= 2;
    }
}

}  // namespace attnviz
