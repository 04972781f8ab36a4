// SPDX-License-Identifier: GPL-3.0-or-later
// Training: tasks and their gold alignments, user data, metrics, schedules, the thread pool,
// learning on copy and reverse, and bit-for-bit determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "core/data.h"
#include "core/error.h"
#include "core/metrics.h"
#include "core/safetensors.h"
#include "core/thread_pool.h"
#include "core/training_job.h"
#include "test_util.h"

using namespace attnviz;

namespace {

Example sampleOf(const std::string& task, uint64_t seed) {
    Rng rng(seed);
    return makeTask(task)->sample(rng);
}

std::string joined(const std::vector<std::string>& t) {
    std::string s;
    for (const auto& x : t) s += (s.empty() ? "" : " ") + x;
    return s;
}

const char* kTiny = R"({"d_model": 32, "heads": 2, "d_ff": 64, "enc_layers": 1, "dec_layers": 1,
                        "max_len": 16)";

JobSpec tinyJob(const std::string& task, const std::string& blocks, int steps, uint64_t seed = 1) {
    JobSpec s;
    s.configJson = nlohmann::json::parse(std::string(kTiny) + blocks + "}");
    s.task = task;
    s.train.steps = steps;
    s.train.lr = 3e-3;
    s.train.warmup = 100;
    s.train.dropout = 0;
    s.train.labelSmoothing = 0;
    s.train.seed = seed;
    return s;
}

}  // namespace

TEST(Tasks, SymbolTasksAndTheirAlignments) {
    for (uint64_t seed = 1; seed < 50; ++seed) {
        const Example c = sampleOf("copy", seed), r = sampleOf("reverse", seed),
                      s = sampleOf("sort", seed);
        EXPECT_EQ(c.src, c.tgt);
        EXPECT_EQ(r.tgt, std::vector<std::string>(r.src.rbegin(), r.src.rend()));
        EXPECT_TRUE(std::is_sorted(s.tgt.begin(), s.tgt.end()));
        EXPECT_EQ(std::multiset<std::string>(s.src.begin(), s.src.end()),
                  std::multiset<std::string>(s.tgt.begin(), s.tgt.end()));
        for (const Example* e : {&c, &r, &s}) {
            ASSERT_GE(e->src.size(), 4u);
            ASSERT_LE(e->src.size(), 12u);
            ASSERT_EQ(e->align.size(), e->tgt.size());
            for (auto [t, j] : e->align) EXPECT_EQ(e->tgt[size_t(t)], e->src[size_t(j)]);
        }
    }
    // Seeded: the same seed gives the same example.
    EXPECT_EQ(sampleOf("sort", 7).src, sampleOf("sort", 7).src);
    EXPECT_NE(test::errorOf([] { makeTask("parse"); }).find("known: copy, reverse"),
              std::string::npos);
}

TEST(Tasks, TranslateCoversBothUsesOfToAndAlignsEveryTargetWord) {
    const auto task = makeTask("translate");
    const Vocab en = Vocab::fromWords(task->sourceWords());
    for (const char* w : {"i", "want", "to", "go", "the", "station", "she", "that", "because"})
        EXPECT_NE(en.id(w), Vocab::kUnk) << w;
    const Vocab tg = Vocab::fromWords(task->targetWords());
    Rng rng(3);
    bool infinitiveTo = false, prepositionTo = false, verbFinal = false;
    for (int i = 0; i < 2000; ++i) {
        const Example e = task->sample(rng);
        ASSERT_LE(static_cast<int>(e.src.size()), task->maxTokens());
        std::set<int> aligned;
        for (auto [t, j] : e.align) {
            ASSERT_LT(size_t(j), e.src.size());
            aligned.insert(t);
            // "to" becomes "te" (infinitive) or "na" (preposition) and nothing else.
            if (e.src[size_t(j)] == "to") {
                ASSERT_TRUE(e.tgt[size_t(t)] == "te" || e.tgt[size_t(t)] == "na") << joined(e.tgt);
                infinitiveTo = infinitiveTo || e.tgt[size_t(t)] == "te";
                prepositionTo = prepositionTo || e.tgt[size_t(t)] == "na";
            }
        }
        EXPECT_EQ(aligned.size(), e.tgt.size()) << joined(e.src) << " -> " << joined(e.tgt);
        for (const auto& w : e.tgt) ASSERT_NE(tg.id(w), Vocab::kUnk) << w;
        for (const auto& w : e.src) ASSERT_NE(en.id(w), Vocab::kUnk) << w;
        if (joined(e.tgt).find(" ke ") != std::string::npos) verbFinal = true;
    }
    EXPECT_TRUE(infinitiveTo && prepositionTo && verbFinal);
    // The language model task is decoder-only, on the same English.
    const auto lm = makeTask("lm");
    EXPECT_FALSE(lm->seq2seq());
    Rng r2(3);
    EXPECT_TRUE(lm->sample(r2).src.empty());
}

