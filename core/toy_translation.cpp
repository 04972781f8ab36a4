// SPDX-License-Identifier: GPL-3.0-or-later
// The `translate` task: English sentences from a small grammar, translated into a toy
// language with its own words and word order, with the gold word alignment of every pair.
// Target order differs from English in four ways (docs/training.md, "Tasks"):
//   - adjectives follow their noun, and agree in number:   the big dogs -> de hundoj grandaj
//   - the finite verb comes second, a time word right after it (V2):
//       i go to the station today -> mo iro hodiau na de banof
//   - subordinate and infinitive clauses are verb-final:
//       i want to go to the station -> mo volo na de banof te irer
//       she says that the man reads a book -> si dira ke de viro un libro lega
//   - separable verbs leave their particle at the end of a main clause:
//       the train arrives at the station -> de treno koma ce de banof an
//     but are joined in verb-final clauses (ke de treno ce de banof ankoma).
// "to" is both an infinitive marker (-> te) and a preposition (-> na).
#include <algorithm>
#include <set>

#include "tasks.h"

namespace attnviz {
namespace {

enum Person { P1s, P2, P3s, P1p, P3p };
const char* const kSuffix[] = {"o", "i", "a", "am", "an"};

struct Pronoun {
    const char* en;
    const char* tg;
    Person person;
};
const Pronoun kPronouns[] = {{"i", "mo", P1s},   {"you", "tu", P2},  {"he", "li", P3s},
                             {"she", "si", P3s}, {"we", "nos", P1p}, {"they", "ili", P3p}};

enum NounClass { Animate, Place, Thing };
struct Noun {
    const char* en;
    const char* enPlural;
    const char* tg;
    NounClass cls;
};
const Noun kNouns[] = {
    {"cat", "cats", "kato", Animate},        {"dog", "dogs", "hundo", Animate},
    {"friend", "friends", "amiko", Animate}, {"teacher", "teachers", "docento", Animate},
    {"man", "men", "viro", Animate},         {"woman", "women", "virino", Animate},
    {"child", "children", "kido", Animate},  {"doctor", "doctors", "kuracisto", Animate},
    {"bird", "birds", "birdo", Animate},     {"student", "students", "studento", Animate},
    {"station", "stations", "banof", Place}, {"city", "cities", "urbo", Place},
    {"park", "parks", "parko", Place},       {"school", "schools", "skolo", Place},
    {"house", "houses", "domo", Place},      {"river", "rivers", "rivero", Place},
    {"garden", "gardens", "gardeno", Place}, {"shop", "shops", "butiko", Place},
    {"market", "markets", "bazaro", Place},  {"library", "libraries", "biblioteko", Place},
    {"book", "books", "libro", Thing},       {"car", "cars", "auto", Thing},
    {"apple", "apples", "pomo", Thing},      {"letter", "letters", "letero", Thing},
    {"train", "trains", "treno", Thing},     {"table", "tables", "tablo", Thing},
    {"door", "doors", "pordo", Thing},       {"picture", "pictures", "bildo", Thing},
    {"song", "songs", "kanto", Thing},       {"bag", "bags", "sako", Thing},
};

struct Word {
    const char* en;
    const char* tg;
};
const Word kAdjectives[] = {{"big", "granda"},    {"small", "eta"}, {"old", "malnova"},
                            {"new", "nova"},      {"red", "ruga"},  {"happy", "felica"},
                            {"quiet", "kvieta"},  {"good", "bona"}, {"young", "juna"},
                            {"beautiful", "bela"}};
const Word kDetSingular[] = {
    {"the", "de"}, {"a", "un"}, {"my", "mia"}, {"your", "via"}, {"this", "ci"}};
const Word kDetPlural[] = {{"the", "de"}, {"my", "mia"},      {"your", "via"},
                           {"two", "du"}, {"many", "multaj"}, {"some", "kelkaj"}};
const Word kTimes[] = {
    {"today", "hodiau"}, {"tomorrow", "morgau"}, {"now", "nun"}, {"often", "ofte"}};

enum VerbKind { Transitive, Motion, Separable, Modal, Saying };
struct Verb {
    const char* en;
    const char* en3;  // third person singular
    const char* tg;   // stem
    VerbKind kind;
    const char* particle = "";  // separable: target particle
    const char* prep = "";      // separable: English preposition before its place
};
const Verb kVerbs[] = {
    {"see", "sees", "vid", Transitive},
    {"read", "reads", "leg", Transitive},
    {"buy", "buys", "acet", Transitive},
    {"find", "finds", "trov", Transitive},
    {"visit", "visits", "vizit", Transitive},
    {"write", "writes", "skrib", Transitive},
    {"open", "opens", "malferm", Transitive},
    {"carry", "carries", "port", Transitive},
    {"love", "loves", "am", Transitive},
    {"help", "helps", "help", Transitive},
    {"go", "goes", "ir", Motion},
    {"walk", "walks", "marx", Motion},
    {"run", "runs", "kur", Motion},
    {"drive", "drives", "vetur", Motion},
    {"come", "comes", "ven", Motion},
    {"fly", "flies", "flug", Motion},
    {"arrive", "arrives", "kom", Separable, "an", "at"},
    {"return", "returns", "ven", Separable, "re", "to"},
    {"leave", "leaves", "ir", Separable, "for", "from"},
    {"want", "wants", "vol", Modal},
    {"like", "likes", "sat", Modal},
    {"need", "needs", "bezon", Modal},
    {"try", "tries", "prov", Modal},
    {"say", "says", "dir", Saying},
    {"think", "thinks", "pens", Saying},
    {"know", "knows", "sci", Saying},
};
const Word kPrepositions[] = {
    {"to", "na"}, {"in", "en"}, {"with", "kun"}, {"at", "ce"}, {"from", "el"}};
const char* prepTarget(const std::string& en) {
    for (const auto& p : kPrepositions)
        if (en == p.en) return p.tg;
    return "?";
}

template <class T, size_t N>
const T& pick(Rng& rng, const T (&a)[N]) {
    return a[rng.below(N)];
}

// A target word and the English positions it translates.
struct Tw {
    std::string w;
    std::vector<int> src;
};
using Seg = std::vector<Tw>;

void append(Seg& a, const Seg& b) {
    a.insert(a.end(), b.begin(), b.end());
}

// Builds one sentence: English words in English order, target segments to be reordered.
class Sentence {
public:
    explicit Sentence(Rng& rng) : m_rng(rng) {}

