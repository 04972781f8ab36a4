// SPDX-License-Identifier: GPL-3.0-or-later
#include "export.h"

#include <cstdio>

#include "error.h"

namespace attnviz {
namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

}  // namespace

std::string weightsCsv(const std::vector<WeightTable>& tables) {
    std::string out = "model,block,layer,head,query_index,query_token,key_index,key_token,weight\n";
    char num[32];
    for (const auto& t : tables) {
        const std::string prefix =
            csvField(t.model) + "," + t.block + "," + std::to_string(t.layer) + "," + t.head + ",";
        for (Eigen::Index i = 0; i < t.weights.rows(); ++i) {
            for (Eigen::Index j = 0; j < t.weights.cols(); ++j) {
                std::snprintf(num, sizeof num, "%.9g", static_cast<double>(t.weights(i, j)));
                out += prefix + std::to_string(i) + "," + csvField(t.queries.at(size_t(i))) + "," +
                       std::to_string(j) + "," + csvField(t.keys.at(size_t(j))) + "," + num + "\n";
            }
        }
    }
    return out;
}

std::string npyBytes(const std::vector<size_t>& shape, const std::vector<float>& data) {
    std::string dims;
    for (size_t d : shape) dims += std::to_string(d) + ",";
    if (shape.size() > 1) dims.pop_back();
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
    // Magic, version 1.0, header length; the header is padded so data starts at a multiple of 64.
    const size_t total = 10 + header.size() + 1;
    header += std::string((64 - total % 64) % 64, ' ') + "\n";
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    out.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
    return out;
}

std::string weightsNpy(const std::vector<WeightTable>& tables) {
    if (tables.empty()) throw Error("nothing to export");
    const auto rows = tables[0].weights.rows(), cols = tables[0].weights.cols();
    std::vector<float> data;
    for (const auto& t : tables) {
        if (t.weights.rows() != rows || t.weights.cols() != cols) {
            throw Error("the matrices differ in shape (" + std::to_string(rows) + "x" +
                        std::to_string(cols) + " vs " + std::to_string(t.weights.rows()) + "x" +
                        std::to_string(t.weights.cols()) +
                        ", e.g. different decoded targets): export CSV or JSON instead");
        }
        for (Eigen::Index i = 0; i < rows; ++i)
            for (Eigen::Index j = 0; j < cols; ++j)
                data.push_back(static_cast<float>(t.weights(i, j)));
    }
    return npyBytes({tables.size(), size_t(rows), size_t(cols)}, data);
}

}  // namespace attnviz
