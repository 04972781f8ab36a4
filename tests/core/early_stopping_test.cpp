// SPDX-License-Identifier: GPL-3.0-or-later
// Training to a plateau (issue 50): the checkpoint chosen on the held-out (validation) set,
// early stopping after `patience` evaluations without a better one, and a run's state kept in
// a file so that a stopped run goes on with the same result, bit for bit, as one never stopped.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/safetensors.h"
#include "core/training_job.h"
#include "test_util.h"
#include "tests/expect.h"

using namespace attnviz;

namespace {

JobSpec job(int steps) {
    JobSpec s;
    s.configJson = nlohmann::json::parse(
        R"({"d_model": 32, "heads": 2, "d_ff": 64, "enc_layers": 1, "dec_layers": 1,
            "max_len": 16})");
    s.task = "reverse";
    s.train.steps = steps;
    s.train.lr = 3e-3;
    s.train.warmup = 20;
    s.train.dropout = 0.2f;  // dropout and threads: the state must carry what they depend on
    s.train.threads = 2;
    s.heldOutCount = 40;
    s.evalEvery = 10;
    s.selectOn = "loss";
    return s;
}

std::string bytes(TrainingJob& j) {
    return j.model().toSafeTensors().serialize();
}

struct TempFile {
    std::string path = (std::filesystem::temp_directory_path() /
                        ("attnviz-state-" + std::to_string(::getpid()) + ".safetensors"))
                           .string();
    ~TempFile() { std::remove(path.c_str()); }
};

}  // namespace

// The kept model is the one of the evaluation with the best held-out metric, recorded in the
// checkpoint's training metadata with how it was chosen.
TEST(EarlyStopping, KeepsTheModelOfTheBestEvaluation) {
    JobSpec s = job(400);
    s.train.lr = 0.05;  // too high: the held-out loss rises again after its best
    s.patience = 2;     // so the last evaluations are not the best
    TrainingJob j(s);
    std::map<int, double> loss;
    std::map<int, std::string> models;
    j.run([&](const Progress& p) {
        if (!p.eval) return;
        loss[p.stats.step] = p.eval->loss;
        models[p.stats.step] = bytes(j);
    });
    ASSERT_GE(loss.size(), 3u);
    const int best = std::min_element(loss.begin(), loss.end(), [](auto& a, auto& b) {
                         return a.second < b.second;
                     })->first;
    ASSERT_NE(best, loss.rbegin()->first)
        << "the test needs a run whose last evaluation is not its best";
    EXPECT_EQ(j.bestStep(), best);
    j.useBest();
    EXPECT_TRUE(bytes(j) == models[best]);
    j.finish(j.evaluateHeldOut(false), false);
    const nlohmann::json t = j.model().training().raw();
    EXPECT_EQ(t["checkpoint_chosen_on"], "validation");
    EXPECT_EQ(t["selected_on"], "loss");
    EXPECT_EQ(t["chosen_step"], best);
    EXPECT_EQ(t["steps"], loss.rbegin()->first);
    EXPECT_EQ(t["patience"], 2);
    EXPECT_EQ(t["stopped_by_patience"], true);
    EXPECT_NEAR(j.evaluateHeldOut(false).loss, loss[best], 1e-9);
}

// With patience P the run stops P evaluations after its best one, and not before.
TEST(EarlyStopping, StopsAfterPatienceEvaluationsWithoutABetterOne) {
    JobSpec s = job(400);
    s.train.lr = 0.05;
    s.patience = 2;
    TrainingJob j(s);
    std::vector<std::pair<int, double>> evals;
    const int done = j.run([&](const Progress& p) {
        if (p.eval) evals.emplace_back(p.stats.step, p.eval->loss);
    });
    ASSERT_LT(done, 400);
    EXPECT_TRUE(j.patienceRanOut());
    ASSERT_GE(evals.size(), 3u);
    // The last two evaluations are worse than the best before them; no earlier pair is.
    double best = evals[0].second;
    int since = 0;
    for (size_t i = 1; i < evals.size(); ++i) {
        if (evals[i].second < best) {
            best = evals[i].second;
            since = 0;
        } else {
            ++since;
        }
        if (i + 1 < evals.size()) {
            EXPECT_LT(since, 2) << "should have stopped at " << evals[i].first;
        }
    }
    EXPECT_EQ(since, 2);
    EXPECT_EQ(j.bestStep(), evals[evals.size() - 3].first);
}

