// SPDX-License-Identifier: GPL-3.0-or-later
// Learned Gaussian window ("learned_gaussian"): each head h learns a centre μ_h (an offset
// from the query, in positions) and a width σ_h > 0, and attends with a softmax over keys of
//   S_h[i, j] = −(j − i − μ_h)² / (2 σ_h²).
// Our 1D reading of the "quadratic encoding" of Cordonnier, Loukas & Jaggi (2020), which
// used 2D Gaussians over image patches: the same input-independent, position-only pattern
// as the hard-coded Gaussian (gaussian.cpp), but its centre and width are learned.
//
// Parameters: μ_h = μ0_h + u_h and log σ_h = log σ0 + v_h, with μ0 = init_mu (cycled over
// the heads) and σ0 = init_sigma from the options, and u, v [h] the tensors, initialised
// to 0. The engine initialises tensors only with constant or random schemes (Init), so the
// configured start lives in the options and the tensors hold the learned displacement
// from it. Width as log σ: any real v gives σ > 0, no clamp or projection is needed after
// an optimiser step, and a step changes σ by a factor, the same for narrow and wide windows.
//
// On a vit model's patch grid (docs/model-spec.md 4.4) the same formula in 2D, Cordonnier et
// al.'s own setting: the offset is (Δrow, Δcolumn), μ_h a pair (u [h, 2]), σ_h isotropic.
#include <cmath>

#include "error.h"
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class LearnedGaussianAttention : public AttentionVariant {
public:
    LearnedGaussianAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo),
          m_mu0(cfg.numbers("init_mu")),
          m_logSigma0(std::log(cfg.number("init_sigma"))),
          m_pos(geo) {}

    // mu_shift [h] on a line, [h, 2] (row, column) on a vit grid; log_sigma_shift [h].
    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads;
        return {
            {"lgauss.mu_shift",
             m_pos.grid > 0 ? std::vector<int64_t>{h, 2} : std::vector<int64_t>{h}, Init::zeros()},
            {"lgauss.log_sigma_shift", {h}, Init::zeros()}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_u = b.find(prefix + "lgauss.mu_shift");
        m_v = b.find(prefix + "lgauss.log_sigma_shift");
    }

    // u, v -> S[b*h+hd] [Tq, Tk] = −½ Σ_c ((δ_c − μ_hd,c) / σ_hd)² over the coordinates c of the
    // offset δ of key j from query i (j − i on a line; Δrow, Δcolumn between patches on a
    // grid, with the class token's rule of 4.4); the same for every b (the inputs are not
    // used). Masked keys are left to the block's softmax.
    void logits(const Mat&, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        const int h = m_geo.heads;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            Mat& s = S[static_cast<size_t>(hd)];
            s.resize(Tq, Tk);
            forEachPair(hd, Tq, Tk, [&](int i, int j, const Scalar* z, int dims) {
                Scalar e = 0;
                for (int c = 0; c < dims; ++c) e += z[c] * z[c];
                s(i, j) = Scalar(-0.5) * e;
            });
            classTokenLogits(m_pos, s);
            for (int b = 1; b < B; ++b) S[static_cast<size_t>(b * h + hd)] = s;
        }
    }

    // With z_c = (δ_c − μ_c)/σ: ∂S/∂μ_c = z_c/σ = (δ_c − μ_c)/σ², ∂S/∂log σ = Σ_c z_c²
    // (and ∂μ/∂u = ∂log σ/∂v = 1). du_hd,c += Σ_b Σ_ij dS·z_c/σ, dv_hd += Σ_b Σ_ij dS·Σ_c z_c²;
    // nothing flows to the inputs, nor from the class token's constant logits. Entries with
    // dS = 0 (masked keys, weight 0) are skipped, so a logit of −inf from an extremely narrow
    // window never gives 0·inf.
    void logitsBackward(const std::vector<Mat>& dS, Mat&, Mat&) override {
        if (!m_u.grad && !m_v.grad) return;
        const int h = m_geo.heads;
        for (int hd = 0; hd < h; ++hd) {
            const Scalar sigma = width(hd);
            double du[2] = {0, 0}, dv = 0;
            for (int b = 0; b < m_B; ++b) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                forEachPair(hd, m_Tq, m_Tk, [&](int i, int j, const Scalar* z, int dims) {
                    const Scalar gij = g(i, j);
                    if (gij == 0) return;
                    for (int c = 0; c < dims; ++c) {
                        du[c] += double(gij * z[c] / sigma);
                        dv += double(gij * z[c] * z[c]);
                    }
                });
            }
            for (int c = 0; c < m_pos.dims() && m_u.grad; ++c)
                shift(m_u.grad->m, hd, c) += Scalar(du[c]);
            if (m_v.grad) m_v.grad->m(0, hd) += static_cast<Scalar>(dv);
        }
    }

