// SPDX-License-Identifier: GPL-3.0-or-later
// Mixture of synthesizers (Tay et al., 2021, e.g. random + dot): a convex combination of
// logit-based variants, S_h = Σ_m w_m S_h^(m) with w = softmax(alpha) over the components;
// one alpha [M] per block, shared by its heads, initialised to 0 (equal weights). Our
// reading of the paper's learned mixing weights; with "unweighted" the logits are summed
// as the Long Range Arena code does (w_m = 1, no alpha).
#include <cmath>
#include <set>

#include "error.h"
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class MixtureAttention : public AttentionVariant {
public:
    MixtureAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo), m_unweighted(cfg.flag("unweighted")) {
        for (const auto& name : cfg.names("components")) {
            BlockConfig c = cfg;
            c.variant = name;
            c.options.erase("components");
            m_parts.push_back(createVariant(c, geo));
        }
    }

    std::vector<ParamSpec> parameters() const override {
        std::vector<ParamSpec> p;
        if (!m_unweighted)
            p.push_back({"mix.alpha", {static_cast<int64_t>(m_parts.size())}, Init::zeros()});
        for (const auto& part : m_parts)
            for (auto& s : part->parameters()) p.push_back(s);
        return p;
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_alpha = m_unweighted ? Param{} : b.find(prefix + "mix.alpha");
        for (auto& part : m_parts) part->bind(b, prefix);
    }

    bool usesMaxLen() const override {
        for (const auto& part : m_parts)
            if (part->usesMaxLen()) return true;
        return false;
    }

    // Mixing weights w = softmax(alpha) [M] (all 1 when unweighted).
    std::vector<Scalar> mixWeights() const {
        if (m_unweighted) return std::vector<Scalar>(m_parts.size(), Scalar(1));
        const auto& a = m_alpha.m();
        const Scalar mx = a.maxCoeff();
        std::vector<Scalar> w(static_cast<size_t>(a.size()));
        Scalar sum = 0;
        for (Eigen::Index m = 0; m < a.size(); ++m) sum += (w[size_t(m)] = std::exp(a(0, m) - mx));
        for (auto& x : w) x /= sum;
        return w;
    }

    // S[b*h+hd] [Tq, Tk] = Σ_m w_m S^(m)[b*h+hd]
    void logits(const Mat& xq, const Mat& xk, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        const auto w = mixWeights();
        m_w = w;
        m_partS.resize(m_parts.size());
        for (size_t m = 0; m < m_parts.size(); ++m)
            m_parts[m]->logits(xq, xk, B, Tq, Tk, m_partS[m]);
        S.resize(m_partS[0].size());
        for (size_t i = 0; i < S.size(); ++i) {
            S[i] = w[0] * m_partS[0][i];
            for (size_t m = 1; m < m_parts.size(); ++m) S[i] += w[m] * m_partS[m][i];
        }
    }

    // A decoding step: each component's row, mixed as in logits().
    void beginSteps() override {
        for (auto& p : m_parts) p->beginSteps();
    }
    void logitsStep(const DecodeStep& s, std::vector<Mat>& S) override {
        const auto w = mixWeights();
        m_partS.resize(m_parts.size());
        for (size_t m = 0; m < m_parts.size(); ++m) m_parts[m]->logitsStep(s, m_partS[m]);
        S.resize(m_partS[0].size());
        for (size_t i = 0; i < S.size(); ++i) {
            S[i] = w[0] * m_partS[0][i];
            for (size_t m = 1; m < m_parts.size(); ++m) S[i] += w[m] * m_partS[m][i];
        }
    }

    // dS^(m) = w_m dS; dw_m = Σ dS ⊙ S^(m); dalpha = w ⊙ (dw − Σ_k w_k dw_k).
    void logitsBackward(const std::vector<Mat>& dS, Mat& dxq, Mat& dxk) override {
        const size_t M = m_parts.size();
        std::vector<double> dw(M, 0.0);
        for (size_t m = 0; m < M; ++m) {
            for (size_t i = 0; i < dS.size(); ++i)
                dw[m] += static_cast<double>(dS[i].cwiseProduct(m_partS[m][i]).sum());
            m_scaled.resize(dS.size());
            for (size_t i = 0; i < dS.size(); ++i) m_scaled[i] = m_w[m] * dS[i];
            m_parts[m]->logitsBackward(m_scaled, dxq, dxk);
        }
        if (m_unweighted || !m_alpha.grad) return;
        double mean = 0;
        for (size_t m = 0; m < M; ++m) mean += m_w[m] * dw[m];
        for (size_t m = 0; m < M; ++m)
            m_alpha.grad->m(0, Eigen::Index(m)) += static_cast<Scalar>(m_w[m] * (dw[m] - mean));
    }

private:
    std::vector<std::unique_ptr<AttentionVariant>> m_parts;
    std::vector<std::vector<Mat>> m_partS;  // [M][B*h] of [Tq, Tk]
    std::vector<Mat> m_scaled;
    std::vector<Scalar> m_w;  // softmax(alpha) of the last forward
    Param m_alpha;            // absent when unweighted
    bool m_unweighted;
};

}  // namespace

VariantInfo mixtureVariant() {
    VariantInfo v;
    v.name = "mixture";
    v.summary =
        ATTNVIZ_TR("attnviz::Engine",
                   "Mixture of synthesizers (Tay et al., 2021), e.g. random + dot: a learned "
                   "convex combination of the components' logits.");
    v.formula = "S_h = sum_m softmax(alpha)_m S_h^(m)  (unweighted: sum_m S_h^(m))";
    v.options = {OptionSpec::variants("components")
                     .about("the logit-based variants mixed, e.g. [\"random\", \"dot\"]; their "
                            "options apply too"),
                 OptionSpec::flag("unweighted", false)
                     .about("sum the components' logits with weight 1, as the Long Range Arena "
                            "code does, instead of learned softmax(alpha) weights (no alpha)")};
    v.example = {{"components", {"random", "dot"}}};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
        if (!c.has("components"))
            throw Error("mixture needs 'components', e.g. [\"random\", \"dot\"]");
        std::set<std::string> seen;
        for (const auto& name : c.names("components")) {
            const VariantInfo& info = variantInfo(name);
            if (name == c.variant) throw Error("a mixture cannot contain a mixture");
            if (!info.logitBased) {
                throw Error("mixture component '" + name +
                            "' has no logits (only logit-based variants can be mixed)");
            }
            if (!info.mixable) {
                throw Error("mixture component '" + name +
                            "' cannot be mixed (its logits are -inf outside a window)");
            }
            if (!seen.insert(name).second)
                throw Error("mixture component '" + name + "' appears twice");
            if (info.resolve) info.resolve(c, g);
        }
    };
    v.scoreFlops = [](const BlockConfig& c, double Tq, double Tk, double d) {
        double flops = 0;
        for (const auto& name : c.names("components"))
            if (const auto& f = variantInfo(name).scoreFlops) flops += f(c, Tq, Tk, d);
        return flops;
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<MixtureAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
