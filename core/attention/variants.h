// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Registry entries, one per file in core/attention/. Adding a variant: a new file that
// defines its class and its VariantInfo, one line here and one in registry.cpp.
#include "attention.h"

namespace attnviz {

VariantInfo dotVariant();
VariantInfo denseVariant();
VariantInfo randomVariant();
VariantInfo factorizedDenseVariant();
VariantInfo factorizedRandomVariant();
VariantInfo mixtureVariant();
VariantInfo gaussianVariant();

// Helpers shared by the variants.
// Error unless Tq and Tk fit the variant's max_len tables.
void checkMaxLen(const BlockGeometry& geo, const std::string& variant, int Tq, int Tk);

}  // namespace attnviz
