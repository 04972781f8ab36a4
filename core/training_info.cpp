// SPDX-License-Identifier: GPL-3.0-or-later
#include "training_info.h"

#include <limits>

#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

using nlohmann::json;

// Each reader: absent → nothing; present with the wrong type → Error naming the key.
struct Fields {
    const json& object;
    std::string what;

    const json* find(const char* key) const {
        const auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }
    [[noreturn]] void wrong(const char* key, const char* must, const json& v) const {
        throw Error(what + ": '" + key + "' must be " + must + ", got " + excerpt(v));
    }
    void text(const char* key, std::string& out) const {
        if (const json* v = find(key)) {
            if (!v->is_string()) wrong(key, "a string", *v);
            out = v->get<std::string>();
        }
    }
    template <typename Int>
    void count(const char* key, std::optional<Int>& out) const {
        if (const json* v = find(key)) {
            // Written by us as signed or unsigned JSON integers, whichever the value's type.
            const bool ok = v->is_number_unsigned()
                                ? v->get<uint64_t>() <= uint64_t(std::numeric_limits<Int>::max())
                                : v->is_number_integer() && v->get<int64_t>() >= 0;
            if (!ok) wrong(key, "an integer of at least 0", *v);
            out = v->is_number_unsigned() ? Int(v->get<uint64_t>()) : Int(v->get<int64_t>());
        }
    }
    void number(const char* key, std::optional<double>& out) const {
        if (const json* v = find(key)) {
            if (!v->is_number()) wrong(key, "a number", *v);
            out = v->get<double>();
        }
    }
    void flag(const char* key, std::optional<bool>& out) const {
        if (const json* v = find(key)) {
            if (!v->is_boolean()) wrong(key, "true or false", *v);
            out = v->get<bool>();
        }
    }
};

HeldOutInfo heldOutOf(const json& h, const std::string& what) {
    HeldOutInfo out;
    const Fields f{h, what};
    f.count("sentences", out.sentences);
    f.count("tokens", out.tokens);
    f.number("loss", out.loss);
    f.number("token_accuracy", out.tokenAccuracy);
    f.number("exact_match", out.exactMatch);
    f.number("bleu", out.bleu);
    f.text("source", out.source);
    if (const json* best = f.find("best_aer")) {
        if (!best->is_object()) f.wrong("best_aer", "an object", *best);
        Fields{*best, what + ", 'best_aer'"}.number("aer", out.bestAer);
    }
    return out;
}

}  // namespace

TrainingInfo TrainingInfo::fromJson(json j, const std::string& what) {
    TrainingInfo t;
    if (j.is_null()) return t;
    if (!j.is_object()) throw Error(what + " must be a JSON object, got " + excerpt(j));
    const Fields f{j, what};
    f.text("kind", t.kind);
    f.text("name", t.name);
    f.text("task", t.task);
    f.text("data", t.data);
    f.text("init", t.init);
    f.count("steps", t.steps);
    f.count("seed", t.seed);
    f.flag("stopped_early", t.stoppedEarly);
    if (const json* h = f.find("held_out")) {
        if (!h->is_object()) f.wrong("held_out", "an object", *h);
        t.heldOut = heldOutOf(*h, what + ", 'held_out'");
    }
    t.m_raw = std::move(j);
    return t;
}

}  // namespace attnviz