TEST(Data, BadLinesAreReportedWithLineNumbersAndSkipped) {
    const std::string path = test::tempPath("pairs.tsv");
    {
        std::ofstream f(path, std::ios::binary);
        f << "hello world\thallo welt\n"
          << "no tab here\n"
          << "\n"
          << "a\tb\tc\n"
          << "\tempty source\n"
          << "bad \xff utf8\tx\n"
          << "one two three four five six seven eight nine ten\tzehn\n"
          << "good line\tgute zeile\r\n";
    }
    const LoadedData d = loadData(path, true, Tokenizer(true), 8);
    ASSERT_EQ(d.examples.size(), 2u);
    EXPECT_EQ(d.examples[1].tgt, (std::vector<std::string>{"gute", "zeile"}));
    ASSERT_EQ(d.skipped.size(), 5u);
    EXPECT_EQ(d.skipped[0].line, 2);
    EXPECT_NE(d.skipped[0].message.find("no tab"), std::string::npos);
    EXPECT_EQ(d.skipped[1].line, 4);
    EXPECT_EQ(d.skipped[2].line, 5);
    EXPECT_EQ(d.skipped[3].line, 6);
    EXPECT_NE(d.skipped[3].message.find("UTF-8"), std::string::npos);
    EXPECT_EQ(d.skipped[4].line, 7);
    EXPECT_NE(d.skipped[4].message.find("10 tokens"), std::string::npos);
    EXPECT_NE(describeSkipped(d).find("5 of 7 lines skipped: line 2: no tab"), std::string::npos);
    // Nothing usable: an error, not an empty model.
    {
        std::ofstream f(path);
        f << "only\n";
    }
    EXPECT_NE(test::errorOf([&] { loadData(path, true, Tokenizer(true), 8); }).find("no usable"),
              std::string::npos);
    EXPECT_NE(test::errorOf([&] {
                  loadData("/nonexistent.tsv", true, Tokenizer(true), 8);
              }).find("/nonexistent.tsv"),
              std::string::npos);
}

TEST(Data, VocabularyByFrequencyWithACap) {
    const Vocab v = buildVocab({{"b", "a", "c"}, {"a", "c"}, {"a", "d"}}, 6);
    // 4 specials + the two most frequent: a (3), then c (2); b and d (1) do not fit.
    EXPECT_EQ(v.tokens(), (std::vector<std::string>{"<pad>", "<unk>", "<bos>", "<eos>", "a", "c"}));
    std::vector<Example> all(40), held;
    splitHeldOut(all, held, 0.05);
    EXPECT_EQ(held.size(), 2u);  // lines 20 and 40
    EXPECT_EQ(all.size(), 38u);
}

TEST(Metrics, BleuByHand) {
    // Identical: every precision 1, no brevity penalty.
    EXPECT_DOUBLE_EQ(corpusBleu({{"a", "b", "c", "d"}}, {{"a", "b", "c", "d"}}).score, 1.0);
    EXPECT_EQ(corpusBleu({{}}, {{"a", "b"}}).score, 0.0);          // empty hypothesis
    EXPECT_EQ(corpusBleu({{"x", "y"}}, {{"a", "b"}}).score, 0.0);  // no unigram match
    // Hypothesis "a b c d" against "a b c d e": precisions 1, BP = exp(1 - 5/4).
    const Bleu b = corpusBleu({{"a", "b", "c", "d"}}, {{"a", "b", "c", "d", "e"}});
    EXPECT_NEAR(b.score, std::exp(1.0 - 5.0 / 4.0), 1e-12);
    // Clipping: "the the the" against "the cat": unigram precision 1/3.
    EXPECT_NEAR(corpusBleu({{"the", "the", "the"}}, {{"the", "cat"}}).precisions[0], 1.0 / 3,
                1e-12);
}

TEST(Metrics, AlignmentErrorRateByHand) {
    // Predicted {(0,0), (1,2)}, gold {(0,0), (1,1)}: 1 - 2·1/(2+2) = 0.5.
    EXPECT_DOUBLE_EQ(alignmentErrorRate({{{0, 0}, {1, 2}}}, {{{0, 0}, {1, 1}}}), 0.5);
    EXPECT_DOUBLE_EQ(alignmentErrorRate({{{0, 0}}}, {{{0, 0}}}), 0.0);
}