// A run stopped and continued from its state file ends with the same bytes as one that ran
// through: model, best model, the optimiser's moments and the data order all carried.
TEST(TrainingState, AContinuedRunEqualsOneNeverStopped) {
    TempFile state;
    TrainingJob whole(job(50));
    whole.run(nullptr);
    whole.useBest();

    std::atomic<bool> stop{false};
    {
        TrainingJob first(job(50));
        first.run([&](const Progress& p) { stop = p.stats.step == 23; }, &stop);
        EXPECT_EQ(first.stepsDone(), 23);
        first.saveState(state.path);
    }
    TrainingJob second(job(50));
    second.resume(state.path);
    EXPECT_EQ(second.stepsDone(), 23);
    second.run(nullptr);
    EXPECT_EQ(second.bestStep(), whole.bestStep());
    second.useBest();
    EXPECT_TRUE(bytes(second) == bytes(whole));
}

// A state file of another run, or not a state file, is refused by name, and the job is left
// as it was.
TEST(TrainingState, AnotherRunsStateIsRefusedNamingTheDifference) {
    TempFile state;
    {
        TrainingJob j(job(30));
        j.run(nullptr);
        j.saveState(state.path);
    }
    JobSpec other = job(30);
    other.train.lr = 1e-3;
    TrainingJob j(other);
    const std::string before = bytes(j);
    const std::string e = test::errorOf([&] { j.resume(state.path); });
    EXPECT_NE(e.find("of another run"), std::string::npos) << e;
    EXPECT_NE(e.find("options.lr"), std::string::npos) << e;
    EXPECT_TRUE(bytes(j) == before);
    EXPECT_EQ(j.stepsDone(), 0);

    // A checkpoint is not a state file.
    j.model().save(state.path);
    const std::string e2 = test::errorOf([&] { j.resume(state.path); });
    EXPECT_NE(e2.find("not a training state"), std::string::npos) << e2;

    // A state whose optimiser lacks a tensor.
    {
        TrainingJob k(job(30));
        k.saveState(state.path);
    }
    SafeTensorsFile f = SafeTensorsFile::read(state.path);
    ASSERT_EQ(f.tensors.erase("adam.m/" + j.model().params().begin()->first), 1u);
    f.write(state.path);
    TrainingJob same(job(30));
    const std::string fresh = bytes(same);
    const std::string e3 = test::errorOf([&] { same.resume(state.path); });
    EXPECT_NE(e3.find("first moments have 48 tensors, the model 49"), std::string::npos) << e3;
    EXPECT_TRUE(bytes(same) == fresh);
    EXPECT_EQ(same.stepsDone(), 0);
}

TEST(EarlyStopping, OptionsThatCannotWorkAreRefused) {
    JobSpec s = job(10);
    s.evalEvery = 0;
    EXPECT_NE(test::errorOf([&] { validateJobSpec(s); }).find("--eval-every"), std::string::npos);
    s = job(10);
    s.selectOn = "f1";
    EXPECT_NE(test::errorOf([&] { validateJobSpec(s); }).find("accuracy, loss or bleu"),
              std::string::npos);
    s = job(10);
    s.selectOn = "";
    s.patience = 3;
    EXPECT_NE(test::errorOf([&] { validateJobSpec(s); }).find("--select-on"), std::string::npos);
    s = job(10);
    s.task = "lm";
    s.configJson["arch"] = "decoder";
    s.configJson.erase("enc_layers");
    s.selectOn = "bleu";
    EXPECT_NE(test::errorOf([&] { TrainingJob j(s); }).find("seq2seq"), std::string::npos);
}

namespace {

// A data run (seq2seq TSV) whose dev file is also watched as its "test" set, for the watched
// evaluation to be compared with the held-out one on the same lines.
struct WatchedRun {
    std::string dir =
        (std::filesystem::temp_directory_path() / ("attnviz-watch-" + std::to_string(::getpid())))
            .string();
    WatchedRun() {
        std::filesystem::create_directories(dir);
        const std::vector<std::string> words = {"a", "b", "c", "d", "e", "f", "g", "h"};
        auto write = [&](const std::string& name, int lines, int offset) {
            std::ofstream f(dir + "/" + name);
            for (int i = 0; i < lines; ++i) {
                std::string src, tgt;
                for (int k = 0; k < 3 + (i + offset) % 4; ++k) {
                    const std::string& w = words[size_t((i * 7 + k * 3 + offset) % 8)];
                    src += (k ? " " : "") + w;
                    tgt = w + (k ? " " : "") + tgt;
                }
                f << src << '\t' << tgt << '\n';
            }
        };
        write("train.tsv", 120, 0);
        write("dev.tsv", 30, 5);
        write("test.tsv", 30, 11);
    }
    ~WatchedRun() { std::filesystem::remove_all(dir); }

