// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/safetensors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/model.h"
#include "test_util.h"

using namespace attnviz;
using nlohmann::json;

namespace {

std::string fileBytes(const std::string& header, size_t dataBytes, uint64_t headerSize = 0) {
    std::string out;
    const uint64_t n = headerSize ? headerSize : header.size();
    for (int i = 0; i < 8; ++i) out.push_back(char((n >> (8 * i)) & 0xFF));
    out += header;
    out += std::string(dataBytes, '\0');
    return out;
}

std::string parseError(const std::string& bytes) {
    return test::errorOf([&] {
        SafeTensorsFile::parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    });
}

const char* kSmallModel =
    R"({"d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 1, "dec_layers": 1, "max_len": 16,
  "encoder_self": {"variant": "dense"}, "decoder_self": {"variant": "random"}, "cross": {"variant": "dot"}})";

}  // namespace

// A file of another kind given as a checkpoint is named as what it is (a JPEG once got
// "oversized header: 5064878326892452095 bytes").
TEST(SafeTensors, AFileOfAnotherKindIsNamed) {
    const std::string jpeg =
        std::string("\xFF\xD8\xFF\xE0\x00\x10JFIF\x00", 11) + std::string(2000, 'x');
    EXPECT_NE(parseError(jpeg).find("not a safetensors checkpoint: the file is a JPEG image"),
              std::string::npos)
        << parseError(jpeg);
    const std::string png = std::string("\x89PNG\r\n\x1A\n", 8) + std::string(2000, 'x');
    EXPECT_NE(parseError(png).find("the file is a PNG image"), std::string::npos)
        << parseError(png);
    const std::string pickle = std::string("\x80\x02}q\x00(X", 7) + std::string(2000, 'x');
    EXPECT_NE(parseError(pickle).find("a Python pickle"), std::string::npos) << parseError(pickle);
    // A real checkpoint's first bytes are its header's length, never taken for another kind.
    const std::string ok = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    EXPECT_EQ(parseError(fileBytes(ok, 8)), "");
}

TEST(SafeTensors, RoundTripIsBitExact) {
    Model m = test::makeModel(kSmallModel, 5);
    const std::string path = test::tempPath("roundtrip.safetensors");
    m.save(path);
    const Model back = Model::load(path);
    EXPECT_EQ(back.config(), m.config());
    EXPECT_EQ(back.srcVocab(), m.srcVocab());
    ASSERT_EQ(back.params().size(), m.params().size());
    for (const auto& [name, t] : m.params()) {
        const Tensor& u = back.params().at(name);
        ASSERT_EQ(u.shape, t.shape) << name;
        EXPECT_EQ(0, std::memcmp(u.data(), t.data(), size_t(t.numel()) * 4)) << name;
    }
    EXPECT_EQ(back.toSafeTensors().serialize(), m.toSafeTensors().serialize());
}

TEST(SafeTensors, RejectsHostileFiles) {
    const std::string ok = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    EXPECT_EQ(parseError(fileBytes(ok, 8)), "");
    EXPECT_NE(parseError("abc").find("only 3 bytes"), std::string::npos);
    EXPECT_NE(parseError(fileBytes(ok, 8, 1ull << 40)).find("oversized header"), std::string::npos);
    EXPECT_NE(parseError(fileBytes(ok, 8, ok.size() + 100)).find("truncated file"),
              std::string::npos);
    EXPECT_NE(parseError(fileBytes(ok, 4)).find("runs past the end"), std::string::npos);
    EXPECT_NE(parseError(fileBytes(ok, 12)).find("4 unused bytes at the end"), std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},
                                       "b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                                   12))
                  .find("overlaps"),
              std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}})", 4))
                  .find("unsupported dtype 'F16'"),
              std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8))
                  .find("needs 12 bytes"),
              std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8))
                  .find("negative"),
              std::string::npos);
    EXPECT_NE(
        parseError(
            fileBytes(
                R"({"a":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,8]}})",
                8))
            .find("too large"),
        std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 8))
                  .find("reversed"),
              std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8))
                  .find("unused bytes before"),
              std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"([1,2])", 0)).find("not a JSON object"), std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"a":)", 0)).find("malformed header"), std::string::npos);
    EXPECT_NE(parseError(fileBytes(R"({"__metadata__":{"x":1}})", 0))
                  .find("metadata 'x' is not a string"),
              std::string::npos);
}

TEST(SafeTensors, ModelLoadRejectsFilesThatDisagreeWithTheirConfig) {
    const Model m = test::makeModel(kSmallModel, 5);
    auto loadError = [](SafeTensorsFile f) {
        return test::errorOf([&] { Model::fromSafeTensors(f); });
    };

    SafeTensorsFile wrongShape = m.toSafeTensors();
    wrongShape.tensors["decoder.layers.0.self_attn.random.r"] = Tensor({2, 16, 15});
    EXPECT_NE(loadError(wrongShape)
                  .find("'decoder.layers.0.self_attn.random.r' has shape [2, 16, 15] but the "
                        "configuration needs [2, 16, 16]"),
              std::string::npos);

    SafeTensorsFile missing = m.toSafeTensors();
    missing.tensors.erase("encoder.layers.0.self_attn.dense.w2.weight");
    EXPECT_NE(
        loadError(missing).find("missing tensor 'encoder.layers.0.self_attn.dense.w2.weight'"),
        std::string::npos);

    SafeTensorsFile extra = m.toSafeTensors();
    extra.tensors["decoder.layers.0.self_attn.q_proj.weight"] = Tensor({16, 16});
    EXPECT_NE(loadError(extra).find("unexpected tensor 'decoder.layers.0.self_attn.q_proj.weight'"),
              std::string::npos);

    SafeTensorsFile notOurs = m.toSafeTensors();
    notOurs.metadata.erase("format");
    EXPECT_NE(loadError(notOurs).find("not an attnviz checkpoint"), std::string::npos);

    SafeTensorsFile badConfig = m.toSafeTensors();
    badConfig.metadata["config"] = R"({"cross": {"variant": "nope"}})";
    EXPECT_NE(loadError(badConfig).find("unknown attention variant 'nope'"), std::string::npos);

    SafeTensorsFile nan = m.toSafeTensors();
    nan.tensors["generator.bias"].m(0, 3) = std::nanf("");
    EXPECT_NE(loadError(nan).find("NaN"), std::string::npos);

    EXPECT_NE(test::errorOf([] {
                  Model::load("/nonexistent/m.safetensors");
              }).find("cannot open '/nonexistent/m.safetensors'"),
              std::string::npos);
}

TEST(SafeTensors, TruncatedCheckpointOnDiskIsRefusedWithItsPath) {
    const Model m = test::makeModel(kSmallModel, 5);
    std::string bytes = m.toSafeTensors().serialize();
    bytes.resize(bytes.size() - 100);
    const std::string path = test::tempPath("truncated.safetensors");
    std::ofstream(path, std::ios::binary) << bytes;
    const std::string e = test::errorOf([&] { Model::load(path); });
    EXPECT_NE(e.find(path), std::string::npos);
    EXPECT_NE(e.find("runs past the end"), std::string::npos);
}

TEST(SafeTensors, AtomicWriteToAnUnwritablePlaceLeavesNothing) {
    const std::string e =
        test::errorOf([] { writeFileAtomically("/nonexistent-dir/x.bin", "data"); });
    EXPECT_NE(e.find("cannot write '/nonexistent-dir/x.bin'"), std::string::npos);
}
