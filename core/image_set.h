// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Labelled grayscale images for the vision models: Fashion-MNIST (Xiao, Rasul & Vollgraf
// 2017; Debian's dataset-fashion-mnist) read from its four IDX files (core/idx.h), and the
// deterministic validation split held out from its training images (docs/training.md).
#include <cstdint>
#include <string>
#include <vector>

#include "tasks.h"

namespace attnviz {

// N images of rows × cols pixels, 0 (black) … 255 (white), row-major, image after image.
struct ImageSet {
    int rows = 0, cols = 0;
    std::vector<uint8_t> pixels;  // [N, rows·cols]
    std::vector<uint8_t> labels;  // [N], each < classes().size()
    size_t size() const { return labels.size(); }
    const uint8_t* image(size_t i) const { return pixels.data() + i * size_t(rows) * size_t(cols); }
    // Images [begin, end) as a new set.
    ImageSet slice(size_t begin, size_t end) const;
};

// The ten classes of Fashion-MNIST in label order ("T-shirt/top", "Trouser", …).
const std::vector<std::string>& fashionMnistClasses();

// Where the files are: $ATTNVIZ_FASHION_MNIST when set, else /usr/share/datasets/fashion-mnist.
std::string fashionMnistDir();

// "train" (60,000 images) or "test" (10,000) of the set in `dir` (gzip or plain IDX:
// train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz], t10k-…). Error naming the file
// and the rule when a file is missing or hostile, the images are not [N, 28, 28], the labels
// not [N] or a label is ≥ 10.
ImageSet loadFashionMnist(const std::string& dir, const std::string& split);

// The validation split: the last kFashionMnistValidation images of the training file are
// held out (never trained on); the first 55,000 are trained on. The file is already in a
// random order, so the split is class-balanced to within a few percent.
constexpr size_t kFashionMnistValidation = 5000;
void splitValidation(const ImageSet& all, ImageSet& train, ImageSet& validation);

// The built-in image task's name: "fashion-mnist" (train and eval --task).
constexpr const char* kFashionMnistTask = "fashion-mnist";
bool isImageTask(const std::string& task);
// Every task train and eval take: the text tasks (core/tasks.h, taskNames) and the image task.
std::vector<std::string> allTaskNames();

// Every image of `set` as an Example (pixels and label).
std::vector<Example> imageExamples(const ImageSet& set);

}  // namespace attnviz