TEST(Schedule, WarmupThenInverseSqrtOrLinear) {
    TrainOptions o;
    o.lr = 1.0;
    o.warmup = 100;
    o.steps = 1100;
    EXPECT_DOUBLE_EQ(learningRate(o, 50), 0.5);
    EXPECT_DOUBLE_EQ(learningRate(o, 100), 1.0);
    EXPECT_DOUBLE_EQ(learningRate(o, 400), 0.5);  // sqrt(100/400)
    o.schedule = "linear";
    EXPECT_DOUBLE_EQ(learningRate(o, 100), 1.0);
    EXPECT_NEAR(learningRate(o, 600), 0.5, 1e-2);
    EXPECT_DOUBLE_EQ(learningRate(o, 1101), 0.0);
    o.schedule = "constant";
    EXPECT_DOUBLE_EQ(learningRate(o, 1000), 1.0);
    o.schedule = "cosine";
    EXPECT_NE(test::errorOf([&] { o.validate(); }).find("--schedule"), std::string::npos);
}

TEST(ThreadPool, RunsEveryIndexOnceAndRethrows) {
    ThreadPool pool(3);
    std::vector<int> hits(100, 0);
    for (int rep = 0; rep < 20; ++rep) pool.run(100, [&](int i) { ++hits[size_t(i)]; });
    for (int h : hits) EXPECT_EQ(h, 20);
    EXPECT_NE(test::errorOf([&] {
                  pool.run(10, [](int i) {
                      if (i == 7) throw Error("index 7 failed");
                  });
              }).find("index 7"),
              std::string::npos);
}

// Learning works: tiny models (d_model 32, 2 heads, 1+1 layers, about a second each in a
// release build) from chance (1/16 of tokens) to a stated held-out token accuracy.
struct Learning {
    std::string task, blocks;
    int steps;
    double accuracy;
};

class LearningTest : public ::testing::TestWithParam<Learning> {};

TEST_P(LearningTest, ReachesTheStatedHeldOutAccuracy) {
    const Learning& l = GetParam();
    TrainingJob job(tinyJob(l.task, l.blocks, l.steps));
    const double before = job.evaluateHeldOut(false).tokenAccuracy;
    job.run(nullptr);
    const Evaluation ev = job.evaluateHeldOut(true);
    EXPECT_LT(before, 0.2);
    EXPECT_GE(ev.tokenAccuracy, l.accuracy) << l.task << l.blocks;
    EXPECT_GT(ev.bleu->score, 0.5);
}

const char* kDot = "";
const char* kHcSa =
    R"(, "encoder_self": {"variant": "gaussian"}, "decoder_self": {"variant": "gaussian"})";

INSTANTIATE_TEST_SUITE_P(
    All, LearningTest,
    ::testing::Values(Learning{"copy", kDot, 400, 0.9}, Learning{"reverse", kDot, 1500, 0.9},
                      Learning{"copy", kHcSa, 400, 0.95}, Learning{"reverse", kHcSa, 800, 0.9}),
    [](const auto& info) {
        return info.param.task + (info.param.blocks == std::string(kDot) ? "_dot" : "_hc_sa");
    });

// Same seed, data and thread count: identical checkpoints, with dropout and two threads.
TEST(Determinism, SameSeedSameBytes) {
    auto train = [](uint64_t seed) {
        JobSpec s = tinyJob("translate", R"(, "max_len": 48)", 30, seed);
        s.train.threads = 2;
        s.train.dropout = 0.2f;
        s.train.labelSmoothing = 0.1f;
        s.heldOutCount = 20;
        TrainingJob job(s);
        job.run(nullptr);
        job.finish(job.evaluateHeldOut(true), false);
        return job.model().toSafeTensors().serialize();
    };
    const std::string a = train(4), b = train(4), c = train(5);
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a == c);
}

// Fixed random tables do not move; trainable ones do.
TEST(Training, FrozenTablesStayFixed) {
    TrainingJob job(
        tinyJob("copy", R"(, "encoder_self": {"variant": "random", "trainable": false})", 5));
    const Tensor before = job.model().params().at("encoder.layers.0.self_attn.random.r");
    const Tensor v0 = job.model().params().at("encoder.layers.0.self_attn.v_proj.weight");
    job.run(nullptr);
    EXPECT_EQ(job.model().params().at("encoder.layers.0.self_attn.random.r").m, before.m);
    EXPECT_NE(job.model().params().at("encoder.layers.0.self_attn.v_proj.weight").m, v0.m);
}

