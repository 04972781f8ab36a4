// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dump.h"
#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

using nlohmann::json;

// An int of the file: an integer that fits (a double such as 1e300 would not convert).
int intOf(const json& v, const std::string& what, const char* key) {
    if (!v.is_number_integer() || v.get<int64_t>() < std::numeric_limits<int>::min() ||
        v.get<int64_t>() > std::numeric_limits<int>::max())
        throw Error(what + ": '" + key + "' must be an integer, got " + excerpt(v));
    return int(v.get<int64_t>());
}

// A number of the file that must be finite once stored as `T` (1e39 is a float infinity).
template <class T>
T finiteOf(const json& v, const std::string& what, const std::string& key) {
    const T x = v.is_number() ? v.get<T>() : std::numeric_limits<T>::quiet_NaN();
    if (!std::isfinite(x))
        throw Error(what + ": '" + key + "' must be a finite number, got " + excerpt(v));
    return x;
}

// The Analysis of a dump (the parts figures and statistics use): tokens, ids, texts, loss
// and every block's weights; labels from the snapshot when present.
Analysis analysisFromDump(const json& d, const json& snap, const std::string& what) {
    Analysis a;
    auto side = [&](const char* key, std::string& text, std::vector<std::string>& tokens,
                    std::vector<int>& ids) {
        if (!d.contains(key)) return false;
        const json& s = d.at(key);
        text = s.at("text").get<std::string>();
        tokens = s.at("tokens").get<std::vector<std::string>>();
        ids.clear();
        for (const json& id : s.at("ids")) ids.push_back(intOf(id, what, "ids"));
        if (ids.size() != tokens.size())
            throw Error(what + ": " + key + " has " + std::to_string(tokens.size()) +
                        " tokens but " + std::to_string(ids.size()) + " ids");
        return true;
    };
    side("source", a.sourceText, a.sourceTokens, a.sourceIds);
    a.hasTarget = side("target", a.targetText, a.targetTokens, a.targetIds);
    if (a.hasTarget) a.decoded = d.at("target").value("decoded", false);
    if (d.contains("loss") && !d.at("loss").is_null())  // null: a loss that was not finite
        a.loss = finiteOf<double>(d.at("loss"), what, "loss");
    auto labels = [&](const char* key, const std::vector<std::string>& tokens) {
        const auto l = snap.value(key, std::vector<std::string>{});
        return l.size() == tokens.size() ? l : tokens;
    };
    a.sourceLabels = labels("source_labels", a.sourceTokens);
    a.targetLabels = labels("target_labels", a.targetTokens);
    for (const json& b : d.at("blocks")) {
        CapturedBlock c;
        c.name = b.at("name").get<std::string>();
        if (!blockKindFromName(b.at("kind").get<std::string>(), &c.kind))
            throw Error(what + ": unknown block kind '" + excerpt(b.at("kind").get<std::string>()) +
                        "'");
        c.layer = intOf(b.at("layer"), what, "layer");
        c.variant = b.at("variant").get<std::string>();
        c.heads = intOf(b.at("heads"), what, "heads");
        const json& w = b.at("weights");
        if (int(w.size()) != c.heads)
            throw Error(what + ": block " + c.name + " has " + std::to_string(w.size()) +
                        " weight tables for " + std::to_string(c.heads) + " heads");
        for (const json& rows : w) {
            const Eigen::Index nq = Eigen::Index(rows.size()),
                               nk = nq ? Eigen::Index(rows.at(0).size()) : 0;
            Mat m(nq, nk);
            for (Eigen::Index i = 0; i < nq; ++i) {
                const json& row = rows.at(size_t(i));
                if (Eigen::Index(row.size()) != nk)
                    throw Error(what + ": block " + c.name + " has rows of unequal length");
                for (Eigen::Index j = 0; j < nk; ++j)
                    m(i, j) = finiteOf<Scalar>(row.at(size_t(j)), what,
                                               "block " + excerpt(c.name) + " weights");
            }
            // Queries are the target's tokens (the source's for encoder self-attention),
            // keys the source's (the target's for decoder self-attention): a table of any
            // other size would be drawn against labels it does not have.
            const size_t wantQ =
                c.kind == BlockKind::EncoderSelf ? a.sourceTokens.size() : a.targetTokens.size();
            const size_t wantK =
                c.kind == BlockKind::DecoderSelf ? a.targetTokens.size() : a.sourceTokens.size();
            if (size_t(nq) != wantQ || size_t(nk) != wantK)
                throw Error(what + ": block " + c.name + " has a " + std::to_string(nq) + "×" +
                            std::to_string(nk) + " weight table, but its tokens make it " +
                            std::to_string(wantQ) + "×" + std::to_string(wantK) +
                            " (is the snapshot's source or target missing?)");
            c.weights.push_back(std::move(m));
        }
        a.blocks.push_back(std::move(c));
    }
    return a;
}

}  // namespace

std::string probePathFor(const std::string& checkpoint) {
    const std::string ext = ".safetensors";
    if (checkpoint.size() > ext.size() &&
        checkpoint.compare(checkpoint.size() - ext.size(), ext.size(), ext) == 0)
        return checkpoint.substr(0, checkpoint.size() - ext.size()) + ".probe.json";
    return checkpoint + ".probe.json";
}