    JobSpec spec(bool watch) const {
        JobSpec s = job(30);
        s.task.clear();
        s.data = dir + "/train.tsv";
        s.dev = dir + "/dev.tsv";
        s.heldOutCount = 30;
        if (watch) {
            s.watch = dir + "/test.tsv";
            s.watchCount = 20;
        }
        return s;
    }
};

}  // namespace

// The test set's curve (issue 50, "validation and test metric against steps"): a watched set
// is evaluated exactly when the held-out set is, with the held-out set's measure, on its
// first watchCount lines; and watching changes nothing about the run: the same steps, the same
// checkpoint chosen, the same parameters, bit for bit.
TEST(WatchedTestSet, IsEvaluatedWithTheHeldOutSetAndChangesNothing) {
    WatchedRun r;
    std::vector<int> evals, watched;
    TrainingJob with(r.spec(true));
    with.run([&](const Progress& p) {
        if (p.eval) evals.push_back(p.stats.step);
        if (p.watch) {
            watched.push_back(p.stats.step);
            EXPECT_EQ(p.watch->sentences, 20);  // watchCount of the file's 30 lines
            EXPECT_TRUE(p.eval.has_value());
        }
    });
    EXPECT_EQ(evals, (std::vector<int>{10, 20, 30}));
    EXPECT_EQ(watched, evals);

    TrainingJob without(r.spec(false));
    without.run([&](const Progress& p) { EXPECT_FALSE(p.watch.has_value()); });
    EXPECT_EQ(with.bestStep(), without.bestStep());
    with.useBest();
    without.useBest();
    EXPECT_TRUE(bytes(with) == bytes(without));

    // Watching the dev file itself gives the held-out evaluation's numbers: the same measure.
    JobSpec same = r.spec(true);
    same.watch = same.dev;
    same.watchCount = 0;
    TrainingJob j(same);
    int checked = 0;
    j.run([&](const Progress& p) {
        if (!p.eval) return;
        ASSERT_TRUE(p.watch.has_value());
        EXPECT_EQ(p.watch->sentences, p.eval->sentences);
        EXPECT_DOUBLE_EQ(p.watch->loss, p.eval->loss);
        EXPECT_DOUBLE_EQ(p.watch->tokenAccuracy, p.eval->tokenAccuracy);
        ++checked;
    });
    EXPECT_EQ(checked, 3);
}

// A run stopped without watching goes on watching from its state file (watching is not one
// of the options a state must share), with the same result.
TEST(WatchedTestSet, ARunStoppedWithoutItContinuesWithIt) {
    WatchedRun r;
    TempFile state;
    TrainingJob whole(r.spec(false));
    whole.run(nullptr);
    whole.useBest();
    std::atomic<bool> stop{false};
    {
        TrainingJob first(r.spec(false));
        first.run([&](const Progress& p) { stop = p.stats.step == 13; }, &stop);
        first.saveState(state.path);
    }
    TrainingJob second(r.spec(true));
    second.resume(state.path);
    int watched = 0;
    second.run([&](const Progress& p) { watched += p.watch.has_value(); });
    EXPECT_EQ(watched, 2);  // steps 20 and 30
    second.useBest();
    EXPECT_TRUE(bytes(second) == bytes(whole));
}

TEST(WatchedTestSet, OptionsThatCannotWorkAreRefused) {
    WatchedRun r;
    JobSpec s = job(10);  // the reverse task: no test split, no data file
    s.watchTest = true;
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "--watch-test needs an image task");
    s = job(10);
    s.watch = r.dir + "/test.tsv";
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "--watch FILE goes with --data");
    s = r.spec(true);
    s.watchTest = true;
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "either");
    s = r.spec(true);
    s.evalEvery = 0;
    s.selectOn.clear();
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "needs --eval-every");
    s = r.spec(true);
    s.watchCount = -1;
    EXPECT_HAS(test::errorOf([&] { validateJobSpec(s); }), "--watch-count");
}