// One and two threads compute the same step up to float rounding.
TEST(Training, ThreadsAgreeUpToRounding) {
    auto loss = [](int threads) {
        JobSpec s = tinyJob("reverse", "", 3);
        s.train.threads = threads;
        TrainingJob job(s);
        double last = 0;
        job.run([&](const Progress& p) { last = p.stats.loss; });
        return last;
    };
    EXPECT_NEAR(loss(1), loss(2), 1e-4);
}

TEST(Training, ClearErrors) {
    JobSpec s = tinyJob("lm", "", 1);
    EXPECT_NE(test::errorOf([&] { TrainingJob j(s); }).find("decoder-only model"),
              std::string::npos);
    s = tinyJob("translate", "", 1);  // max_len 16 < the task's 41 positions, dense needs them
    s.configJson["encoder_self"] = {{"variant", "dense"}};
    EXPECT_NE(test::errorOf([&] { TrainingJob j(s); }).find("max_len is 16"), std::string::npos);
    s = tinyJob("copy", "", 1);
    s.train.optimizer = "lion";
    EXPECT_NE(test::errorOf([&] { TrainingJob j(s); }).find("--optimizer"), std::string::npos);
}

// Held-out examples are decided by a hash of the example, not by the seed (issue 14): the
// held-out set of any seed (train's, or eval's --seed) shares nothing with the training
// stream of any seed, for every built-in task.
TEST(HeldOut, DisjointFromTheTrainingStreamOfEverySeed) {
    for (const std::string& name : taskNames()) {
        std::shared_ptr<const Task> task = makeTask(name);
        std::set<std::vector<std::string>> held;
        for (uint64_t seed = 1; seed <= 5; ++seed)
            for (const Example& e : taskHeldOut(*task, seed, 200)) {
                EXPECT_TRUE(isHeldOutExample(e));
                held.insert(exampleKey(e));
            }
        EXPECT_GT(held.size(), 200u) << name << ": the seeds draw different held-out examples";
        for (uint64_t seed = 1; seed <= 5; ++seed) {
            auto stream = taskSource(task, seed);
            int overlap = 0;
            for (int i = 0; i < 20000; ++i) overlap += int(held.count(exampleKey(stream->next())));
            EXPECT_EQ(overlap, 0) << name << " seed " << seed;
        }
    }
}

TEST(HeldOut, AboutOneExampleInTenIsReserved) {
    std::shared_ptr<const Task> task = makeTask("translate");
    Rng rng(7);
    std::set<std::vector<std::string>> distinct;
    int reserved = 0;
    for (int i = 0; i < 20000; ++i) {
        const Example e = task->sample(rng);
        if (distinct.insert(exampleKey(e)).second) reserved += isHeldOutExample(e);
    }
    ASSERT_GT(distinct.size(), 2000u);
    EXPECT_NEAR(double(reserved) / double(distinct.size()), 1.0 / kHeldOutShare, 0.02);
}

