// SPDX-License-Identifier: GPL-3.0-or-later
#include <limits>
#include <string>

#include "error.h"
#include "variants.h"

namespace attnviz {

// Every variant, one line each, in the order people see them. Each names the function that
// the variant's own file in core/attention/ defines (and that file only).
#define ATTNVIZ_VARIANTS(X)    \
    X(dotVariant)              \
    X(denseVariant)            \
    X(randomVariant)           \
    X(factorizedDenseVariant)  \
    X(factorizedRandomVariant) \
    X(mixtureVariant)          \
    X(gaussianVariant)         \
    X(localVariant)            \
    X(learnedGaussianVariant)  \
    /* end of the list: a new variant is one line above */

#define ATTNVIZ_DECLARE(f) VariantInfo f();
ATTNVIZ_VARIANTS(ATTNVIZ_DECLARE)
#undef ATTNVIZ_DECLARE

const std::vector<VariantInfo>& allVariants() {
#define ATTNVIZ_ENTRY(f) f(),
    static const std::vector<VariantInfo> all{ATTNVIZ_VARIANTS(ATTNVIZ_ENTRY)};
#undef ATTNVIZ_ENTRY
    return all;
}

std::vector<std::string> variantNames() {
    std::vector<std::string> names;
    for (const auto& v : allVariants()) names.push_back(v.name);
    return names;
}

const VariantInfo* findVariant(const std::string& name) {
    for (const auto& v : allVariants())
        if (v.name == name) return &v;
    return nullptr;
}

const VariantInfo& variantInfo(const std::string& name) {
    if (const VariantInfo* v = findVariant(name)) return *v;
    std::string known;
    for (const auto& v : allVariants()) known += (known.empty() ? "" : ", ") + v.name;
    throw Error("unknown attention variant '" + name + "' (known: " + known + ")");
}

std::unique_ptr<AttentionVariant> createVariant(const BlockConfig& cfg, const BlockGeometry& geo) {
    return variantInfo(cfg.variant).create(cfg, geo);
}

void checkMaxLen(const BlockGeometry& geo, const std::string& variant, int Tq, int Tk) {
    if (Tq > geo.maxLen || Tk > geo.maxLen) {
        throw Error("sequence of " + std::to_string(std::max(Tq, Tk)) +
                    " tokens is longer than this model's max_len of " + std::to_string(geo.maxLen) +
                    " (the " + variant + " synthesizer has weights for at most max_len positions)");
    }
}

void classTokenLogits(const PositionLayout& p, Mat& s) {
    if (p.first == 0) return;
    const Scalar inf = std::numeric_limits<Scalar>::infinity();
    s.row(0).setZero();
    s.col(0).setConstant(-inf);
}

}  // namespace attnviz
