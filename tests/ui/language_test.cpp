// SPDX-License-Identifier: GPL-3.0-or-later
// The interface in Chinese (issue 17), offscreen: View › Language switches the live window
// to 简体中文 and 繁體中文 and back without a restart, and finds translated menu titles,
// dock titles, the grid's panel titles, a status message, Qt's own buttons and an exported
// figure's words; going back to English restores every menu action and dock title exactly;
// the choice is remembered; every engine text the app shows (model sets, presets, tasks,
// variants) has a translation; every readable text of the window follows the language.
#include "ui/language.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTextDocumentFragment>

#include "core/attention/attention.h"
#include "core/image_set.h"
#include "core/presets.h"
#include "core/tasks.h"
#include "core/workspace.h"
#include "render/colormaps.h"
#include "render/words.h"
#include "tests/ui/wait.h"
#include "ui/comparison_grid.h"
#include "ui/heatmap_panel.h"
#include "ui/image_model.h"
#include "ui/main_window.h"
#include "ui/training_dock.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

bool hasCjk(const QString& s) {
    for (QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

QStringList menuTitles(MainWindow& w) {
    QStringList out;
    for (QAction* a : w.menuBar()->actions()) out << a->text();
    return out;
}

// Every text a widget retranslates: actions, dock titles, labels, buttons, tooltips,
// placeholders, combo box items. What going back to English must restore exactly.
QStringList allTexts(MainWindow& w) {
    QStringList out;
    for (QAction* a : w.findChildren<QAction*>()) out << a->text() + "|" + a->toolTip();
    for (QWidget* x : w.findChildren<QWidget*>()) {
        out << x->windowTitle() + "|" + x->toolTip();
        if (auto* l = qobject_cast<QLabel*>(x)) out << l->text();
        if (auto* b = qobject_cast<QAbstractButton*>(x)) out << b->text();
        if (auto* e = qobject_cast<QLineEdit*>(x)) out << e->placeholderText();
        if (auto* c = qobject_cast<QComboBox*>(x))
            for (int i = 0; i < c->count(); ++i) out << c->itemText(i);
    }
    out.sort();
    return out;
}

// Each test starts and ends in English with no remembered choice, whatever fails, with
// settings of its own process (ctest -j runs tests of this binary side by side, and they
// would otherwise share one settings file).
class Language : public ::testing::Test {
protected:
    void SetUp() override {
        m_organization = QCoreApplication::organizationName();
        QCoreApplication::setOrganizationName(m_organization + "-" +
                                              QString::number(QCoreApplication::applicationPid()));
        QSettings().clear();
        installLanguage("en");
    }
    void TearDown() override {
        QSettings().clear();
        QCoreApplication::setOrganizationName(m_organization);
        installLanguage("en");
    }
    QString m_organization;
};

void settle(MainWindow& w) {
    ASSERT_TRUE(test::waitUntil([&] { return !w.runner()->busy(); }));
}

}  // namespace

TEST_F(Language, LocalesChooseTheLanguage) {
    EXPECT_EQ(render::languageForLocale("zh_CN"), "zh_CN");
    EXPECT_EQ(render::languageForLocale("zh_SG"), "zh_CN");
    EXPECT_EQ(render::languageForLocale("zh_TW"), "zh_TW");
    EXPECT_EQ(render::languageForLocale("zh_HK"), "zh_TW");
    EXPECT_EQ(render::languageForLocale("zh_Hant"), "zh_TW");
    EXPECT_EQ(render::languageForLocale("en_US"), "en");
    EXPECT_EQ(render::languageForLocale("de_DE"), "en");
    EXPECT_EQ(render::languageForLocale("C"), "en");
}

TEST_F(Language, EveryEngineTextShownHasATranslation) {
    std::vector<std::string> texts;
    for (const auto& s : modelSets()) texts.push_back(s.label);
    for (const auto& p : TrainingDock::presets()) texts.push_back(p.label);
    for (const auto& t : taskNames()) texts.push_back(t);
    for (const auto& v : allVariants()) {
        texts.push_back(v.summary);
        for (const auto& o : v.options)
            if (o.live) texts.push_back(o.help);
    }
    ASSERT_GE(texts.size(), 30u);
    for (const QString lang : {"zh_CN", "zh_TW"}) {
        const render::Words words(lang);
        for (const auto& t : texts) {
            const QString zh = words.translate("attnviz::Engine", t.c_str());
            EXPECT_TRUE(hasCjk(zh))
                << lang.toStdString() << " has no translation of '" << t
                << "': mark it with ATTNVIZ_TR (core/texts.h), run scripts/update-translations "
                   "and translate it";
        }
        // …and the app's helper finds it through the installed catalog.
        installLanguage(lang);
        EXPECT_TRUE(hasCjk(engineText(texts.front()))) << texts.front();
        EXPECT_TRUE(hasCjk(engineText(allVariants().front().summary)));
    }
}

// The clothing photos' classes (issue 49) are shown in the language chosen, as Fashion-MNIST's
// are: every one in Chinese characters under zh_CN and zh_TW, as the model gives it in English.
TEST_F(Language, ClothingPhotoClassesAreTranslated) {
    for (const QString lang : {"zh_CN", "zh_TW"}) {
        installLanguage(lang);
        for (const std::string& c : clothingPhotoClasses())
            EXPECT_TRUE(hasCjk(classLabel(c))) << lang.toStdString() << " " << c;
    }
    installLanguage("zh_TW");
    EXPECT_EQ(classLabel("Longsleeve"), QString("長袖上衣"));
    installLanguage("en");
    for (const std::string& c : clothingPhotoClasses())
        EXPECT_EQ(classLabel(c), QString::fromStdString(c));
}

TEST_F(Language, FigureWordsFollowTheFiguresLanguage) {
    EXPECT_EQ(render::Words("en").translate("Chart", "heads removed"), "heads removed");
    EXPECT_EQ(render::Words("zh_CN").translate("Chart", "heads removed"), "已移除的头数");
    const Wording cn = render::wording("zh_CN"), tw = render::wording("zh_TW");
    EXPECT_EQ(fill(cn.head, "3"), "头 3");
    EXPECT_EQ(fill(tw.head, "3"), "頭 3");
    EXPECT_EQ(render::wording("en").head, Wording{}.head);
}

TEST_F(Language, SwitchesLiveAndBack) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.setSentence("the cat sees the dog");
    w.show();
    w.analyzeNow();
    settle(w);
    ASSERT_EQ(menuTitles(w), QStringList({"&File", "&View", "&Columns", "&Help"}));
    const QStringList english = allTexts(w);
    ASSERT_EQ(w.workspace()->selection().columns.at(0).tables.at(0).where, "enc self L1 · head 1");

    w.setLanguage("zh_CN");
    EXPECT_EQ(currentLanguage(), "zh_CN");
    EXPECT_FALSE(w.runner()->busy()) << "a language switch must not analyse again";
    EXPECT_EQ(menuTitles(w), QStringList({"文件(&F)", "视图(&V)", "列(&C)", "帮助(&H)"}));
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        EXPECT_TRUE(hasCjk(d->windowTitle())) << d->windowTitle().toStdString();
    EXPECT_EQ(w.statusBar()->currentMessage(), "界面语言：简体中文");
    EXPECT_EQ(w.workspace()->selection().columns.at(0).tables.at(0).where,
              "编码器自注意力 L1 · 头 1");
    ASSERT_NE(w.grid()->panel(0, 0), nullptr);
    EXPECT_TRUE(w.grid()->panel(0, 0)->title().contains("编码器自注意力 L1 · 头 1"))
        << "the grid on screen must be redrawn: " << w.grid()->panel(0, 0)->title().toStdString();
    w.zoomBy(1.25);  // a status message made after the switch
    EXPECT_TRUE(hasCjk(w.statusBar()->currentMessage()))
        << w.statusBar()->currentMessage().toStdString();
    // Qt's own strings, from its shipped translations.
    QDialogButtonBox box(QDialogButtonBox::Cancel);
    EXPECT_EQ(box.button(QDialogButtonBox::Cancel)->text(), "取消");
    // An exported figure's words follow the language; the tokens stay as they are.
    QTemporaryDir dir;
    QString error;
    ASSERT_TRUE(w.exportFigure(dir.filePath("zh.svg"), &error)) << error.toStdString();
    QFile svg(dir.filePath("zh.svg"));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    const QString figure = QString::fromUtf8(svg.readAll());
    EXPECT_TRUE(figure.contains("头 1")) << "no translated panel title in the figure";
    EXPECT_TRUE(figure.contains(">cat<")) << "token labels must stay untranslated";

    w.setLanguage("zh_TW");
    EXPECT_EQ(menuTitles(w), QStringList({"檔案(&F)", "檢視(&V)", "欄(&C)", "說明(&H)"}));
    EXPECT_TRUE(w.grid()->panel(0, 0)->title().contains("頭 1"));
    EXPECT_EQ(w.statusBar()->currentMessage(), "介面語言：繁體中文");

    w.setLanguage("en");
    EXPECT_EQ(menuTitles(w), QStringList({"&File", "&View", "&Columns", "&Help"}));
    EXPECT_EQ(allTexts(w), english) << "going back to English must restore every text";
    EXPECT_EQ(w.workspace()->selection().columns.at(0).tables.at(0).where, "enc self L1 · head 1");
}

