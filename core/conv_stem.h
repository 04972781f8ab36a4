// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A vit model's convolutional stem (docs/model-spec.md 3.10, `"stem": [C1, …, CL]`): the image
// scaled to p / 127.5 − 1 through L convolutions of 3 × 3, stride 2 and padding 1, each with
// a ReLU; the last map's G × G cells are the patches the embedding reads. Each convolution is
// one product of its input's columns (im2col) with its weights [Cout, 9·Cin].
//
//   ConvStem stem;
//   stem.bind(cfg, bindings);                 // stem.0.weight, stem.0.bias, …
//   stem.forward(pixels, B, cfg, patches);    // [B·S·S·K] bytes -> patches [B·G², C_L]
//   stem.backward(dpatches, cfg);             // adds the convolutions' gradients
#include <cstdint>
#include <vector>

#include "attention/block.h"
#include "config.h"

namespace attnviz {

class ConvStem {
public:
    // Its tensors, in initialisation order (docs/model-spec.md 6.1, 6.2): per convolution i
    // stem.i.weight [C_{i+1}, 9·C_in] (He-uniform) and stem.i.bias [C_{i+1}] (0); their role
    // and module "stem" (attnviz-cli info counts them apart from the patch embedding).
    static std::vector<ParamInfo> parameters(const ModelConfig& cfg);
    void bind(const ModelConfig& cfg, const Bindings& b);
    bool empty() const { return m_convs.empty(); }
    // pixels: B images of cfg.imageBytes() (value k of pixel (y, x) at (y·S + x)·K + k) ->
    // patches [B·G², C_L] (patch n = r·G + c of each image, images in order). Keeps what
    // backward needs.
    void forward(const uint8_t* pixels, int B, const ModelConfig& cfg, Mat& patches);
    // dpatches [B·G², C_L] (overwritten) -> every convolution's weight and bias gradients.
    void backward(Mat& dpatches, const ModelConfig& cfg);

private:
    struct Conv {
        Param w, b;  // [Cout, 9·Cin], [Cout]
        Mat cols,
            out;  // its input's columns [B·Ho·Wo, 9·Cin], its output after ReLU [B·Ho·Wo, Cout]
    };
    std::vector<Conv> m_convs;
    Mat m_image, m_grad;  // the scaled image [B·S·S, K]; a map's gradient between convolutions
};

}  // namespace attnviz
