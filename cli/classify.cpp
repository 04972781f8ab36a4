// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli classify: an image model's class and probabilities for one image.
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
        "classify", "Classify an image with an image model: the class and the ten probabilities");
    input(c->add_option("--model", m_model, "Checkpoint of an image model (.safetensors)"))
        ->required();
    m_image.addOptions(c);
    imageFiles(c);
    c->add_flag("--json", m_json,
                "JSON: {\"class\": NAME, \"index\": K, \"probabilities\": [one per class]}");
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
    const ImageInput::Loaded in = m_image.load(m, m_model);
    const ImageAnalysis a = m.analyzeImage(in.pixels);
    const auto& names = m.classNames();
    if (m_json) {
        FloatJson probs = FloatJson::array();
        for (double p : a.probabilities) probs.push_back(static_cast<float>(p));
        const FloatJson j = {{"class", names[size_t(a.predicted)]},
                             {"index", a.predicted},
                             {"probabilities", std::move(probs)}};
        ctx.out << jsonText(j) << '\n';
        return;
    }
    ctx.out << in.source << ": " << names[size_t(a.predicted)] << " (class " << a.predicted
            << "), probability " << fixed(a.probabilities[size_t(a.predicted)]) << '\n';
    size_t width = 0;
    for (const auto& n : names) width = std::max(width, n.size());
    for (size_t k = 0; k < names.size(); ++k)
        ctx.out << "  " << k << "  " << names[k] << std::string(width - names[k].size(), ' ')
                << "  " << fixed(a.probabilities[k]) << (int(k) == a.predicted ? "  <" : "")
                << '\n';
}

}  // namespace

std::unique_ptr<Command> makeClassifyCommand() {
    return std::make_unique<ClassifyCommand>();
}

}  // namespace attnviz::cli