// Every text a person can read in the window, its docks and menus, by object and place: texts,
// tooltips, placeholders, window and dock titles, accessible names, combo box items, tab
// titles, spin box prefixes and suffixes, table headers, plot axis titles.
QMap<QString, QString> readableTexts(MainWindow& w) {
    QMap<QString, QString> out;
    auto put = [&](const QObject* o, const QString& where, const QString& text) {
        if (!text.isEmpty())
            out.insert(QString("%1 %2 %3")
                           .arg(o->metaObject()->className())
                           .arg(quintptr(o), 0, 16)
                           .arg(where),
                       text);
    };
    for (QAction* a : w.findChildren<QAction*>()) {
        if (a->isSeparator()) continue;
        put(a, "text", a->text());
        put(a, "toolTip", a->toolTip());
    }
    for (QWidget* x : w.findChildren<QWidget*>()) {
        put(x, "windowTitle", x->windowTitle());
        put(x, "toolTip", x->toolTip());
        put(x, "accessibleName", x->accessibleName());
        if (auto* l = qobject_cast<QLabel*>(x)) put(x, "text", l->text());
        if (auto* b = qobject_cast<QAbstractButton*>(x)) put(x, "text", b->text());
        if (auto* e = qobject_cast<QLineEdit*>(x)) put(x, "placeholder", e->placeholderText());
        if (auto* c = qobject_cast<QComboBox*>(x))
            for (int i = 0; i < c->count(); ++i) put(x, QString("item %1").arg(i), c->itemText(i));
        if (auto* t = qobject_cast<QTabBar*>(x))
            for (int i = 0; i < t->count(); ++i) put(x, QString("tab %1").arg(i), t->tabText(i));
        if (auto* s = qobject_cast<QSpinBox*>(x))
            put(x, "affixes", s->prefix() + "|" + s->suffix());
        if (auto* s = qobject_cast<QDoubleSpinBox*>(x)) put(x, "affixes", s->suffix());
        if (auto* v = qobject_cast<QAbstractItemView*>(x); v && v->model())
            for (int c = 0; c < v->model()->columnCount(); ++c)
                put(x, QString("header %1").arg(c),
                    v->model()->headerData(c, Qt::Horizontal).toString());
        if (auto* plot = qobject_cast<QCustomPlot*>(x))
            for (QCPAxis* axis : plot->axisRect()->axes())
                put(x, QString("axis %1").arg(int(axis->axisType())), axis->label());
    }
    return out;
}

