// SPDX-License-Identifier: GPL-3.0-or-later
#include "words.h"

#include <QLocale>
#include <QTranslator>
#include <map>
#include <memory>
#include <mutex>

// The compiled catalogs are resources of this static library (CMakeLists.txt).
static void initTranslationResources() {
    Q_INIT_RESOURCE(translations);
}

namespace attnviz::render {

const std::vector<Language>& languages() {
    static const std::vector<Language> all = {{"en", "English"},
                                              {"zh_CN", QStringLiteral("简体中文")},
                                              {"zh_TW", QStringLiteral("繁體中文")}};
    return all;
}

QStringList languageCodes() {
    QStringList out;
    for (const auto& l : languages()) out << l.code;
    return out;
}

bool isLanguage(const QString& code) {
    return languageCodes().contains(code);
}

QString nativeName(const QString& code) {
    for (const auto& l : languages())
        if (l.code == code) return l.nativeName;
    return code;
}

QString catalogResource(const QString& language, const char* suffix) {
    return ":/translations/attnviz_" + language + "." + suffix;
}

QString languageForLocale(const QString& localeName) {
    const QLocale locale(localeName);
    if (locale.language() != QLocale::Chinese) return "en";
    const bool traditional = locale.script() == QLocale::TraditionalChineseScript ||
                             locale.territory() == QLocale::Taiwan ||
                             locale.territory() == QLocale::HongKong ||
                             locale.territory() == QLocale::Macao;
    return traditional ? "zh_TW" : "zh_CN";
}

QString systemLanguage() {
    // uiLanguages() follows LANGUAGE / LC_MESSAGES as well as LANG.
    const QStringList ui = QLocale::system().uiLanguages();
    return languageForLocale(ui.isEmpty() ? QLocale::system().name()
                                          : QString(ui.front()).replace('-', '_'));
}

const QTranslator* catalog(const QString& language) {
    static std::mutex lock;
    static std::map<QString, std::unique_ptr<QTranslator>> loaded;
    if (language == "en" || !isLanguage(language)) return nullptr;
    std::lock_guard<std::mutex> g(lock);
    static const bool init = (initTranslationResources(), true);
    (void)init;
    auto& t = loaded[language];
    if (!t) {
        t = std::make_unique<QTranslator>();
        if (!t->load(catalogResource(language, "qm"))) t.reset();
    }
    return t.get();
}

Words::Words(QString language) : m_language(std::move(language)), m_catalog(catalog(m_language)) {}

QString Words::translate(const char* context, const char* source, const char* disambiguation,
                         int n) const {
    if (m_catalog) {
        const QString t = m_catalog->translate(context, source, disambiguation, n);
        if (!t.isEmpty()) return t;
    }
    return QString::fromUtf8(source);
}

namespace {

Wording makeWording(const QString& language) {
    const Words w(language);
    auto s = [](const QString& q) { return q.toStdString(); };
    Wording o;
    o.encSelf = s(w.translate("Figure", "enc self"));
    o.decSelf = s(w.translate("Figure", "dec self"));
    o.cross = s(w.translate("Figure", "cross"));
    //: A column title when every layer of one model is shown: %1 model, %2 layer number
    //: (counted from 1)
    o.layer = s(w.translate("Figure", "%1 · layer %2"));
    //: A panel's head: %1 its number, counted from 1
    o.head = s(w.translate("Figure", "head %1"));
    o.meanOfHeads = s(w.translate("Figure", "mean of %1 heads"));
    //: Attention rollout through the layers from the first (L1) to the layer %1 (from 1)
    o.rollout = s(w.translate("Figure", "rollout through L1–L%1"));
    //: Subword pieces merged into words
    o.words = s(w.translate("Figure", "words"));
    //: Subword pieces merged into words; Chinese, Japanese and Korean text one word per character
    o.wordsCjk = s(w.translate("Figure", "words, CJK by character"));
    //: The Gaussian fit subtracted in a residual panel's title
    o.gaussian = s(w.translate("Figure", "Gaussian"));
    o.noBlock = s(w.translate("Figure", "no %1 block\nin layer %2"));
    //: A query profile's title: %1 the query token's place in the sentence, counted from 1
    o.query = s(w.translate("Figure", "Query %1"));
    //: Ordinal numbers (1st, 2nd, 3rd, 4th…) of a token that occurs more than once
    o.nth1 = s(w.translate("Figure", "%1st"));
    o.nth2 = s(w.translate("Figure", "%1nd"));
    o.nth3 = s(w.translate("Figure", "%1rd"));
    o.nth = s(w.translate("Figure", "%1th"));
    //: After a token that occurs more than once: which one it is, e.g. "to (2nd)"
    o.occurrence = s(w.translate("Figure", "(%1)"));
    o.everyHead = s(w.translate("Figure", "%1, every head"));
    o.everyModel = s(w.translate("Figure", "every model, mean of heads"));
    //: A training snapshot: %1 the step number
    o.step = s(w.translate("Figure", "step %1"));
    return o;
}

}  // namespace

Wording wording(const QString& language) {
    static std::mutex lock;
    static std::map<QString, Wording> made;  // the views ask on every repaint
    std::lock_guard<std::mutex> g(lock);
    auto it = made.find(language);
    if (it == made.end()) it = made.emplace(language, makeWording(language)).first;
    return it->second;
}

}  // namespace attnviz::render
