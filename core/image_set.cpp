// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_set.h"

#include <sys/stat.h>

#include <cstdlib>

#include "bundled_models.h"
#include "error.h"
#include "idx.h"
#include "input_limits.h"
#include "tasks.h"

namespace attnviz {

ImageSet ImageSet::slice(size_t begin, size_t end) const {
    ImageSet s;
    s.rows = rows;
    s.cols = cols;
    s.channels = channels;
    const size_t px = imageBytes();
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

// `dir/name.gz`, else `dir/name`; Error naming both, and `advice`, when neither exists.
std::string findFile(const std::string& dir, const std::string& name, const std::string& set,
                     const std::string& advice) {
    struct stat st {};
    for (const std::string& p : {dir + "/" + name + ".gz", dir + "/" + name})
        if (::lstat(p.c_str(), &st) == 0) return p;
    throw Error(set + ": neither '" + dir + "/" + name + ".gz' nor '" + dir + "/" + name +
                "' exists (" + advice + ")");
}

std::string findFashionMnist(const std::string& dir, const std::string& name) {
    return findFile(dir, name, "Fashion-MNIST",
                    "install the Debian package dataset-fashion-mnist, or set "
                    "ATTNVIZ_FASHION_MNIST to the directory that holds the files");
}

// Labels [N] for the N images of `images`, each below `classes`; Error naming the files.
void checkLabels(const IdxArray& labels, const IdxArray& images, const std::string& labelsPath,
                 const std::string& imagesPath, size_t classes) {
    if (labels.dims.size() != 1 || labels.dims[0] != images.dims[0])
        throw Error("'" + labelsPath + "' does not hold one label per image of '" + imagesPath +
                    "' (" + std::to_string(images.dims[0]) + ")");
    for (size_t i = 0; i < labels.data.size(); ++i)
        if (labels.data[i] >= classes)
            throw Error("'" + labelsPath + "': label " + std::to_string(labels.data[i]) +
                        " of image " + std::to_string(i) + " is not a class (0 … " +
                        std::to_string(classes - 1) + ")");
}

}  // namespace

ImageSet loadFashionMnist(const std::string& dir, const std::string& split) {
    if (split != "train" && split != "test")
        throw Error("Fashion-MNIST has the splits \"train\" and \"test\", not \"" + split + "\"");
    const std::string stem = split == "train" ? "train" : "t10k";
    const std::string imagesPath = findFashionMnist(dir, stem + "-images-idx3-ubyte");
    const std::string labelsPath = findFashionMnist(dir, stem + "-labels-idx1-ubyte");
    IdxArray images = readIdx(imagesPath);
    IdxArray labels = readIdx(labelsPath);
    if (images.dims.size() != 3 || images.dims[1] != 28 || images.dims[2] != 28)
        throw Error("'" + imagesPath + "' does not hold 28×28 images (an IDX array [N, 28, 28])");
    checkLabels(labels, images, labelsPath, imagesPath, fashionMnistClasses().size());
    ImageSet s;
    s.rows = 28;
    s.cols = 28;
    s.pixels = std::move(images.data);
    s.labels = std::move(labels.data);
    return s;
}

const std::vector<std::string>& clothingPhotoClasses() {
    static const std::vector<std::string> c{"T-Shirt", "Longsleeve", "Pants",  "Shoes", "Shirt",
                                            "Dress",   "Outwear",    "Shorts", "Skirt", "Hat"};
    return c;
}

std::string clothingPhotosDir() {
    const char* env = std::getenv("ATTNVIZ_CLOTHING_PHOTOS");
    return env && *env ? env : bundledModelDirectory() + "/../data/clothing-photos";
}

std::string clothingCutoutDir() {
    const char* env = std::getenv("ATTNVIZ_CLOTHING_PHOTOS_CUTOUT");
    return env && *env ? env : bundledModelDirectory() + "/../data/clothing-photos-cutout";
}

namespace {

// loadClothingPhotos, with the advice for a missing file: where the set is bundled, and the
// environment variable that names another place.
ImageSet loadPhotos(const std::string& dir, const std::string& split, const std::string& folder,
                    const std::string& variable) {
    if (split != "train" && split != "validation" && split != "test")
        throw Error(
            "the clothing photos have the splits \"train\", \"validation\" and \"test\", "
            "not \"" +
            split + "\"");
    const std::string advice = "they are bundled with attnviz in data/" + folder +
                               " beside the models; set " + variable +
                               " to the directory that holds them";
    const std::string classesPath = dir + "/classes.txt";
    std::string listed;
    try {
        listed = readTextFile(classesPath, 4096, "class list");
    } catch (const Error& e) {
        throw Error(std::string("clothing photos: ") + e.what() + " (" + advice + ")");
    }
    std::string expected;
    for (const std::string& c : clothingPhotoClasses()) expected += c + "\n";
    if (listed != expected)
        throw Error("'" + classesPath + "' does not list the ten classes of the clothing photos (" +
                    alternatives(clothingPhotoClasses()) + ", one a line)");
    const std::string imagesPath =
        findFile(dir, split + "-images-idx4-ubyte", "clothing photos", advice);
    const std::string labelsPath =
        findFile(dir, split + "-labels-idx1-ubyte", "clothing photos", advice);
    IdxArray images = readIdx(imagesPath);
    IdxArray labels = readIdx(labelsPath);
    if (images.dims.size() != 4 || images.dims[1] != 64 || images.dims[2] != 64 ||
        images.dims[3] != 3)
        throw Error("'" + imagesPath +
                    "' does not hold 64×64 colour images (an IDX array [N, 64, 64, 3])");
    checkLabels(labels, images, labelsPath, imagesPath, clothingPhotoClasses().size());
    ImageSet s;
    s.rows = 64;
    s.cols = 64;
    s.channels = 3;
    s.pixels = std::move(images.data);
    s.labels = std::move(labels.data);
    return s;
}

}  // namespace

ImageSet loadClothingPhotos(const std::string& dir, const std::string& split) {
    return loadPhotos(dir, split, "clothing-photos", "ATTNVIZ_CLOTHING_PHOTOS");
}

ImageSet ImageTask::load(const std::string& split) const {
    if (name == kClothingPhotosTask) return loadClothingPhotos(clothingPhotosDir(), split);
    if (name == kClothingCutoutTask)
        return loadPhotos(clothingCutoutDir(), split, "clothing-photos-cutout",
                          "ATTNVIZ_CLOTHING_PHOTOS_CUTOUT");
    if (split != "train" && split != "validation" && split != "test")
        throw Error("task '" + name +
                    "' has the splits \"train\", \"validation\" and \"test\", "
                    "not \"" +
                    split + "\"");
    if (split == "test") return loadFashionMnist(fashionMnistDir(), "test");
    ImageSet train, validation;
    loadTraining(train, validation);
    return split == "train" ? std::move(train) : std::move(validation);
}

void ImageTask::loadTraining(ImageSet& train, ImageSet& validation) const {
    if (name == kFashionMnistTask) {
        splitValidation(loadFashionMnist(fashionMnistDir(), "train"), train, validation);
        return;
    }
    train = load("train");
    validation = load("validation");
}

void ImageTask::checkModel(const ModelConfig& cfg, const std::string& what) const {
    if (!cfg.isVision())
        throw Error("task '" + name + "' needs an image model (\"arch\": \"vit\"), but " + what +
                    " is a text model");
    auto shape = [](int size, int channels, int classes) {
        return std::to_string(size) + "×" + std::to_string(size) +
               (channels == 1 ? " grayscale" : " colour") + " images of " +
               std::to_string(classes) + " classes";
    };
    if (cfg.imageSize != imageSize || cfg.channels != channels ||
        cfg.classes != int(classes->size()))
        throw Error("task '" + name + "' has " + shape(imageSize, channels, int(classes->size())) +
                    "; " + what + " takes " + shape(cfg.imageSize, cfg.channels, cfg.classes) +
                    " (image_size, channels and classes of its configuration)");
}

const std::vector<ImageTask>& imageTasks() {
    static const std::vector<ImageTask> t{
        {kFashionMnistTask, 28, 1, &fashionMnistClasses()},
        {kClothingPhotosTask, 64, 3, &clothingPhotoClasses()},
        {kClothingCutoutTask, 64, 3, &clothingPhotoClasses(), /*cutOut=*/true},
    };
    return t;
}

std::string imageTaskNames() {
    std::vector<std::string> names;
    for (const ImageTask& t : imageTasks()) names.push_back(t.name);
    return alternatives(names);
}

const ImageTask* findImageTask(const std::string& name) {
    for (const ImageTask& t : imageTasks())
        if (t.name == name) return &t;
    return nullptr;
}

const ImageTask* imageTaskFor(const ModelConfig& cfg, const std::vector<std::string>& classNames,
                              const std::string& trainedOn) {
    if (!cfg.isVision()) return nullptr;
    auto fits = [&](const ImageTask& t) {
        return cfg.imageSize == t.imageSize && cfg.channels == t.channels &&
               classNames == *t.classes;
    };
    if (const ImageTask* named = findImageTask(trainedOn); named && fits(*named)) return named;
    for (const ImageTask& t : imageTasks())
        if (fits(t)) return &t;
    return nullptr;
}

const ImageTask* imageTaskReadBy(const ModelConfig& cfg, const std::vector<std::string>& classNames,
                                 const std::string& trainedOn) {
    if (const ImageTask* exact = imageTaskFor(cfg, classNames, trainedOn)) return exact;
    if (!cfg.isVision()) return nullptr;
    if (const ImageTask* named = findImageTask(trainedOn);
        named && cfg.imageSize == named->imageSize && cfg.channels == named->channels)
        return named;
    for (const ImageTask& t : imageTasks())
        if (cfg.imageSize == t.imageSize && cfg.channels == t.channels) return &t;
    return nullptr;
}

bool isImageTask(const std::string& task) {
    return findImageTask(task) != nullptr;
}

std::vector<std::string> allTaskNames() {
    std::vector<std::string> names = taskNames();
    for (const ImageTask& t : imageTasks()) names.push_back(t.name);
    return names;
}

std::vector<Example> imageExamples(const ImageSet& set) {
    std::vector<Example> out(set.size());
    const size_t px = set.imageBytes();
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
