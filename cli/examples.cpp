// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli examples: a built-in task's examples as TSV (source TAB target, tokens joined
// by spaces; decoder-only tasks: the text alone), so that other trainers (the PyTorch twin,
// python/attnviz_torch) train on exactly the stream `attnviz-cli train --task` uses.
#include <ostream>

#include "command.h"
#include "core/error.h"
#include "core/tasks.h"
#include "core/trainer.h"
#include "core/training_job.h"

namespace attnviz::cli {
namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
    return s;
}

class ExamplesCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override {
        auto* c = parent.add_subcommand("examples",
                                        "A built-in task's training stream or held-out set as TSV");
        oneOf(c->add_option("--task", m_task, alternatives(taskNames())), taskNames)->required();
        c->add_option("--count", m_count, "Examples")
            ->capture_default_str()
            ->check(integerIn(1, 100000000));
        c->add_option("--seed", m_seed, "The training seed (as train --seed)")
            ->capture_default_str()
            ->check(nonNegative());
        c->add_flag("--held-out", m_heldOut,
                    "The held-out set train --seed S --held-out N reserves, instead of the "
                    "training stream");
        return c;
    }

    void run(const Context& ctx) override {
        std::shared_ptr<const Task> task = makeTask(m_task);
        auto line = [&](const Example& e) {
            ctx.out << (task->seq2seq() ? joined(e.src) + "\t" + joined(e.tgt) : joined(e.tgt))
                    << "\n";
        };
        const std::vector<Example> heldOut = taskHeldOut(*task, m_seed, m_heldOut ? m_count : 200);
        if (m_heldOut) {
            for (const auto& e : heldOut) line(e);
            return;
        }
        // The stream train --task uses: held-out examples of the default set excluded too.
        std::set<std::vector<std::string>> exclude;
        for (const auto& e : heldOut) exclude.insert(exampleKey(e));
        auto source = taskSource(task, m_seed, std::move(exclude));
        for (int i = 0; i < m_count; ++i) line(source->next());
    }

private:
    std::string m_task;
    int m_count = 1000;
    uint64_t m_seed = 1;
    bool m_heldOut = false;
};

}  // namespace

std::unique_ptr<Command> makeExamplesCommand() {
    return std::make_unique<ExamplesCommand>();
}

}  // namespace attnviz::cli