// A text that holds only data, in any language: after removing the models' names, the
// colour maps' and languages' names and the sentence, no English word of 2 letters or more.
bool isData(QString text, const QStringList& data) {
    if (Qt::mightBeRichText(text)) text = QTextDocumentFragment::fromHtml(text).toPlainText();
    for (const QString& d : data) text.remove(d);
    return !text.contains(QRegularExpression("[A-Za-z]{2,}"));
}

TEST_F(Language, EveryReadableTextFollowsTheLanguage) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.setSentence("the cat sees the dog");
    w.show();
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) d->show();
    w.analyzeNow();
    settle(w);
    QStringList data = {"the cat sees the dog"};
    for (const auto& c : w.columns()) data << QString::fromStdString(c.name);
    for (const auto& v : allVariants()) data << QString::fromStdString(v.name);
    for (const auto& r : *w.workspace()->results())  // the decoded outputs
        data << QString::fromStdString(r.analysis.targetText).split(' ');
    data << render::colormapNames();
    for (const auto& l : render::languages()) data << l.nativeName;
    data << "pt";  // a unit, the same in every language (scripts/check-translations)
    // Names of metrics, likewise (the column headers' quality line).
    data << "BLEU"
         << "AER";
    std::sort(data.begin(), data.end(), [](auto& a, auto& b) { return a.size() > b.size(); });
    const QMap<QString, QString> english = readableTexts(w);
    ASSERT_GT(english.size(), 150);
    for (const QString lang : {"zh_CN", "zh_TW"}) {
        w.setLanguage(lang);
        const QMap<QString, QString> now = readableTexts(w);
        int checked = 0;
        for (auto it = english.cbegin(); it != english.cend(); ++it) {
            if (!now.contains(it.key()) || isData(it.value(), data)) continue;
            // Qt's own buttons of dock titles and tab bars are named once, in English, by Qt.
            if (it.key().startsWith("QDockWidgetTitleButton") ||
                (it.key().startsWith("QToolButton") && it.key().endsWith("accessibleName")))
                continue;
            ++checked;
            EXPECT_TRUE(now[it.key()] != it.value())
                << "left in English after switching to " << lang.toStdString() << ": "
                << it.key().toStdString() << " = '" << it.value().toStdString() << "'";
        }
        EXPECT_GT(checked, 150) << "too few texts compared: the walk misses some";
    }
    w.setLanguage("en");
    const QMap<QString, QString> back = readableTexts(w);
    for (auto it = english.cbegin(); it != english.cend(); ++it)
        if (back.contains(it.key())) {
            EXPECT_TRUE(back[it.key()] == it.value())
                << "not restored: " << it.key().toStdString() << " = '"
                << back[it.key()].toStdString() << "'";
        }
}

TEST_F(Language, TheMenuChoiceIsRemembered) {
    MainWindow w;
    QMenu* language = nullptr;
    for (QMenu* m : w.findChildren<QMenu*>())
        if (m->title() == "&Language") language = m;
    ASSERT_NE(language, nullptr);
    QAction* traditional = nullptr;
    QAction* system = nullptr;
    for (QAction* a : language->actions()) {
        if (a->text() == "繁體中文") traditional = a;
        if (a->data().toString().isEmpty() && !a->isSeparator()) system = a;
    }
    ASSERT_NE(traditional, nullptr);
    ASSERT_NE(system, nullptr);
    traditional->trigger();
    EXPECT_EQ(currentLanguage(), "zh_TW");
    EXPECT_EQ(QSettings().value("language").toString(), "zh_TW");
    EXPECT_EQ(startupLanguage(), "zh_TW");
    EXPECT_EQ(language->title(), "語言(&L)");
    system->trigger();  // back to the system's language (offscreen tests: C, English)
    EXPECT_FALSE(QSettings().contains("language"));
    EXPECT_EQ(currentLanguage(), render::systemLanguage());
}
