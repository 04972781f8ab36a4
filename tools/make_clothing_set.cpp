// SPDX-License-Identifier: GPL-3.0-or-later
// Makes the bundled real-photo image set (resources/data/clothing-photos, issue 49 part 2) from
// the Clothing dataset (Alexey Grigorev; CC0): a folder with labels.csv (image,contributor,
// label,kids) and images/<image>.jpg. scripts/make-clothing-set runs it.
//
//   attnviz-make-clothing-set SOURCE OUTDIR
//       Keeps the photos of the ten classes of kClasses (the dataset's "top-10"), splits them
//       by contributor into train / validation / test and writes, for each split S,
//         S-images-idx4-ubyte.gz   IDX ubyte [N, 64, 64, 3]: row-major RGB (core/idx.h)
//         S-labels-idx1-ubyte.gz   IDX ubyte [N]: the class, 0 … 9 in kClasses' order
//       gzip-compressed as Fashion-MNIST's files are (one member, no name, time 0), and
//         classes.txt              the class names in label order, one a line
//         contributors.tsv         contributor, split, photos (each contributor once)
//         images.tsv               split, row, image, contributor, label, kids: where each
//                                  row of each split's IDX files comes from
//       then reads every IDX file back through core's readIdx and prints the counts as the
//       Markdown tables of the set's README.
//
//   attnviz-make-clothing-set --sheet OUT.png [--split S] [--count N] DIR
//       A contact sheet of the first N (40) images of split S (train) of DIR, read back
//       through readIdx, each twice enlarged with its class below, to look at.
//
// Every photo (decoded by render/image_file.h: the checks of a person's own image, turned
// upright, laid over white) becomes a 64 × 64 RGB image: its longer side scaled to 64 by
// exact area averaging (each output pixel the mean of the input area it covers, weights in
// whole numbers, rounded half up), the shorter side round(short · 64 / long), at least 1; and
// centred (offsets rounded down) on a 64 × 64 image of the photo's mean colour (each channel's
// mean over the photo, rounded half up). Integer arithmetic only: the same bytes on every
// machine.
//
// The split: contributors in the order of the SHA-256 of kSplitSalt followed by their number;
// each goes to test while test stays within 15 % of the photos (rounded down), else to
// validation while it stays within 15 %, else to train; a contributor with more than 10 % of
// that share (the people with dozens or hundreds of photos) always to train, so that neither
// held-out split is mostly one person's bed and camera. Rows of a split are ordered by image
// name (random ids, so classes and contributors are mixed).
#include <zlib.h>

#include <QCryptographicHash>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "core/file_io.h"
#include "core/garment_cutout.h"
#include "core/idx.h"
#include "core/image_input.h"
#include "core/input_limits.h"
#include "render/image_file.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

constexpr int kSide = 64;
constexpr const char* kClasses[] = {"T-Shirt", "Longsleeve", "Pants",  "Shoes", "Shirt",
                                    "Dress",   "Outwear",    "Shorts", "Skirt", "Hat"};
constexpr int kClassCount = int(std::size(kClasses));
constexpr const char* kSplits[] = {"train", "validation", "test"};
constexpr int kHeldOutPercent = 15;  // each of validation and test, of all photos
// The most of a held-out split one contributor may hold, in percent: each is then the photos
// of at least ten people, none of whom outweighs the rest.
constexpr int kMaxContributorPercent = 10;
constexpr const char* kSplitSalt = "attnviz clothing-photos split 1:";
constexpr uint64_t kMaxLabelsBytes = 16ull << 20;

struct Photo {
    std::string image, contributor, kids;
    int label = 0;
    int split = 0;  // index into kSplits
};

int classOf(const std::string& name) {
    for (int k = 0; k < kClassCount; ++k)
        if (name == kClasses[k]) return k;
    return -1;
}

std::vector<std::string> splitOn(const std::string& line, char sep) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, sep)) cells.push_back(cell);
    if (!line.empty() && line.back() == sep) cells.emplace_back();
    return cells;
}

bool allOf(const std::string& s, const char* allowed) {
    return !s.empty() && s.find_first_not_of(allowed) == std::string::npos;
}

