// SPDX-License-Identifier: GPL-3.0-or-later
// The IDX reader (core/idx.h) on hand-made good and hostile files, and Fashion-MNIST as
// installed (core/image_set.h).
#include "core/idx.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <fstream>

#include "core/error.h"
#include "core/image_set.h"
#include "test_util.h"
#include "tests/expect.h"

namespace attnviz {
namespace {

std::string header(unsigned char type, const std::vector<uint32_t>& dims) {
    std::string h{'\0', '\0', char(type), char(dims.size())};
    for (uint32_t d : dims)
        for (int s = 24; s >= 0; s -= 8) h += char((d >> s) & 0xFF);
    return h;
}

std::string gzip(const std::string& raw) {
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&z, raw.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    z.avail_in = uInt(raw.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::string write(const std::string& name, const std::string& bytes) {
    const std::string p = test::tempPath(name);
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
}

std::string parseError(const std::string& bytes, uint64_t limit = kMaxIdxBytes) {
    return test::errorOf([&] { parseIdx(bytes, "'f'", limit); });
}

TEST(Idx, ReadsPlainAndGzipArrays) {
    const std::string raw = header(0x08, {2, 3}) + std::string("\x01\x02\x03\x04\x05\xFF", 6);
    for (const std::string& bytes : {raw, gzip(raw)}) {
        const IdxArray a = readIdx(write("ok.idx", bytes));
        EXPECT_EQ(a.dims, (std::vector<uint32_t>{2, 3}));
        EXPECT_EQ(a.elements(), 6u);
        EXPECT_EQ(a.data, (std::vector<uint8_t>{1, 2, 3, 4, 5, 255}));
    }
}

TEST(Idx, RefusesBadHeaders) {
    EXPECT_HAS(parseError(""), "too short");
    EXPECT_HAS(parseError(std::string("\x01\x00\x08\x01", 4) + std::string(5, 'x')),
               "not an IDX file: it starts with 0x01 0x00");
    EXPECT_HAS(parseError(header(0x0D, {1}) + "abcd"), "type 0x0D (32-bit float)");
    EXPECT_HAS(parseError(header(0x42, {1}) + "a"), "type 0x42 (unknown)");
    EXPECT_HAS(parseError(header(0x08, {})), "has 0 dimensions");
    EXPECT_HAS(parseError(header(0x08, {1, 1, 1, 1, 1}) + "a"), "has 5 dimensions");
    EXPECT_HAS(parseError(header(0x08, {3, 0, 2})), "dimension 1 has size 0");
    EXPECT_HAS(parseError(header(0x08, {4, 4}).substr(0, 9)), "ends inside the 2 dimension sizes");
}

TEST(Idx, RefusesHugeSizesTruncationAndTrailingBytes) {
    // 2^31 in one dimension and a product past 2^64 in four: refused from the header.
    EXPECT_HAS(parseError(header(0x08, {0x80000000u}) + "abc"), "more than 268435456 elements");
    EXPECT_HAS(parseError(header(0x08, {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu})),
               "more than");
    EXPECT_HAS(parseError(header(0x08, {2, 3}) + "abcde"), "truncated: its sizes need 6 bytes");
    EXPECT_HAS(parseError(header(0x08, {2, 3}) + "abcdefg"), "1 bytes after the data");
    EXPECT_HAS(parseError(header(0x08, {100}) + std::string(100, 'a'), 99), "more than 99");
}

TEST(Idx, RefusesBadGzip) {
    const std::string raw = header(0x08, {4}) + "abcd";
    const std::string z = gzip(raw);
    EXPECT_HAS(parseError(z.substr(0, z.size() - 6)), "gzip stream is truncated");
    EXPECT_HAS(parseError(z + "junk"), "4 bytes follow the gzip stream");
    std::string corrupt = z;
    corrupt[12] = char(corrupt[12] ^ 0x55);
    EXPECT_HAS(parseError(corrupt), "gzip");
    EXPECT_HAS(parseError(gzip(header(0x08, {2}) + "abc")), "(decompressed) has 1 bytes after");
}

TEST(Idx, StopsAGzipBombAtTheLimit) {
    // 64 MiB of zeros compress to ~64 KiB; with a limit of 1 MiB inflation stops at once.
    const std::string bomb = gzip(header(0x08, {64u << 20}) + std::string(64u << 20, '\0'));
    EXPECT_LT(bomb.size(), 100000u);
    EXPECT_HAS(parseError(bomb, 1u << 20), "decompresses to more than the limit");
    // Without the header's help: a valid header of 1 element, then 64 MiB of zeros.
    EXPECT_HAS(parseError(gzip(header(0x08, {1}) + std::string(64u << 20, '\0')), 1u << 20),
               "decompresses to more than the limit");
}

TEST(Idx, GoesThroughTheInputRoad) {
    const std::string fifo = test::tempPath("idx.fifo");
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_HAS(test::errorWithin(
                   "readIdx", [](const std::string& p) { readIdx(p); }, fifo, fifo),
               "is a FIFO (named pipe), not a file");
    ::unlink(fifo.c_str());
    EXPECT_HAS(test::errorOf([] { readIdx(::testing::TempDir()); }), "is a directory");
    EXPECT_HAS(test::errorOf([] { readIdx(test::tempPath("no-such.idx")); }), "cannot open");
    EXPECT_HAS(test::errorOf([] { readIdx("/dev/zero"); }), "character device");
}

TEST(ImageSet, RefusesMismatchedFiles) {
    const std::string dir = test::tempPath("fmnist");
    ::mkdir(dir.c_str(), 0700);
    write("fmnist/t10k-images-idx3-ubyte", header(0x08, {2, 28, 28}) + std::string(2 * 784, 'a'));
    write("fmnist/t10k-labels-idx1-ubyte", header(0x08, {3}) + "abc");
    EXPECT_HAS(test::errorOf([&] { loadFashionMnist(dir, "test"); }), "one label per image");
    write("fmnist/t10k-labels-idx1-ubyte", header(0x08, {2}) + std::string("\x01\x0A", 2));
    EXPECT_HAS(test::errorOf([&] { loadFashionMnist(dir, "test"); }), "label 10 of image 1");
    write("fmnist/t10k-labels-idx1-ubyte", header(0x08, {2}) + std::string("\x01\x09", 2));
    const ImageSet s = loadFashionMnist(dir, "test");
    EXPECT_EQ(s.size(), 2u);
    EXPECT_EQ(s.image(1)[0], 'a');
    write("fmnist/t10k-images-idx3-ubyte", header(0x08, {2, 28, 27}) + std::string(2 * 756, 'a'));
    EXPECT_HAS(test::errorOf([&] { loadFashionMnist(dir, "test"); }), "28×28 images");
    EXPECT_HAS(test::errorOf([&] { loadFashionMnist(dir, "train"); }), "dataset-fashion-mnist");
    EXPECT_HAS(test::errorOf([&] { loadFashionMnist(dir, "dev"); }), "not \"dev\"");
}

TEST(ImageSet, ReadsTheInstalledFashionMnist) {
    const std::string dir = "/usr/share/datasets/fashion-mnist";
    struct stat st {};
    if (::stat((dir + "/t10k-images-idx3-ubyte.gz").c_str(), &st) != 0)
        GTEST_SKIP() << "dataset-fashion-mnist is not installed";
    const ImageSet test = loadFashionMnist(dir, "test");
    ASSERT_EQ(test.size(), 10000u);
    std::vector<int> perClass(10, 0);
    for (uint8_t l : test.labels) ++perClass[l];
    for (int n : perClass) EXPECT_EQ(n, 1000);  // the test set is balanced
    EXPECT_EQ(test.labels[0], 9);               // the first test image is an ankle boot
    const ImageSet all = loadFashionMnist(dir, "train");
    ASSERT_EQ(all.size(), 60000u);
    ImageSet train, validation;
    splitValidation(all, train, validation);
    EXPECT_EQ(train.size(), 55000u);
    EXPECT_EQ(validation.size(), kFashionMnistValidation);
    EXPECT_EQ(validation.labels[0], all.labels[55000]);
    EXPECT_EQ(0, std::memcmp(validation.image(0), all.image(55000), 784));
}

}  // namespace
}  // namespace attnviz
