// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli classify: an image model's class and probabilities for one image or many.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "command.h"
#include "core/dump.h"
#include "core/error.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "image_input.h"

namespace attnviz::cli {
namespace {

class ClassifyCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_model;
    bool m_json = false;
    ImageInput m_image;
};

CLI::App* ClassifyCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "classify",
        "Classify images with an image model: the class and the probabilities, for one image "
        "or many (--image A B C, or a folder)");
    input(c->add_option("--model", m_model, "Checkpoint of an image model (.safetensors)"))
        ->required();
    m_image.addOptions(c, true);
    imageFiles(c);
    c->add_flag(
        "--json", m_json,
        "JSON, one object a line per image: {\"image\": FILE, \"class\": NAME, \"index\": K, "
        "\"probabilities\": [one per class]} (an image that cannot be read: {\"image\": "
        "FILE, \"error\": MESSAGE})");
    return c;
}

std::string fixed(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", p);
    return buf;
}

void ClassifyCommand::run(const Context& ctx) {
    m_image.check({});
    Model m = Model::load(m_model);
    if (!m.config().isVision())
        throw Error("'" + m_model + "' reads text; classify needs an image model (arch \"vit\")");
    const auto& names = m.classNames();
    // One image: as before (its table, or one JSON object). Several: one line each, an image
    // that cannot be read reported in its place and the others classified; exit code 1 then.
    const std::vector<std::string> files = m_image.files();
    const bool many = files.size() > 1 || (files.size() == 1 && files[0] != m_image.path());
    auto classify = [&](const ImageInput::Loaded& in, const std::string& file) {
        const ImageAnalysis a = m.analyzeImage(in.pixels);
        if (m_json) {
            FloatJson probs = FloatJson::array();
            for (double p : a.probabilities) probs.push_back(static_cast<float>(p));
            FloatJson j = FloatJson::object();
            if (many) j["image"] = file;
            j["class"] = names[size_t(a.predicted)];
            j["index"] = a.predicted;
            j["probabilities"] = std::move(probs);
            ctx.out << jsonText(j) << '\n';
            return;
        }
        ctx.out << in.source << ": " << names[size_t(a.predicted)] << " (class " << a.predicted
                << "), probability " << fixed(a.probabilities[size_t(a.predicted)]) << '\n';
        if (many) return;
        size_t width = 0;
        for (const auto& n : names) width = std::max(width, n.size());
        for (size_t k = 0; k < names.size(); ++k)
            ctx.out << "  " << k << "  " << names[k] << std::string(width - names[k].size(), ' ')
                    << "  " << fixed(a.probabilities[k]) << (int(k) == a.predicted ? "  <" : "")
                    << '\n';
    };
    if (!many) return classify(m_image.load(m, m_model), m_image.path());
    size_t failed = 0;
    for (const std::string& file : files) {
        ImageInput::Loaded in;
        try {
            in = m_image.load(m, m_model, file);
        } catch (const Error& e) {
            ++failed;
            ctx.err << "attnviz-cli: " << e.what() << '\n';
            if (m_json)
                ctx.out << jsonText(FloatJson{{"image", file}, {"error", e.what()}}) << '\n';
            continue;
        }
        classify(in, file);
    }
    if (failed)
        throw Error(std::to_string(failed) + " of " + std::to_string(files.size()) +
                    " images could not be classified (named above)");
}

}  // namespace

std::unique_ptr<Command> makeClassifyCommand() {
    return std::make_unique<ClassifyCommand>();
}

}  // namespace attnviz::cli