    int en(const std::string& w) {
        m_en.push_back(w);
        return static_cast<int>(m_en.size()) - 1;
    }
    bool chance(double p) { return m_rng.uniform() < p; }

    // English: det [adj] noun; target: det noun [adj] (plural: -j on noun and adjective).
    Seg nounPhrase(NounClass cls, bool allowAny, Person* person) {
        const Noun* n = nullptr;
        do {
            n = &pick(m_rng, kNouns);
        } while (!allowAny && n->cls != cls);
        const bool plural = chance(0.3);
        const Word& det = plural ? pick(m_rng, kDetPlural) : pick(m_rng, kDetSingular);
        const Word* adj = chance(0.35) ? &pick(m_rng, kAdjectives) : nullptr;
        const std::string pl = plural ? "j" : "";
        Seg s{{det.tg, {en(det.en)}}};
        int adjIdx = adj ? en(adj->en) : -1;
        s.push_back({std::string(n->tg) + pl, {en(plural ? n->enPlural : n->en)}});
        if (adj) s.push_back({std::string(adj->tg) + pl, {adjIdx}});
        if (person) *person = plural ? P3p : P3s;
        return s;
    }

    Seg subject(Person* person) {
        if (chance(0.45)) {
            const Pronoun& p = pick(m_rng, kPronouns);
            *person = p.person;
            return {{p.tg, {en(p.en)}}};
        }
        return nounPhrase(Animate, false, person);
    }

    Seg prepPhrase(const std::string& prep, NounClass cls) {
        Seg s{{prepTarget(prep), {en(prep)}}};
        append(s, nounPhrase(cls, false, nullptr));
        return s;
    }

