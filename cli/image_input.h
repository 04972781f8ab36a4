// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The image an image model (arch "vit") is given on the command line, shared by the commands
// that take one (attention, classify): --fashion-mnist K [--split test|train] or --photo K
// [--split test|validation|train] for an image of a bundled set (core/image_set.h), or --image
// FILE for a person's own image, decoded by render/image_file.h (only in a build with Qt).
// A grayscale model's image is prepared by core/garment_cutout.h (--prepare cutout, the
// default: the garment cut out of its background) or core/image_input.h (--prepare plain,
// --invert auto|yes|no); a colour model's is only fitted (prepareColorModelImage).
// --save-input F.png writes the image the model saw, --save-steps F.png the cut-out's steps
// (the mask over the photo | the crop | 28×28).
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace attnviz {
class Model;
struct ImageSet;
}  // namespace attnviz

namespace attnviz::cli {

class ImageInput {
public:
    // The image the model sees and where it came from.
    struct Loaded {
        std::vector<uint8_t> pixels;   // [image_size, image_size, channels], 0 … 255
        std::optional<int> label;      // images of a bundled set only
        std::string source;            // "fashion-mnist test image 0", "file 'shoe.jpg' …"
        std::optional<bool> inverted;  // image files only
    };

    // Adds --image, --invert, --prepare, --fashion-mnist, --split, --save-input and
    // --save-steps to `c`; with `many`, --image takes several files and folders (files()).
    void addOptions(CLI::App* c, bool many = false);
    // Whether --image, --fashion-mnist or --photo was given.
    bool given() const { return !m_paths.empty() || m_index >= 0 || m_photo >= 0; }
    // The (first) --image file, empty when none was given.
    std::string path() const { return m_paths.empty() ? std::string() : m_paths.front(); }
    // Every --image file, each folder replaced by its image files (by extension, sorted by
    // name). Error naming a folder that holds none or cannot be read.
    std::vector<std::string> files() const;
    // Checks the options and the output path of --save-input (not one of `inputs`) before
    // any work. Error naming the problem.
    void check(const std::vector<std::string>& inputs) const;
    // The image for the image model `m` (loaded from `modelPath`), saved when --save-input
    // says so. Error naming the file or the option and what is wrong.
    Loaded load(const Model& m, const std::string& modelPath) const;
    // The same for the image file `file` (one of files()) instead of the first --image.
    Loaded load(const Model& m, const std::string& modelPath, const std::string& file) const;
    // The first `count` images of --split of the bundled set `m` was trained on (all of it
    // when it has fewer) for the image model `m`, for commands that average over many (analyze);
    // `source` receives "fashion-mnist test images 0 … 999". Error as load(); --save-input is
    // refused (it saves one image), as are --image and --fashion-mnist (one image).
    ImageSet loadMany(const Model& m, const std::string& modelPath, int count,
                      std::string& source) const;

private:
    std::vector<std::string> m_paths;
    bool m_many = false;
    std::string m_invert = "auto", m_split = "test", m_save;
    std::string m_prepare = "cutout", m_saveSteps;
    int m_index = -1, m_photo = -1;
    CLI::Option* m_prepareOption = nullptr;
    CLI::Option* m_invertOption = nullptr;
};

}  // namespace attnviz::cli
