// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_input.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "core/file_io.h"
#include "core/garment_cutout.h"
#include "core/image_input.h"
#include "core/image_set.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "numbers.h"
#ifdef ATTNVIZ_RENDER
#include "render/image_file.h"
#endif

namespace attnviz::cli {
namespace {

namespace fs = std::filesystem;

// The `split` of image task `task` for the model `m` (loaded from `modelPath`): Fashion-MNIST's
// train and test files as they are (train: all 60,000), the clothing photos' three splits.
ImageSet loadTaskSplit(const std::string& task, const Model& m, const std::string& modelPath,
                       const std::string& split) {
    // The image size and channels must match; the classes need not (the label is then left
    // out), as before for Fashion-MNIST.
    const ImageTask& t = *findImageTask(task);
    if (m.config().imageSize != t.imageSize || m.config().channels != t.channels)
        t.checkModel(m.config(), "'" + modelPath + "'");
    return task == kFashionMnistTask ? attnviz::loadFashionMnist(fashionMnistDir(), split)
                                     : t.load(split);
}

ImageInput::Loaded loadSetImage(const std::string& task, const Model& m,
                                const std::string& modelPath, const std::string& split, int index) {
    const ImageSet set = loadTaskSplit(task, m, modelPath, split);
    const std::string option = task == kFashionMnistTask ? "--fashion-mnist" : "--photo";
    if (size_t(index) >= set.size())
        throw Error(option + " " + std::to_string(index) + ": the " + split + " split has " +
                    std::to_string(set.size()) + " images");
    const uint8_t* img = set.image(size_t(index));
    const int label = set.labels[size_t(index)];
    ImageInput::Loaded l;
    l.pixels.assign(img, img + set.imageBytes());
    if (label < m.config().classes) l.label = label;
    l.source = task + " " + split + " image " + std::to_string(index);
    return l;
}

#ifdef ATTNVIZ_RENDER
// The garment cut out (core/garment_cutout.h); its steps written to `steps` when given.
ImageInput::Loaded loadCutout(const Model& m, const std::string& path, InvertMode invert,
                              const std::string& steps) {
    const ColorImage photo = render::readColorImageFile(path);
    GarmentCutout cut;
    try {
        cut = cutOutGarment(photo, m.config().imageSize, invert);
    } catch (const Error& e) {
        throw Error("'" + path + "': " + e.what());
    }
    if (!steps.empty()) render::writeColorPng(steps, cutoutStepsImage(cut));
    ImageInput::Loaded l;
    l.pixels = std::move(cut.model.pixels);
    l.inverted = cut.model.inverted;
    l.source = "file '" + path + "' (" + std::to_string(photo.width) + "×" +
               std::to_string(photo.height) + " pixels" + cutoutSummary(cut) + ")";
    return l;
}

// A colour model's photo with the garment cut out on gray (cutOutColorGarment), as the cut-out
// clothing photos were made; its steps written to `steps` when given.
ImageInput::Loaded loadColourCutout(const Model& m, const std::string& path,
                                    const std::string& steps) {
    const ColorImage photo = render::readColorImageFile(path);
    GarmentCutout cut;
    ImageInput::Loaded l;
    try {
        l.pixels = cutOutColorGarment(photo, m.config().imageSize, &cut);
    } catch (const Error& e) {
        throw Error("'" + path + "': " + e.what());
    }
    if (!steps.empty()) render::writeColorPng(steps, cutoutStepsImage(cut));
    const bool fitted = photo.width != m.config().imageSize || photo.height != photo.width;
    l.source = "file '" + path + "' (" + std::to_string(photo.width) + "×" +
               std::to_string(photo.height) + " pixels, colour" +
               (cut.found ? std::string(", garment cut out on gray")
                          : std::string(fitted ? ", fitted on its mean colour" : "") +
                                "; not cut out: " + cut.note) +
               ")";
    return l;
}
#endif

ImageInput::Loaded loadFile(const Model& m, const std::string& path, InvertMode invert) {
#ifdef ATTNVIZ_RENDER
    if (m.config().channels == 3) {
        const ColorImage photo = render::readColorImageFile(path);
        ImageInput::Loaded l;
        try {
            l.pixels = prepareColorModelImage(photo, m.config().imageSize);
        } catch (const Error& e) {
            throw Error("'" + path + "': " + e.what());
        }
        const bool fitted = photo.width != m.config().imageSize || photo.height != photo.width;
        l.source = "file '" + path + "' (" + std::to_string(photo.width) + "×" +
                   std::to_string(photo.height) + " pixels, colour" +
                   (fitted ? ", fitted on its mean colour" : "") + ")";
        return l;
    }
    const GrayImage image = render::readImageFile(path);
    ModelImage in;
    try {
        in = prepareModelImage(image, m.config().imageSize, invert);
    } catch (const Error& e) {
        throw Error("'" + path + "': " + e.what());
    }
    ImageInput::Loaded l;
    l.pixels = std::move(in.pixels);
    l.inverted = in.inverted;
    l.source = "file '" + path + "' (" + std::to_string(image.width) + "×" +
               std::to_string(image.height) + " pixels" + (in.inverted ? ", inverted" : "") +
               (in.fitted ? ", trimmed and fitted" : "") + ")";
    return l;
#else
    (void)m, (void)path, (void)invert;
    throw Error("this attnviz-cli was built without Qt, so it cannot read image files (--image)");
#endif
}

}  // namespace

void ImageInput::addOptions(CLI::App* c, bool many) {
    m_many = many;
    auto* image = c->add_option(
        "--image", m_paths,
        many ? "Image models: PNG, JPEG, BMP, … files of any size, or folders of them, each made "
               "into the model's input (docs/model-spec.md 3.11, 3.12)"
             : "Image models: a PNG, JPEG or BMP file of any size, made into the model's input "
               "(docs/model-spec.md 3.11, 3.12)");
    image->expected(1, many ? CLI::detail::expected_max_vector_size : 1);
    m_invertOption =
        c->add_option("--invert", m_invert,
                      "With --image: invert to light on dark (auto: when the border is light)")
            ->check(CLI::IsMember({"auto", "yes", "no"}))
            ->capture_default_str();
    m_prepareOption =
        c->add_option("--prepare", m_prepare,
                      "With --image: cutout (the garment cut out of its background; for a "
                      "grayscale model also cropped, centred and inverted as Fashion-MNIST's "
                      "items are) or plain (docs/model-spec.md 3.11, 3.12). Default: cutout for "
                      "a grayscale model; for a colour model, as the photos it was trained on "
                      "were made (cut out for clothing-photos-cutout, plain otherwise)")
            ->check(CLI::IsMember({"cutout", "plain"}))
            ->capture_default_str();
    c->add_option("--save-steps", m_saveSteps,
                  "With --image and a cut-out: write the steps to this PNG file (the mask "
                  "over the photo | the crop | the image the model saw)");
    c->add_option("--fashion-mnist", m_index,
                  "Image models of Fashion-MNIST: the Fashion-MNIST image of this index (of "
                  "--split)")
        ->check(integerIn(0, 59999));
    c->add_option("--photo", m_photo,
                  "Colour image models of the clothing photos: the bundled photo of this index "
                  "(of --split: train has 1,898 photos, validation and test 406 each; any index "
                  "past a split's end is refused with its size), of the cut-out set for a model "
                  "trained on it")
        ->check(integerIn(0));  // the split's size bounds it (its message names the size)
    c->add_option("--split", m_split,
                  "With --fashion-mnist: test or train; with --photo: test, validation or train")
        ->capture_default_str();
    c->add_option("--save-input", m_save,
                  "Image models: write the image the model saw to this PNG file");
}

void ImageInput::check(const std::vector<std::string>& inputs) const {
    const std::string first = path();
    if (int(!first.empty()) + int(m_index >= 0) + int(m_photo >= 0) > 1)
        throw Error("give one of --image, --fashion-mnist and --photo");
    if (m_photo >= 0 || m_split == "validation") {
        if (m_split != "test" && m_split != "train" && m_split != "validation")
            throw Error("--split must be test, validation or train, got '" + excerpt(m_split) +
                        "'");
        if (m_index >= 0)
            throw Error(
                "--split validation: Fashion-MNIST's files are test and train "
                "(--fashion-mnist indexes them as they are)");
    } else if (m_split != "test" && m_split != "train") {
        throw Error("--split must be test or train, got '" + excerpt(m_split) + "'");
    }
    std::error_code ec;
    if (m_paths.size() > 1 || (m_many && !first.empty() && fs::is_directory(first, ec))) {
        if (!m_save.empty() || !m_saveSteps.empty())
            throw Error(
                "--save-input and --save-steps save one image's steps: give one --image file");
    }
    if (!m_save.empty()) {
#ifndef ATTNVIZ_RENDER
        throw Error("this attnviz-cli was built without Qt, so it cannot write PNG (--save-input)");
#endif
        std::vector<std::string> all = inputs;
        if (!first.empty()) all.push_back(first);
        checkOutputPath(m_save, all, "--save-input");
    }
    if (!m_saveSteps.empty()) {
        if (first.empty())
            throw Error("--save-steps shows how an --image is cut out: give --image");
        if (m_prepare != "cutout") throw Error("--save-steps needs --prepare cutout");
#ifndef ATTNVIZ_RENDER
        throw Error("this attnviz-cli was built without Qt, so it cannot write PNG (--save-steps)");
#endif
        std::vector<std::string> all = inputs;
        all.push_back(first);
        if (!m_save.empty()) all.push_back(m_save);
        checkOutputPath(m_saveSteps, all, "--save-steps");
    }
}

std::vector<std::string> ImageInput::files() const {
    std::vector<std::string> out;
    for (const std::string& p : m_paths) {
        std::error_code ec;
        if (!m_many || !fs::is_directory(p, ec)) {
            out.push_back(p);  // a file, or a name the reader refuses with its own message
            continue;
        }
#ifdef ATTNVIZ_RENDER
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(p, ec)) {
            std::error_code fe;
            if (e.is_regular_file(fe) && render::isImageFileName(e.path().string()))
                found.push_back(e.path().string());
        }
        if (ec)
            throw Error("--image '" + p + "': the folder cannot be read (" + ec.message() + ")");
        if (found.empty())
            throw Error("--image '" + p + "': the folder holds no image files (" +
                        alternatives(render::imageFileFormats()) + ")");
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
#else
        throw Error(
            "this attnviz-cli was built without Qt, so it cannot read image files (--image)");
#endif
    }
    return out;
}

