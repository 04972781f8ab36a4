// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensor.h"

namespace attnviz {

std::string shapeToString(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

}  // namespace attnviz