// The photos of labels.csv in the ten classes. Error naming the line of anything unexpected.
std::vector<Photo> readLabels(const fs::path& source) {
    const std::string path = (source / "labels.csv").string();
    std::istringstream in(readTextFile(path, kMaxLabelsBytes, "label list"));
    std::string line;
    if (!std::getline(in, line) || line != "image,contributor,label,kids")
        throw Error(path + ": the first line must be 'image,contributor,label,kids'");
    std::vector<Photo> photos;
    std::set<std::string> seen;
    for (int n = 2; std::getline(in, line); ++n) {
        const auto cells = splitOn(line, ',');
        const std::string where = path + ":" + std::to_string(n) + ": ";
        if (cells.size() != 4) throw Error(where + "expected 4 comma-separated fields");
        if (!allOf(cells[0], "0123456789abcdef-"))
            throw Error(where + "the image name '" + excerpt(cells[0]) + "' is not an id");
        if (!allOf(cells[1], "0123456789"))
            throw Error(where + "the contributor '" + excerpt(cells[1]) + "' is not a number");
        if (cells[3] != "True" && cells[3] != "False")
            throw Error(where + "kids must be True or False");
        if (!seen.insert(cells[0]).second) throw Error(where + "the image is listed twice");
        const int label = classOf(cells[2]);
        if (label < 0) continue;  // Not sure, Skip, Other and the ten less frequent labels
        photos.push_back({cells[0], cells[1], cells[3], label, 0});
    }
    return photos;
}

