// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_set.h"

#include <sys/stat.h>

#include <cstdlib>

#include "error.h"
#include "idx.h"
#include "tasks.h"

namespace attnviz {

ImageSet ImageSet::slice(size_t begin, size_t end) const {
    ImageSet s;
    s.rows = rows;
    s.cols = cols;
    const size_t px = size_t(rows) * size_t(cols);
    s.pixels.assign(pixels.begin() + long(begin * px), pixels.begin() + long(end * px));
    s.labels.assign(labels.begin() + long(begin), labels.begin() + long(end));
    return s;
}

// Not yet marked for translation: the app that shows them will mark them (ATTNVIZ_TR).
const std::vector<std::string>& fashionMnistClasses() {
    static const std::vector<std::string> c{"T-shirt/top", "Trouser",   "Pullover", "Dress",
                                            "Coat",        "Sandal",    "Shirt",    "Sneaker",
                                            "Bag",         "Ankle boot"};
    return c;
}

std::string fashionMnistDir() {
    const char* env = std::getenv("ATTNVIZ_FASHION_MNIST");
    return env && *env ? env : "/usr/share/datasets/fashion-mnist";
}

namespace {

// `dir/name.gz`, else `dir/name`; Error naming both when neither exists.
std::string findFile(const std::string& dir, const std::string& name) {
    struct stat st {};
    for (const std::string& p : {dir + "/" + name + ".gz", dir + "/" + name})
        if (::lstat(p.c_str(), &st) == 0) return p;
    throw Error("Fashion-MNIST: neither '" + dir + "/" + name + ".gz' nor '" + dir + "/" + name +
                "' exists (install the Debian package dataset-fashion-mnist, or set "
                "ATTNVIZ_FASHION_MNIST to the directory that holds the files)");
}

}  // namespace

ImageSet loadFashionMnist(const std::string& dir, const std::string& split) {
    if (split != "train" && split != "test")
        throw Error("Fashion-MNIST has the splits \"train\" and \"test\", not \"" + split + "\"");
    const std::string stem = split == "train" ? "train" : "t10k";
    const std::string imagesPath = findFile(dir, stem + "-images-idx3-ubyte");
    const std::string labelsPath = findFile(dir, stem + "-labels-idx1-ubyte");
    IdxArray images = readIdx(imagesPath);
    IdxArray labels = readIdx(labelsPath);
    if (images.dims.size() != 3 || images.dims[1] != 28 || images.dims[2] != 28)
        throw Error("'" + imagesPath + "' does not hold 28×28 images (an IDX array [N, 28, 28])");
    if (labels.dims.size() != 1 || labels.dims[0] != images.dims[0])
        throw Error("'" + labelsPath + "' does not hold one label per image of '" + imagesPath +
                    "' (" + std::to_string(images.dims[0]) + ")");
    const size_t classes = fashionMnistClasses().size();
    for (size_t i = 0; i < labels.data.size(); ++i)
        if (labels.data[i] >= classes)
            throw Error("'" + labelsPath + "': label " + std::to_string(labels.data[i]) +
                        " of image " + std::to_string(i) + " is not a class (0 … 9)");
    ImageSet s;
    s.rows = 28;
    s.cols = 28;
    s.pixels = std::move(images.data);
    s.labels = std::move(labels.data);
    return s;
}

bool isImageTask(const std::string& task) {
    return task == kFashionMnistTask;
}

std::vector<std::string> allTaskNames() {
    std::vector<std::string> names = taskNames();
    names.push_back(kFashionMnistTask);
    return names;
}

std::vector<Example> imageExamples(const ImageSet& set) {
    std::vector<Example> out(set.size());
    const size_t px = size_t(set.rows) * size_t(set.cols);
    for (size_t i = 0; i < set.size(); ++i) {
        out[i].pixels.assign(set.image(i), set.image(i) + px);
        out[i].label = set.labels[i];
    }
    return out;
}

void splitValidation(const ImageSet& all, ImageSet& train, ImageSet& validation) {
    if (all.size() <= kFashionMnistValidation)
        throw Error("the training images are too few to hold out " +
                    std::to_string(kFashionMnistValidation) + " for validation");
    const size_t cut = all.size() - kFashionMnistValidation;
    train = all.slice(0, cut);
    validation = all.slice(cut, all.size());
}

}  // namespace attnviz
