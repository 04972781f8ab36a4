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
#include <cmath>

#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class LearnedGaussianAttention : public AttentionVariant {
public:
    LearnedGaussianAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo),
          m_mu0(cfg.numbers("init_mu")),
          m_logSigma0(std::log(cfg.number("init_sigma"))) {}

    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads;
        return {{"lgauss.mu_shift", {h}, Init::zeros()},
                {"lgauss.log_sigma_shift", {h}, Init::zeros()}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_u = b.find(prefix + "lgauss.mu_shift");
        m_v = b.find(prefix + "lgauss.log_sigma_shift");
    }

    // u, v [h] -> S[b*h+hd] [Tq, Tk] = −½((j − i − μ_hd) / σ_hd)², the same for every b
    // (the inputs are not used). Masked keys are left to the block's softmax.
    void logits(const Mat&, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        const int h = m_geo.heads;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            const Scalar mu = centre(hd), sigma = width(hd);
            Mat& s = S[static_cast<size_t>(hd)];
            s.resize(Tq, Tk);
            for (int i = 0; i < Tq; ++i)
                for (int j = 0; j < Tk; ++j) {
                    const Scalar z = (Scalar(j - i) - mu) / sigma;
                    s(i, j) = Scalar(-0.5) * z * z;
                }
            for (int b = 1; b < B; ++b) S[static_cast<size_t>(b * h + hd)] = s;
        }
    }

    // With z = (j − i − μ)/σ: ∂S/∂μ = z/σ = (j − i − μ)/σ², ∂S/∂log σ = z² = (j − i − μ)²/σ²
    // (and ∂μ/∂u = ∂log σ/∂v = 1). du_h += Σ_b Σ_ij dS·z/σ, dv_h += Σ_b Σ_ij dS·z²; nothing
    // flows to the inputs. Entries with dS = 0 (masked keys, weight 0) are skipped, so a
    // logit of −inf from an extremely narrow window never gives 0·inf.
    void logitsBackward(const std::vector<Mat>& dS, Mat&, Mat&) override {
        if (!m_u.grad && !m_v.grad) return;
        const int h = m_geo.heads;
        for (int hd = 0; hd < h; ++hd) {
            const Scalar mu = centre(hd), sigma = width(hd);
            double du = 0, dv = 0;
            for (int b = 0; b < m_B; ++b) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                for (int i = 0; i < m_Tq; ++i)
                    for (int j = 0; j < m_Tk; ++j) {
                        const Scalar gij = g(i, j);
                        if (gij == 0) continue;
                        const Scalar z = (Scalar(j - i) - mu) / sigma;
                        du += double(gij * z / sigma);
                        dv += double(gij * z * z);
                    }
            }
            if (m_u.grad) m_u.grad->m(0, hd) += static_cast<Scalar>(du);
            if (m_v.grad) m_v.grad->m(0, hd) += static_cast<Scalar>(dv);
        }
    }

private:
    // μ_hd = μ0 (init_mu cycled over the heads) + u_hd, in positions relative to the query.
    Scalar centre(int hd) const {
        return Scalar(m_mu0[static_cast<size_t>(hd) % m_mu0.size()]) + m_u.m()(0, hd);
    }
    // σ_hd = exp(log σ0 + v_hd) > 0.
    Scalar width(int hd) const { return std::exp(Scalar(m_logSigma0) + m_v.m()(0, hd)); }

    std::vector<double> m_mu0;  // init_mu
    double m_logSigma0;         // log init_sigma
    Param m_u, m_v;             // [h] each: learned shifts of μ and of log σ
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
            .above(0)
            .atMost(1024)
            .about(ATTNVIZ_TR("attnviz::Engine",
                              "starting width sigma of every head's window, in positions"))};
    v.example = {{"init_mu", {-1, 0.5}}, {"init_sigma", 1.5}};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
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