// Attention over training (core/probe.h): snapshots at step 0, every K steps and the last;
// each equal to analysing the model as it was then; recording them changes nothing about
// the training (the same checkpoint, byte for byte); the file reads back to the same weights.
TEST(Probe, SnapshotsAtZeroEveryKAndTheLastWithoutChangingTraining) {
    auto spec = [](bool probe) {
        JobSpec s = tinyJob("translate", R"(, "max_len": 48)", 25, 3);
        s.train.threads = 2;
        s.train.dropout = 0.1f;
        s.heldOutCount = 10;
        if (probe) {
            s.probeEvery = 10;
            s.probeSource = "the cat sees the dog";
            s.name = "tiny";
        }
        return s;
    };
    TrainingJob plain(spec(false)), probed(spec(true));
    ASSERT_EQ(plain.probe(), nullptr);
    ASSERT_NE(probed.probe(), nullptr);
    ASSERT_EQ(probed.probe()->record().snapshots.size(), 1u);  // step 0, before training
    const Analysis before = probed.model().analyze("the cat sees the dog");
    std::vector<int> delivered;
    plain.run(nullptr);
    probed.run([&](const Progress& p) {
        if (!p.probe) return;
        delivered.push_back(p.probe->step);
        EXPECT_EQ(p.probe->step, p.stats.step);
    });
    EXPECT_EQ(delivered, (std::vector<int>{10, 20, 25}));
    const ProbeRecord& r = probed.probe()->record();
    ASSERT_EQ(r.snapshots.size(), 4u);
    EXPECT_EQ(r.snapshots[0].analysis.blocks[0].weights[1], before.blocks[0].weights[1]);
    const Analysis after = probed.model().analyze("the cat sees the dog");
    EXPECT_EQ(r.snapshots[3].analysis.blocks.back().weights[0], after.blocks.back().weights[0]);
    EXPECT_NE(r.snapshots[3].analysis.blocks[0].weights[0], before.blocks[0].weights[0]);
    for (TrainingJob* j : {&plain, &probed}) j->finish(j->evaluateHeldOut(false), false);
    EXPECT_TRUE(plain.model().toSafeTensors().serialize() ==
                probed.model().toSafeTensors().serialize());

    // The file: the same tokens, labels and weights (float32 printed with 9 digits: exact).
    const ProbeRecord back = parseProbeJson(probeJson(r, probed.model().config()), "test");
    EXPECT_EQ(back.model, "tiny");
    EXPECT_EQ(back.every, 10);
    EXPECT_EQ(back.source, "the cat sees the dog");
    EXPECT_FALSE(back.target.has_value());
    ASSERT_EQ(back.snapshots.size(), 4u);
    for (size_t s = 0; s < 4; ++s) {
        const Analysis &a = r.snapshots[s].analysis, &b = back.snapshots[s].analysis;
        EXPECT_EQ(back.snapshots[s].step, r.snapshots[s].step);
        EXPECT_EQ(a.sourceTokens, b.sourceTokens);
        EXPECT_EQ(a.targetTokens, b.targetTokens);
        EXPECT_EQ(a.sourceLabels, b.sourceLabels);
        ASSERT_EQ(a.blocks.size(), b.blocks.size());
        for (size_t k = 0; k < a.blocks.size(); ++k) {
            EXPECT_EQ(a.blocks[k].kind, b.blocks[k].kind);
            EXPECT_EQ(a.blocks[k].weights, b.blocks[k].weights) << s << " " << k;
        }
    }
    // As results: a column per snapshot, by step.
    const Results res = probeResults(back, {0, 25});
    ASSERT_EQ(res.size(), 2u);
    EXPECT_EQ(res[1].name, "step 25");
    EXPECT_NE(test::errorOf([&] { probeResults(back, {5}); }).find("recorded: 0, 10, 20, 25"),
              std::string::npos);
}

TEST(Probe, BadFilesAndSpecsSayWhatIsWrong) {
    using test::errorOf;
    // Not JSON: the message of every JSON read (core/input_limits.h).
    EXPECT_NE(errorOf([] { parseProbeJson("{", "p.json"); }).find("p.json is not valid JSON"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  parseProbeJson(R"({"format": "attnviz-probe", "version": 1})", "p.json");
              }).find("p.json is not a valid probe"),
              std::string::npos);
    EXPECT_NE(errorOf([] { parseProbeJson(R"({"a": 1})", "p.json"); }).find("not an attnviz probe"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  parseProbeJson(R"({"format": "attnviz-probe", "version": 7})", "p.json");
              }).find("version 7"),
              std::string::npos);
    EXPECT_NE(errorOf([] {
                  readProbeFile("/nonexistent/p.json");
              }).find("cannot open '/nonexistent/p.json'"),
              std::string::npos);
    JobSpec s = tinyJob("copy", "", 5);
    s.probeEvery = 3;
    EXPECT_NE(errorOf([&] { TrainingJob j(s); }).find("--probe"), std::string::npos);
    s.probeEvery = -1;
    s.probeSource = "a b";
    EXPECT_NE(errorOf([&] { TrainingJob j(s); }).find("--probe-every"), std::string::npos);
    EXPECT_EQ(probePathFor("runs/m.safetensors"), "runs/m.probe.json");
    EXPECT_EQ(probePathFor("m.bin"), "m.bin.probe.json");
}

// The app's probe is the current sentence: one the model cannot take is dropped with a note
// (the run goes on); the command line's explicit --probe fails the run instead.
TEST(Probe, AnOptionalProbeTheModelCannotTakeIsDroppedWithANote) {
    JobSpec s = tinyJob("copy", "", 3);
    s.probeEvery = 1;
    s.probeSource = " ";  // nothing to analyse
    EXPECT_NE(test::errorOf([&] { TrainingJob j(s); }).find("needs a probe sentence"),
              std::string::npos);
    s.probeRequired = false;
    TrainingJob job(s);
    EXPECT_EQ(job.probe(), nullptr);
    ASSERT_FALSE(job.notes().empty());
    EXPECT_NE(job.notes().back().find("attention over training is not recorded: the probe "
                                      "sentence is empty"),
              std::string::npos)
        << job.notes().back();
    EXPECT_EQ(job.run(nullptr), 3);
}
