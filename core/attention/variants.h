// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every variant file includes. Adding a variant (docs/architecture.md): a new file in
// core/attention/ that defines its class and a function returning its VariantInfo, and
// one line naming that function in registry.cpp.
#include "attention.h"

namespace attnviz {

// Helpers shared by the variants.
// Error unless Tq and Tk fit the variant's max_len tables.
void checkMaxLen(const BlockGeometry& geo, const std::string& variant, int Tq, int Tk);

}  // namespace attnviz