ImageInput::Loaded ImageInput::load(const Model& m, const std::string& modelPath) const {
    return load(m, modelPath, path());
}

ImageInput::Loaded ImageInput::load(const Model& m, const std::string& modelPath,
                                    const std::string& file) const {
    if (!given())
        throw Error(
            "'" + modelPath +
            "' is an image model: give --image FILE, --fashion-mnist INDEX or --photo INDEX");
    const bool colour = m.config().channels == 3;
    // The task the model was trained on: a colour model's photo is prepared as that task's
    // photos were (cut out for clothing-photos-cutout, fitted as it is otherwise) unless
    // --prepare says otherwise; --photo reads that task's photos.
    const ImageTask* task = imageTaskFor(m.config(), m.classNames(), m.training().task);
    const bool colourCutout =
        colour && (m_prepareOption->count() ? parsePrepareMode(m_prepare) == PrepareMode::Cutout
                                            : task && task->cutOut);
    if (colour && !file.empty() && m_invertOption->count())
        throw Error("'" + modelPath +
                    "' is a colour model: it reads a photo's colours (docs/model-spec.md 3.12), "
                    "so --invert does not apply");
    if (colour && !file.empty() && !m_saveSteps.empty() && !colourCutout)
        throw Error("'" + modelPath + "' was trained on photos as they are (" +
                    (task ? task->name : std::string("not a bundled set")) +
                    "), so nothing is cut out: give --prepare cutout with --save-steps");
    Loaded l;
    if (m_index >= 0)
        l = loadSetImage(kFashionMnistTask, m, modelPath, m_split, m_index);
    else if (m_photo >= 0)
        l = loadSetImage(task && task->channels == 3 ? task->name : kClothingPhotosTask, m,
                         modelPath, m_split, m_photo);
#ifdef ATTNVIZ_RENDER
    else if (colourCutout)
        l = loadColourCutout(m, file, m_saveSteps);
    else if (!colour && parsePrepareMode(m_prepare) == PrepareMode::Cutout)
        l = loadCutout(m, file, parseInvertMode(m_invert), m_saveSteps);
#endif
    else
        l = loadFile(m, file, parseInvertMode(m_invert));
#ifdef ATTNVIZ_RENDER
    if (!m_save.empty()) {
        const int s = m.config().imageSize;
        if (colour)
            render::writeColorPng(m_save, {s, s, l.pixels});
        else
            render::writeGrayPng(m_save, {s, s, l.pixels});
    }
#endif
    return l;
}

ImageSet ImageInput::loadMany(const Model& m, const std::string& modelPath, int count,
                              std::string& source) const {
    if (given())
        throw Error("give one image (--image, --fashion-mnist, --photo) or a count, not both");
    if (!m_save.empty())
        throw Error("--save-input saves one image: give --image, --fashion-mnist or --photo");
    const ImageTask* task = imageTaskFor(m.config(), m.classNames(), m.training().task);
    if (!task)
        throw Error("'" + modelPath +
                    "' was not trained on a bundled image set (Fashion-MNIST, the clothing "
                    "photos): give one image with --image");
    ImageSet set = loadTaskSplit(task->name, m, modelPath, m_split);
    if (size_t(count) < set.size()) set = set.slice(0, size_t(count));
    source = task->name + " " + m_split + " images 0 … " + std::to_string(set.size() - 1);
    return set;
}

}  // namespace attnviz::cli
