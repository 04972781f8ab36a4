// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Labelled images for the vision models, the image tasks of train and eval (docs/training.md):
//  - "fashion-mnist": Fashion-MNIST (Xiao, Rasul & Vollgraf 2017; Debian's
//    dataset-fashion-mnist), 28 × 28 grayscale, read from its four IDX files (core/idx.h), with
//    a deterministic validation split held out from its training images;
//  - "clothing-photos": the bundled real photos of resources/data/clothing-photos/ (issue 49),
//    64 × 64 RGB, split by contributor into train, validation and test files;
//  - "clothing-photos-cutout": the same photos with the garment cut out of its background
//    (resources/data/clothing-photos-cutout/, the same rows in the same splits).
#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "tasks.h"

namespace attnviz {

// N images of rows × cols pixels of `channels` values (1 gray, 3 RGB), 0 … 255, row-major
// with a pixel's values together, image after image.
struct ImageSet {
    int rows = 0, cols = 0, channels = 1;
    std::vector<uint8_t> pixels;  // [N, rows, cols, channels]
    std::vector<uint8_t> labels;  // [N], each < classes().size()
    size_t size() const { return labels.size(); }
    size_t imageBytes() const { return size_t(rows) * size_t(cols) * size_t(channels); }
    const uint8_t* image(size_t i) const { return pixels.data() + i * imageBytes(); }
    // Image i's pixels [rows, cols, channels], as Model::analyzeImage takes them.
    std::vector<uint8_t> imagePixels(size_t i) const { return {image(i), image(i) + imageBytes()}; }
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

// The ten classes of the clothing photos in label order ("T-Shirt", "Longsleeve", … "Hat";
// the dataset's own names, as its classes.txt lists them).
const std::vector<std::string>& clothingPhotoClasses();

// Where the clothing photos are: $ATTNVIZ_CLOTHING_PHOTOS when set, else
// data/clothing-photos beside the bundled models (core/bundled_models.h).
std::string clothingPhotosDir();

// Where the cut-out photos are: $ATTNVIZ_CLOTHING_PHOTOS_CUTOUT when set, else
// data/clothing-photos-cutout beside the bundled models.
std::string clothingCutoutDir();

// "train" (1,898 photos), "validation" (406) or "test" (406) of the set in `dir`
// (<split>-images-idx4-ubyte[.gz], <split>-labels-idx1-ubyte[.gz], classes.txt). Error naming
// the file and the rule when a file is missing or hostile, the images are not [N, 64, 64, 3],
// the labels not [N], a label ≥ 10, or classes.txt does not list clothingPhotoClasses().
ImageSet loadClothingPhotos(const std::string& dir, const std::string& split);

// The image tasks' names (train and eval --task).
constexpr const char* kFashionMnistTask = "fashion-mnist";
constexpr const char* kClothingPhotosTask = "clothing-photos";
constexpr const char* kClothingCutoutTask = "clothing-photos-cutout";

// An image task: what its images are and where its splits come from.
struct ImageTask {
    std::string name;
    int imageSize = 0, channels = 1;
    const std::vector<std::string>* classes = nullptr;
    // Its photos have the garment cut out on kCutoutPad gray (core/garment_cutout.h): a
    // person's photo for its models is prepared so (cutOutColorGarment), not only fitted.
    bool cutOut = false;
    // "train" (trained on), "validation" (held out: chooses the checkpoint) or "test" (the
    // final numbers only). Error naming the split otherwise, or what is wrong with the files.
    ImageSet load(const std::string& split) const;
    // "train" and "validation" together, each file read once (Fashion-MNIST's two come from
    // one file).
    void loadTraining(ImageSet& train, ImageSet& validation) const;
    // Error naming `what` (a model's path) and the difference unless a model of `cfg`
    // classifies this task's images: arch "vit", the same image size, channels and classes.
    void checkModel(const ModelConfig& cfg, const std::string& what) const;
};
// Every image task, fashion-mnist first (then clothing-photos, clothing-photos-cutout: two
// tasks of the same shape and classes, which imageTaskFor tells apart by name only).
const std::vector<ImageTask>& imageTasks();
// Their names for a message: "fashion-mnist, clothing-photos or clothing-photos-cutout".
std::string imageTaskNames();
// The task called `name`, or nullptr when it is not an image task.
const ImageTask* findImageTask(const std::string& name);
// The image task whose images and class names `cfg` and `classNames` take, or nullptr (a model
// trained on images of the person's own making). `trainedOn`, the task the checkpoint's training
// record names (Model::training().task; "" when none), picks among tasks of the same shape and
// classes (the plain and the cut-out clothing photos); without it, the first such task.
const ImageTask* imageTaskFor(const ModelConfig& cfg, const std::vector<std::string>& classNames,
                              const std::string& trainedOn = {});
// The task whose images a model of `cfg` reads, for browsing them: imageTaskFor, else the task
// `trainedOn` names or the first task of the same image size and channels (a model of that
// shape with class names of its own), else nullptr (a shape no bundled task has).
const ImageTask* imageTaskReadBy(const ModelConfig& cfg, const std::vector<std::string>& classNames,
                                 const std::string& trainedOn = {});
bool isImageTask(const std::string& task);
// Every task train and eval take: the text tasks (core/tasks.h, taskNames) and the image task.
std::vector<std::string> allTaskNames();

// Every image of `set` as an Example (pixels and label).
std::vector<Example> imageExamples(const ImageSet& set);

}  // namespace attnviz