ProbeRecorder::ProbeRecorder(const Model& model, std::string name, std::string source,
                             std::optional<std::string> target, int every) {
    if (every < 1)
        throw Error("the probe interval must be at least 1 step (got " + std::to_string(every) +
                    ")");
    if (source.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Error("the probe sentence is empty");
    if (target && !model.config().hasEncoder())
        throw Error("a decoder-only model takes no probe target: its probe is the text itself");
    m_record.model = std::move(name);
    m_record.source = std::move(source);
    m_record.target = std::move(target);
    m_record.every = every;
}

bool ProbeRecorder::due(int step, int last) const {
    return step == 0 || step % m_record.every == 0 || step == last;
}

const ProbeSnapshot& ProbeRecorder::record(Model& model, int step) {
    ProbeSnapshot s;
    s.step = step;
    try {
        s.analysis = m_record.target ? model.analyze(m_record.source, *m_record.target)
                                     : model.analyze(m_record.source);
    } catch (const Error& e) {
        throw Error(std::string("the probe sentence: ") + e.what());
    }
    m_record.snapshots.push_back(std::move(s));
    return m_record.snapshots.back();
}

namespace {

std::string probeJsonOf(const ProbeRecord& r, const ModelConfig* config) {
    FloatJson snaps = FloatJson::array();
    for (const auto& s : r.snapshots) {
        FloatJson dump;
        if (config) {
            dump = attentionDump(r.model, *config, s.analysis);
        } else {  // the architecture from the analysis itself, no configuration
            ModelConfig c;
            c.arch = s.analysis.sourceTokens.empty() ? Arch::Decoder : Arch::Seq2Seq;
            dump = attentionDump(r.model, c, s.analysis);
            dump.erase("config");
        }
        snaps.push_back({{"step", s.step},
                         {"dump", std::move(dump)},
                         {"source_labels", s.analysis.sourceLabels},
                         {"target_labels", s.analysis.targetLabels}});
    }
    FloatJson j{
        {"format", "attnviz-probe"},
        {"version", 1},
        {"model", r.model},
        {"every", r.every},
        {"probe",
         {{"source", r.source}, {"target", r.target ? FloatJson(*r.target) : FloatJson(nullptr)}}},
        {"snapshots", std::move(snaps)}};
    return j.dump() + "\n";
}

}  // namespace

std::string probeJson(const ProbeRecord& r, const ModelConfig& config) {
    return probeJsonOf(r, &config);
}

std::string probeJson(const ProbeRecord& r) {
    return probeJsonOf(r, nullptr);
}

ProbeRecord parseProbeJson(const std::string& text, const std::string& what) {
    ProbeRecord r;
    try {
        // The limits of every JSON read (docs/limits.md): size, nesting, repeated keys.
        const json j = parseJson(text, what, kMaxProbeBytes);
        if (j.value("format", "") != "attnviz-probe")
            throw Error(what + " is not an attnviz probe file (no \"format\": \"attnviz-probe\")");
        if (j.value("version", 0) != 1)
            throw Error(what + ": probe file version " + excerpt(j.value("version", json())) +
                        " is not supported (this attnviz reads version 1)");
        r.model = j.at("model").get<std::string>();
        r.every = intOf(j.at("every"), what, "every");
        r.source = j.at("probe").at("source").get<std::string>();
        if (!j.at("probe").at("target").is_null())
            r.target = j.at("probe").at("target").get<std::string>();
        int last = -1;
        for (const json& s : j.at("snapshots")) {
            ProbeSnapshot snap;
            snap.step = intOf(s.at("step"), what, "step");
            if (snap.step <= last)
                throw Error(what + ": snapshot steps must increase (step " +
                            std::to_string(snap.step) + " after " + std::to_string(last) + ")");
            last = snap.step;
            snap.analysis =
                analysisFromDump(s.at("dump"), s, what + ", step " + std::to_string(snap.step));
            r.snapshots.push_back(std::move(snap));
        }
    } catch (const json::exception& e) {
        throw Error(what + " is not a valid probe file: " + e.what());
    }
    return r;
}

ProbeRecord readProbeFile(const std::string& path) {
    // The one road for files: a FIFO or device is refused without blocking, the size first.
    return parseProbeJson(readTextFile(path, kMaxProbeBytes, "probe file"), path);
}

Results probeResults(const ProbeRecord& r, const std::vector<int>& steps, const Wording& w) {
    Results out;
    auto add = [&](const ProbeSnapshot& s) {
        ColumnResult c;
        c.name = fill(w.step, std::to_string(s.step));
        c.analysis = s.analysis;
        out.push_back(std::move(c));
    };
    if (steps.empty()) {
        for (const auto& s : r.snapshots) add(s);
        return out;
    }
    for (int step : steps) {
        auto it = std::find_if(r.snapshots.begin(), r.snapshots.end(),
                               [&](const ProbeSnapshot& s) { return s.step == step; });
        if (it == r.snapshots.end()) {
            std::string have;
            for (const auto& s : r.snapshots)
                have += (have.empty() ? "" : ", ") + std::to_string(s.step);
            throw Error("no snapshot at step " + std::to_string(step) + " (recorded: " + have +
                        ")");
        }
        add(*it);
    }
    return out;
}

}  // namespace attnviz