private:
    // f(i, j, z, dims) for every query i and key j that are not the class token, z[c] =
    // (δ_c − μ_hd,c)/σ_hd for the dims coordinates of their offset δ.
    template <class F>
    void forEachPair(int hd, int Tq, int Tk, F f) const {
        const int dims = m_pos.dims(), first = m_pos.first;
        const Scalar sigma = width(hd);
        Scalar mu[2], z[2];
        for (int c = 0; c < dims; ++c) mu[c] = centre(hd, c);
        int delta[2];
        for (int i = first; i < Tq; ++i)
            for (int j = first; j < Tk; ++j) {
                m_pos.offset(i, j, delta);
                for (int c = 0; c < dims; ++c) z[c] = (Scalar(delta[c]) - mu[c]) / sigma;
                f(i, j, z, dims);
            }
    }

    // Entry (head hd, coordinate c) of a shift tensor: [h] on a line, [h, 2] on a grid.
    Scalar& shift(Mat& m, int hd, int c) const { return m_pos.grid > 0 ? m(hd, c) : m(0, hd); }
    Scalar shift(const Mat& m, int hd, int c) const { return m_pos.grid > 0 ? m(hd, c) : m(0, hd); }
    // μ_hd,c = μ0 + u_hd,c: μ0 is init_mu cycled over the heads, by pairs (Δrow, Δcolumn) on a
    // grid; in positions (patches) relative to the query.
    Scalar centre(int hd, int c) const {
        const size_t dims = size_t(m_pos.dims()), n = m_mu0.size() / dims;
        const Scalar mu0 = Scalar(m_mu0[(static_cast<size_t>(hd) % n) * dims + size_t(c)]);
        return mu0 + shift(m_u.m(), hd, c);
    }
    // σ_hd = exp(log σ0 + v_hd) > 0.
    Scalar width(int hd) const { return std::exp(Scalar(m_logSigma0) + m_v.m()(0, hd)); }

    std::vector<double> m_mu0;  // init_mu
    double m_logSigma0;         // log init_sigma
    PositionLayout m_pos;
    Param m_u, m_v;  // learned shifts of μ ([h] or [h, 2]) and of log σ ([h])
    int m_B = 0, m_Tq = 0, m_Tk = 0;
};

}  // namespace

VariantInfo learnedGaussianVariant() {
    VariantInfo v;
    v.name = "learned_gaussian";
    v.summary = ATTNVIZ_TR(
        "attnviz::Engine",
        "Learned Gaussian window (our 1D reading of Cordonnier, Loukas & Jaggi, 2020): each "
        "head learns the centre and width of a Gaussian over relative positions; no "
        "query-key comparison.");
    v.formula =
        "S_h[i,j] = -(j - i - mu_h)^2 / (2 sigma_h^2),  mu_h, log sigma_h learned;  "
        "A_h = softmax(S_h)";
    v.options = {
        OptionSpec::numbers("init_mu", nullptr)
            .atLeast(-1024)
            .atMost(1024)
            .about(ATTNVIZ_TR("attnviz::Engine",
                              "starting centre mu_h of head h's window relative to the query "
                              "(heads cycle through the list); default [-1, 0, 1], in decoder "
                              "self-attention [-1, 0]")),
        OptionSpec::number("init_sigma", 1.0)
            .atLeast(0.001)  // a smaller σ's density overflows a float, as gaussian's sigma
            .atMost(1024)
            .about(ATTNVIZ_TR("attnviz::Engine",
                              "starting width sigma of every head's window, in positions"))};
    v.example = {{"init_mu", {-1, 0.5}}, {"init_sigma", 1.5}};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
        if (g.grid > 0) {  // the 2D reading (docs/model-spec.md 4.4)
            if (!c.has("init_mu")) c.options["init_mu"] = {0, -1, 0, 1, -1, 0, 1, 0};
            if (c.numbers("init_mu").size() % 2 != 0)
                throw Error(
                    "'init_mu' of a learned_gaussian block on the patch grid is pairs "
                    "(Δrow, Δcolumn): an even number of numbers, got " +
                    std::to_string(c.numbers("init_mu").size()));
            // A mixture's weighted sum of the class token's −inf logits has no gradient for
            // its weights (0·inf): refused rather than mixed (4.4, interpretation).
            if (g.classToken && c.variant == "mixture")
                throw Error(
                    "learned_gaussian cannot be a mixture component on a vit model with "
                    "a class token (its class-token rule needs -inf logits); use "
                    "\"pool\": \"mean\"");
            return;
        }
        if (!c.has("init_mu")) {
            c.options["init_mu"] = g.kind == BlockKind::DecoderSelf ? std::vector<int>{-1, 0}
                                                                    : std::vector<int>{-1, 0, 1};
        }
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<LearnedGaussianAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