std::string saltedHash(const std::string& contributor) {
    return QCryptographicHash::hash(QByteArray(kSplitSalt) + QByteArray::fromStdString(contributor),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

// Sets each photo's split, by contributor (see the top of the file).
void splitByContributor(std::vector<Photo>& photos) {
    std::map<std::string, int> count;
    for (const Photo& p : photos) ++count[p.contributor];
    std::vector<std::pair<std::string, std::string>> order;  // hash, contributor
    for (const auto& [c, n] : count) order.emplace_back(saltedHash(c), c);
    std::sort(order.begin(), order.end());
    const int quota = int(photos.size()) * kHeldOutPercent / 100;
    const int most = quota * kMaxContributorPercent / 100;
    int test = 0, validation = 0;
    std::map<std::string, int> splitOf;
    for (const auto& [hash, c] : order) {
        const int n = count[c];
        if (n > most) {
            splitOf[c] = 0;
        } else if (test + n <= quota) {
            test += n;
            splitOf[c] = 2;
        } else if (validation + n <= quota) {
            validation += n;
            splitOf[c] = 1;
        } else {
            splitOf[c] = 0;
        }
    }
    for (Photo& p : photos) p.split = splitOf[p.contributor];
}

// One gzip member of `data` at level 9 with zlib's default header (no name, time 0), as
// `gzip -9 -n` writes: the same bytes every run.
std::string gzip(const std::string& data) {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        throw Error("cannot start zlib");
    std::string out(deflateBound(&z, uLong(data.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) throw Error("zlib could not compress the data");
    return out;
}

// An IDX ubyte array (core/idx.h): the header, then `data`.
std::string idx(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& data) {
    std::string out = {'\0', '\0', '\x08', char(dims.size())};
    for (uint32_t d : dims)
        for (int shift = 24; shift >= 0; shift -= 8) out += char((d >> shift) & 0xFF);
    out.append(data.begin(), data.end());
    return out;
}

std::string imagesFile(const std::string& split) {
    return split + "-images-idx4-ubyte.gz";
}
std::string labelsFile(const std::string& split) {
    return split + "-labels-idx1-ubyte.gz";
}

int make(const fs::path& source, const fs::path& outDir, bool cutout) {
    std::vector<Photo> photos = readLabels(source);
    if (photos.empty())
        throw Error((source / "labels.csv").string() + " has no photo of the classes");
    splitByContributor(photos);
    std::sort(photos.begin(), photos.end(), [](const Photo& a, const Photo& b) {
        return std::tie(a.split, a.image) < std::tie(b.split, b.image);
    });
    fs::create_directories(outDir);

    std::string imagesTsv = "split\trow\timage\tcontributor\tlabel\tkids\n";
    std::array<std::vector<uint8_t>, 3> pixels, labels;
    std::array<std::array<int, kClassCount>, 3> perClass{};
    int smallest = kSide * 100, done = 0, cutOut = 0;
    for (const Photo& p : photos) {
        const ColorImage photo =
            render::readColorImageFile((source / "images" / (p.image + ".jpg")).string());
        smallest = std::min(smallest, std::max(photo.width, photo.height));
        GarmentCutout cut;
        const std::vector<uint8_t> im =
            cutout ? cutOutColorGarment(photo, kSide, &cut) : prepareColorModelImage(photo, kSide);
        cutOut += cut.found;
        const int s = p.split;
        imagesTsv += std::string(kSplits[s]) + "\t" + std::to_string(labels[size_t(s)].size()) +
                     "\t" + p.image + "\t" + p.contributor + "\t" + kClasses[p.label] + "\t" +
                     p.kids + "\n";
        pixels[size_t(s)].insert(pixels[size_t(s)].end(), im.begin(), im.end());
        labels[size_t(s)].push_back(uint8_t(p.label));
        ++perClass[size_t(s)][size_t(p.label)];
        if (++done % 500 == 0) std::cerr << done << " of " << photos.size() << " photos\n";
    }

    std::string classes;
    for (const char* c : kClasses) classes += std::string(c) + "\n";
    std::map<std::pair<int, int>, std::pair<std::string, int>> contributors;  // (split, number)
    for (const Photo& p : photos) {
        auto& e = contributors[{p.split, std::stoi(p.contributor)}];
        e.first = p.contributor;
        ++e.second;
    }
    std::string contributorsTsv = "contributor\tsplit\tphotos\n";
    for (const auto& [key, e] : contributors)
        contributorsTsv +=
            e.first + "\t" + kSplits[key.first] + "\t" + std::to_string(e.second) + "\n";

    writeFileAtomically((outDir / "classes.txt").string(), classes);
    writeFileAtomically((outDir / "contributors.tsv").string(), contributorsTsv);
    writeFileAtomically((outDir / "images.tsv").string(), imagesTsv);
    for (int s = 0; s < 3; ++s) {
        const uint32_t n = uint32_t(labels[size_t(s)].size());
        const std::string im = idx({n, kSide, kSide, 3}, pixels[size_t(s)]);
        const std::string lb = idx({n}, labels[size_t(s)]);
        const fs::path imPath = outDir / imagesFile(kSplits[s]);
        const fs::path lbPath = outDir / labelsFile(kSplits[s]);
        writeFileAtomically(imPath.string(), gzip(im));
        writeFileAtomically(lbPath.string(), gzip(lb));
        // Read back as the engine will read them.
        const IdxArray a = readIdx(imPath.string()), b = readIdx(lbPath.string());
        if (a.dims != std::vector<uint32_t>{n, kSide, kSide, 3} || a.data != pixels[size_t(s)] ||
            b.dims != std::vector<uint32_t>{n} || b.data != labels[size_t(s)])
            throw Error(imPath.string() + " does not read back as written");
    }

    // The README's tables.
    std::array<int, 3> contributorsIn{};
    for (const auto& [key, e] : contributors) ++contributorsIn[size_t(key.first)];
    std::cout << "| split | contributors | photos |\n|---|---:|---:|\n";
    for (int s = 0; s < 3; ++s)
        std::cout << "| " << kSplits[s] << " | " << contributorsIn[size_t(s)] << " | "
                  << labels[size_t(s)].size() << " |\n";
    std::cout << "| all | " << contributors.size() << " | " << photos.size() << " |\n\n";
    std::cout
        << "| label | class | train | validation | test | all |\n|---:|---|---:|---:|---:|---:|\n";
    for (int k = 0; k < kClassCount; ++k) {
        std::cout << "| " << k << " | " << kClasses[k];
        int all = 0;
        for (int s = 0; s < 3; ++s) {
            std::cout << " | " << perClass[size_t(s)][size_t(k)];
            all += perClass[size_t(s)][size_t(k)];
        }
        std::cout << " | " << all << " |\n";
    }
    if (cutout) std::cerr << "cut out: " << cutOut << " of " << photos.size() << " photos\n";
    std::cerr << "wrote " << photos.size() << " photos to " << outDir.string()
              << " (the smallest longer side: " << smallest << " pixels)\n";
    return 0;
}

int sheet(const fs::path& out, const fs::path& dir, const std::string& split, int count) {
    const IdxArray images = readIdx((dir / imagesFile(split)).string());
    const IdxArray labels = readIdx((dir / labelsFile(split)).string());
    std::vector<std::string> classes;
    {
        std::istringstream in(readTextFile((dir / "classes.txt").string(), 4096, "class list"));
        for (std::string line; std::getline(in, line);) classes.push_back(line);
    }
    if (images.dims.size() != 4 || images.dims[1] != kSide || images.dims[2] != kSide ||
        images.dims[3] != 3 || labels.dims.size() != 1 || labels.dims[0] != images.dims[0])
        throw Error((dir / imagesFile(split)).string() + " is not [N, 64, 64, 3] with N labels");
    const int n = std::min(count, int(images.dims[0]));
    constexpr int kCols = 8, kScale = 2, kCell = kSide * kScale, kText = 18, kGap = 4;
    const int rows = (n + kCols - 1) / kCols;
    QImage sheet(kCols * (kCell + kGap) + kGap, rows * (kCell + kText + kGap) + kGap,
                 QImage::Format_RGB888);
    sheet.fill(Qt::white);
    QPainter painter(&sheet);
    QFont font = painter.font();
    font.setPixelSize(12);
    painter.setFont(font);
    for (int i = 0; i < n; ++i) {
        // The bytes as stored, read as R, G, B: a sheet in the wrong colours or turned means
        // the file is wrong.
        const QImage im(images.data.data() + size_t(i) * kSide * kSide * 3, kSide, kSide, kSide * 3,
                        QImage::Format_RGB888);
        const int x = kGap + (i % kCols) * (kCell + kGap),
                  y = kGap + (i / kCols) * (kCell + kText + kGap);
        painter.drawImage(QRect(x, y, kCell, kCell), im);
        const int label = labels.data[size_t(i)];
        painter.setPen(Qt::black);
        painter.drawText(
            QRect(x, y + kCell, kCell, kText), Qt::AlignCenter,
            QString::number(i) + ": " +
                (label < int(classes.size()) ? QString::fromStdString(classes[size_t(label)])
                                             : QString::number(label)));
    }
    painter.end();
    if (!sheet.save(QString::fromStdString(out.string()), "PNG"))
        throw Error("cannot write '" + out.string() + "'");
    std::cerr << "wrote " << out.string() << " (" << n << " images of " << split << ")\n";
    return 0;
}

int usage() {
    std::cerr << "usage: attnviz-make-clothing-set [--cutout] SOURCE OUTDIR\n"
                 "       attnviz-make-clothing-set --sheet OUT.png [--split S] [--count N] DIR\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    try {
        if (!args.empty() && args[0] == "--sheet") {
            if (args.size() < 3) return usage();
            const fs::path out = args[1];
            std::string split = "train";
            int count = 40;
            size_t i = 2;
            for (; i + 1 < args.size(); i += 2) {
                if (args[i] == "--split")
                    split = args[i + 1];
                else if (args[i] == "--count")
                    count = std::stoi(args[i + 1]);
                else
                    break;
            }
            if (i + 1 != args.size() || count < 1) return usage();
            if (std::find(std::begin(kSplits), std::end(kSplits), split) == std::end(kSplits))
                throw Error("--split must be train, validation or test");
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QGuiApplication app(argc, argv);  // fonts for the captions
            return sheet(out, args[i], split, count);
        }
        const bool cutout = !args.empty() && args[0] == "--cutout";
        if (cutout) args.erase(args.begin());
        if (args.size() != 2 || args[0].rfind("-", 0) == 0) return usage();
        return make(args[0], args[1], cutout);
    } catch (const std::exception& e) {
        std::cerr << "attnviz-make-clothing-set: " << e.what() << "\n";
        return 1;
    }
}