    // A predicate: the verb (finite or infinitive), its particle for separable verbs, and
    // the rest (objects and prepositional phrases) in English order.
    struct Pred {
        const Verb* verb = nullptr;
        int verbIdx = -1;
        Seg rest;
        // Modal: the infinitive predicate it governs.
        std::unique_ptr<Pred> inner;
        int toIdx = -1;  // English "to" of the infinitive
    };

    Pred predicate(Person person, bool finite, bool allowModal) {
        Pred p;
        const Verb* v = nullptr;
        do {
            v = &pick(m_rng, kVerbs);
        } while (v->kind == Saying || (v->kind == Modal && !allowModal));
        p.verb = v;
        p.verbIdx = en(finite && person == P3s ? v->en3 : v->en);
        switch (v->kind) {
            case Transitive:
                p.rest = nounPhrase(Thing, true, nullptr);
                if (chance(0.3)) {
                    append(p.rest,
                           chance(0.5) ? prepPhrase("with", Animate) : prepPhrase("in", Place));
                }
                break;
            case Motion:
                p.rest = prepPhrase("to", Place);
                if (chance(0.2)) append(p.rest, prepPhrase("with", Animate));
                break;
            case Separable:
                if (chance(0.7)) p.rest = prepPhrase(v->prep, Place);
                break;
            case Modal:
                p.toIdx = en("to");
                p.inner = std::make_unique<Pred>(predicate(person, false, false));
                break;
            case Saying:
                break;
        }
        return p;
    }

    static std::string finiteForm(const Verb& v, Person person, bool joined) {
        return (joined ? std::string(v.particle) : std::string()) + v.tg + kSuffix[person];
    }

    // Target of an infinitive predicate: rest, "te", particle+stem+"er".
    static Seg infinitive(const Pred& p, int toIdx) {
        Seg s = p.rest;
        s.push_back({"te", {toIdx}});
        s.push_back({std::string(p.verb->particle) + p.verb->tg + "er", {p.verbIdx}});
        return s;
    }

    // A clause's parts, drawn in this order: subject, predicate, time word.
    struct Clause {
        Person person = P3s;
        Seg subj;
        Pred p;
        Seg time;
    };
    Clause clause() {
        Clause c;
        c.subj = subject(&c.person);
        c.p = predicate(c.person, true, true);
        c.time = timeWord();
        return c;
    }

    // Main clause (verb second): subj V [time] rest [particle]; a modal's infinitive is
    // verb-final inside it.
    Seg mainClause() {
        const Clause c = clause();
        Seg s = c.subj;
        s.push_back({finiteForm(*c.p.verb, c.person, false), {c.p.verbIdx}});
        append(s, c.time);
        if (c.p.inner) {
            append(s, infinitive(*c.p.inner, c.p.toIdx));
        } else {
            append(s, c.p.rest);
            if (*c.p.verb->particle) s.push_back({c.p.verb->particle, {c.p.verbIdx}});
        }
        return s;
    }

    // Subordinate clause (verb-final): subj [time] rest V (particle joined).
    Seg subClause() {
        const Clause c = clause();
        Seg s = c.subj;
        append(s, c.time);
        if (c.p.inner) {
            append(s, infinitive(*c.p.inner, c.p.toIdx));
            s.push_back({finiteForm(*c.p.verb, c.person, false), {c.p.verbIdx}});
        } else {
            append(s, c.p.rest);
            s.push_back({finiteForm(*c.p.verb, c.person, true), {c.p.verbIdx}});
        }
        return s;
    }

    Seg timeWord() {
        if (!chance(0.3)) return {};
        const Word& t = pick(m_rng, kTimes);
        return {{t.tg, {en(t.en)}}};
    }

