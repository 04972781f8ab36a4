// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Attention matrices as data files: long-form CSV and NumPy .npy (the JSON dump is dump.h).
#include <string>
#include <vector>

#include "tensor.h"

namespace attnviz {

// One matrix as shown: which model, block, layer and head ("mean" for a head average).
struct WeightTable {
    std::string model, block;  // block: "encoder_self", "decoder_self", "cross"
    int layer = 0;
    std::string head;  // "0", "1", … or "mean"
    std::vector<std::string> queries, keys;
    Mat weights;  // [queries, keys]
};

// model,block,layer,head,query_index,query_token,key_index,key_token,weight — one row per
// cell (RFC 4180 quoting; weights with 9 significant digits).
std::string weightsCsv(const std::vector<WeightTable>& tables);

// A float32 .npy (version 1.0, C order) of the given shape.
std::string npyBytes(const std::vector<size_t>& shape, const std::vector<float>& data);
// The tables stacked as [tables, queries, keys]; Error when their shapes differ.
std::string weightsNpy(const std::vector<WeightTable>& tables);

}  // namespace attnviz
