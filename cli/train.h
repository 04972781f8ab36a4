// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// attnviz-cli train, eval and bench train.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>

#include "core/training_job.h"

namespace attnviz::cli {

class TrainCommands {
public:
    // Adds "train", "eval" and "bleu" to app and "train" to the bench subcommand.
    void add(CLI::App& app, CLI::App& bench);
    // Runs whichever of them was chosen. `tty`: err is a terminal (progress bar with \r).
    void run(std::ostream& out, std::ostream& err, bool tty);

private:
    CLI::App *m_train = nullptr, *m_eval = nullptr, *m_bench = nullptr;
    JobSpec m_spec;
    std::string m_out, m_log;
    bool m_noShuffle = false;
    // eval
    std::string m_model, m_evalTask, m_evalData;
    int m_count = 200, m_evalBatch = 64;
    uint64_t m_evalSeed = 1;
    bool m_noDecode = false;
    // bleu
    CLI::App* m_bleu = nullptr;
    std::string m_hyp, m_ref;
    // bench train
    std::string m_benchConfig;
    int m_benchBatch = 32, m_benchLen = 32, m_benchSteps = 20, m_benchThreads = 1,
        m_benchVocab = 1000;
};

}  // namespace attnviz::cli
