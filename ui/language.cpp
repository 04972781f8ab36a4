// SPDX-License-Identifier: GPL-3.0-or-later
#include "language.h"

#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTranslator>
#include <QTreeWidget>
#include <QXmlStreamReader>
#include <memory>

#include "render/words.h"

namespace attnviz::ui {

namespace {

QString g_current = "en";
std::unique_ptr<QTranslator> g_app, g_qt;

// One message of the catalogs and its text in every language.
struct Message {
    QString context, source, comment;
    QHash<QString, QString> text;  // language → text ("en": the source)
};

// Every message, read from the .ts sources embedded beside the compiled catalogs, with an
// index per language from a text to the messages that have it.
struct Catalogs {
    std::vector<Message> messages;
    QHash<QString, QHash<QString, QList<int>>> byText;  // language → text → messages

    Catalogs() {
        render::catalog("zh_CN");   // makes the embedded resources available
        QHash<QString, int> index;  // context + source + comment → message
        for (const auto& lang : render::languageCodes()) {
            if (lang == "en") continue;
            QFile f(render::catalogResource(lang, "ts"));
            if (!f.open(QIODevice::ReadOnly)) continue;
            QXmlStreamReader xml(&f);
            QString context;
            Message m;
            QString translation;
            bool finished = false;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isStartElement()) {
                    const auto name = xml.name();
                    if (name == u"name")
                        context = xml.readElementText();
                    else if (name == u"message") {
                        m = Message{context, {}, {}, {}};
                        translation.clear();
                        finished = false;
                    } else if (name == u"source")
                        m.source = xml.readElementText();
                    else if (name == u"comment")
                        m.comment = xml.readElementText();
                    else if (name == u"translation") {
                        // Plural forms (<numerusform>) are made by their owners: skipped.
                        finished = xml.attributes().value("type").isEmpty();
                        translation = xml.readElementText(QXmlStreamReader::SkipChildElements);
                    }
                } else if (xml.isEndElement() && xml.name() == u"message") {
                    const QString key = m.context + '\x1f' + m.source + '\x1f' + m.comment;
                    auto it = index.find(key);
                    if (it == index.end()) {
                        it = index.insert(key, int(messages.size()));
                        m.text["en"] = m.source;
                        messages.push_back(m);
                    }
                    if (finished && !translation.isEmpty())
                        messages[size_t(*it)].text[lang] = translation;
                }
            }
        }
        for (int i = 0; i < int(messages.size()); ++i)
            for (auto it = messages[size_t(i)].text.cbegin(); it != messages[size_t(i)].text.cend();
                 ++it)
                byText[it.key()][it.value()].append(i);
    }

    // The text of `text` (a message in language `from`) in language `to`; null when it is no
    // message. Several messages may share a text: the one whose context is the class of
    // `owner` or of one of its parents wins, else the first.
    QString translate(const QString& text, const QString& from, const QString& to,
                      const QObject* owner) const {
        if (text.isEmpty()) return {};
        const auto lang = byText.constFind(from);
        if (lang == byText.cend()) return {};
        const auto hit = lang->constFind(text);
        if (hit == lang->cend()) return {};
        int chosen = hit->front();
        if (hit->size() > 1) {
            bool found = false;
            for (const QObject* o = owner; o && !found; o = o->parent())
                for (int i : *hit)
                    if (messages[size_t(i)].context == o->metaObject()->className()) {
                        chosen = i;
                        found = true;
                        break;
                    }
        }
        const Message& m = messages[size_t(chosen)];
        return m.text.value(to, m.source);
    }
};

const Catalogs& catalogs() {
    static const Catalogs c;
    return c;
}

// Replaces a string property of `o` by its translation; true when it changed.
bool retranslateProperty(QObject* o, const char* property, const QString& from, const QString& to) {
    const QVariant v = o->property(property);
    if (v.typeId() != QMetaType::QString) return false;
    const QString now = v.toString();
    const QString next = catalogs().translate(now, from, to, o);
    if (next.isNull() || next == now) return false;
    o->setProperty(property, next);
    return true;
}

}  // namespace

QString chosenLanguage() {
    const QString code = QSettings().value("language").toString();
    return render::isLanguage(code) ? code : QString();
}

QString startupLanguage() {
    const QString chosen = chosenLanguage();
    return chosen.isEmpty() ? render::systemLanguage() : chosen;
}

void rememberLanguage(const QString& code) {
    QSettings settings;
    if (code.isEmpty())
        settings.remove("language");
    else
        settings.setValue("language", code);
}

QString currentLanguage() {
    return g_current;
}