    Example build() {
        Seg tg;
        const double form = m_rng.uniform();
        if (form < 0.5) {
            tg = mainClause();
        } else if (form < 0.7) {
            tg = mainClause();
            tg.push_back({"car", {en("because")}});
            append(tg, subClause());
        } else {
            Person person = P3s;
            Seg subj = subject(&person);
            const Verb* v = nullptr;
            do {
                v = &pick(m_rng, kVerbs);
            } while (v->kind != Saying);
            const int vi = en(person == P3s ? v->en3 : v->en);
            tg = subj;
            tg.push_back({finiteForm(*v, person, false), {vi}});
            tg.push_back({"ke", {en("that")}});
            append(tg, subClause());
        }
        if (chance(0.5)) tg.push_back({".", {en(".")}});
        Example e;
        e.src = m_en;
        for (size_t t = 0; t < tg.size(); ++t) {
            e.tgt.push_back(tg[t].w);
            for (int s : tg[t].src) e.align.emplace_back(static_cast<int>(t), s);
        }
        return e;
    }

private:
    Rng& m_rng;
    std::vector<std::string> m_en;
};

class TranslateTask : public Task {
public:
    explicit TranslateTask(bool lm) : m_lm(lm) {}
    std::string name() const override { return m_lm ? "lm" : "translate"; }
    std::string description() const override {
        return m_lm ? "causal language modelling on the English of 'translate'"
                    : "English into a toy language (V2, verb-final clauses, adjectives after "
                      "nouns, separable particles) with gold alignments";
    }
    bool seq2seq() const override { return !m_lm; }
    std::vector<std::string> sourceWords() const override { return m_lm ? english() : english(); }
    std::vector<std::string> targetWords() const override { return m_lm ? english() : target(); }
    int maxTokens() const override { return kMaxTokens; }

    Example sample(Rng& rng) const override {
        for (;;) {
            Sentence s(rng);
            Example e = s.build();
            if (static_cast<int>(e.src.size()) > kMaxTokens ||
                static_cast<int>(e.tgt.size()) > kMaxTokens)
                continue;
            if (m_lm) {
                e.tgt = e.src;
                e.src.clear();
                e.align.clear();
            }
            return e;
        }
    }

    static std::vector<std::string> english() {
        std::vector<std::string> w;
        for (const auto& p : kPronouns) w.push_back(p.en);
        for (const auto& d : kDetSingular) w.push_back(d.en);
        for (const auto& d : kDetPlural) w.push_back(d.en);
        for (const auto& a : kAdjectives) w.push_back(a.en);
        for (const auto& n : kNouns) w.push_back(n.en), w.push_back(n.enPlural);
        for (const auto& v : kVerbs) w.push_back(v.en), w.push_back(v.en3);
        for (const auto& p : kPrepositions) w.push_back(p.en);
        for (const auto& t : kTimes) w.push_back(t.en);
        for (const char* x : {"that", "because", "."}) w.emplace_back(x);
        return unique(w);
    }
    static std::vector<std::string> target() {
        std::vector<std::string> w;
        for (const auto& p : kPronouns) w.push_back(p.tg);
        for (const auto& d : kDetSingular) w.push_back(d.tg);
        for (const auto& d : kDetPlural) w.push_back(d.tg);
        for (const auto& a : kAdjectives) w.push_back(a.tg), w.push_back(std::string(a.tg) + "j");
        for (const auto& n : kNouns) w.push_back(n.tg), w.push_back(std::string(n.tg) + "j");
        for (const auto& v : kVerbs) {
            for (const char* s : kSuffix) {
                w.push_back(std::string(v.tg) + s);
                if (*v.particle) w.push_back(std::string(v.particle) + v.tg + s);
            }
            w.push_back(std::string(v.particle) + v.tg + "er");
            if (*v.particle) w.push_back(v.particle);
        }
        for (const auto& p : kPrepositions) w.push_back(p.tg);
        for (const auto& t : kTimes) w.push_back(t.tg);
        for (const char* x : {"te", "ke", "car", "."}) w.emplace_back(x);
        return unique(w);
    }

private:
    static constexpr int kMaxTokens = 40;
    static std::vector<std::string> unique(const std::vector<std::string>& w) {
        std::vector<std::string> out;
        std::set<std::string> seen;
        for (const auto& x : w)
            if (seen.insert(x).second) out.push_back(x);
        return out;
    }
    bool m_lm;
};

}  // namespace

std::unique_ptr<Task> makeTranslateTask(bool languageModel) {
    return std::make_unique<TranslateTask>(languageModel);
}

}  // namespace attnviz