void installLanguage(const QString& code) {
    // Every catalog loaded here, on the UI thread (figures drawn on workers only read them);
    // this also makes the embedded resources available.
    for (const QString& l : render::languageCodes()) render::catalog(l);
    const QString lang = render::isLanguage(code) ? code : "en";
    for (auto* t : {g_app.get(), g_qt.get()})
        if (t) QCoreApplication::removeTranslator(t);
    g_app.reset();
    g_qt.reset();
    if (lang != "en") {
        g_app = std::make_unique<QTranslator>();
        if (g_app->load(render::catalogResource(lang, "qm")))
            QCoreApplication::installTranslator(g_app.get());
        // Qt's own strings: the file dialogs, standard buttons, context menus.
        g_qt = std::make_unique<QTranslator>();
        if (g_qt->load("qtbase_" + lang, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(g_qt.get());
    }
    g_current = lang;
}

QString translatedText(const QString& text, const QString& from, const QString& to) {
    const QString t = catalogs().translate(text, from, to, nullptr);
    return t.isNull() ? text : t;
}

void markAsData(QWidget* widget) {
    widget->setProperty("attnvizData", true);
}

int retranslateTree(QObject* root, const QString& from, const QString& to) {
    if (!root || from == to) return 0;
    QList<QObject*> objects = root->findChildren<QObject*>();
    objects.prepend(root);
    int changed = 0;
    auto prop = [&](QObject* o, const char* name) {
        changed += retranslateProperty(o, name, from, to);
    };
    auto text = [&](const QString& now, QObject* owner) {
        const QString next = catalogs().translate(now, from, to, owner);
        if (!next.isNull() && next != now) ++changed;
        return next.isNull() ? now : next;
    };
    for (QObject* o : objects) {
        if (auto* a = qobject_cast<QAction*>(o)) {
            // A tooltip not set on its own follows the text: leave it.
            const bool ownTip = a->toolTip() != QString(a->text()).remove('&');
            prop(a, "text");
            prop(a, "iconText");
            if (ownTip) prop(a, "toolTip");
            prop(a, "statusTip");
            prop(a, "whatsThis");
            continue;
        }
        auto* w = qobject_cast<QWidget*>(o);
        if (!w) continue;
        if (auto* plot = qobject_cast<QCustomPlot*>(w)) {  // axis titles and legend names
            for (QCPAxis* axis : plot->axisRect() ? plot->axisRect()->axes() : QList<QCPAxis*>())
                axis->setLabel(text(axis->label(), plot));
            for (int g = 0; g < plot->graphCount(); ++g)
                plot->graph(g)->setName(text(plot->graph(g)->name(), plot));
            plot->replot();
        }
        for (const char* name : {"windowTitle", "toolTip", "statusTip", "whatsThis"}) prop(w, name);
        if (w->property("attnvizData").toBool()) continue;
        // Only widgets whose "text" is the program's: never the user's own (line edits).
        if (qobject_cast<QAbstractButton*>(w) || qobject_cast<QLabel*>(w)) prop(w, "text");
        if (qobject_cast<QGroupBox*>(w) || qobject_cast<QMenu*>(w)) prop(w, "title");
        if (qobject_cast<QLineEdit*>(w)) prop(w, "placeholderText");
        if (qobject_cast<QAbstractSpinBox*>(w))
            for (const char* name : {"prefix", "suffix", "specialValueText"}) prop(w, name);
        if (qobject_cast<QProgressBar*>(w)) prop(w, "format");
        if (auto* box = qobject_cast<QComboBox*>(w)) {
            for (int i = 0; i < box->count(); ++i) {
                box->setItemText(i, text(box->itemText(i), box));
                const QVariant tip = box->itemData(i, Qt::ToolTipRole);
                if (tip.typeId() == QMetaType::QString)
                    box->setItemData(i, text(tip.toString(), box), Qt::ToolTipRole);
            }
        }
        if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setTabText(i, text(tabs->tabText(i), tabs));
                tabs->setTabToolTip(i, text(tabs->tabToolTip(i), tabs));
            }
        }
        if (auto* table = qobject_cast<QTableWidget*>(w)) {
            for (int c = 0; c < table->columnCount(); ++c)
                if (auto* item = table->horizontalHeaderItem(c)) {
                    item->setText(text(item->text(), table));
                    item->setToolTip(text(item->toolTip(), table));
                }
        } else if (auto* tree = qobject_cast<QTreeWidget*>(w)) {
            if (auto* item = tree->headerItem())
                for (int c = 0; c < item->columnCount(); ++c) {
                    item->setText(c, text(item->text(c), tree));
                    item->setToolTip(c, text(item->toolTip(c), tree));
                }
        } else if (auto* view = qobject_cast<QAbstractItemView*>(w)) {
            // Models answer from tr() in data() and headerData(): ask again.
            if (QAbstractItemModel* m = view->model()) {
                if (m->columnCount() > 0)
                    emit m->headerDataChanged(Qt::Horizontal, 0, m->columnCount() - 1);
                if (m->rowCount() > 0 && m->columnCount() > 0)
                    emit m->dataChanged(m->index(0, 0),
                                        m->index(m->rowCount() - 1, m->columnCount() - 1));
            }
            view->viewport()->update();
        }
    }
    return changed;
}

}  // namespace attnviz::ui
