// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_menu.h"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

namespace attnviz::ui {

namespace {

// The folder holding README.md and docs/: installed, or the source tree the app was built from.
QString documentationDir() {
    const QString app = QCoreApplication::applicationDirPath();
    for (const QString& dir : {app + "/../share/doc/attnviz", QStringLiteral(ATTNVIZ_SOURCE_DIR)})
        if (QFileInfo::exists(dir + "/README.md")) return QDir::cleanPath(dir);
    return QString();
}

}  // namespace

QUrl documentationUrl() {
    const QString dir = documentationDir();
    return dir.isEmpty() ? QUrl() : QUrl::fromLocalFile(dir + "/README.md");
}

QString aboutText() {
    const QString dir = documentationDir();
    const QString docs =
        dir.isEmpty() ? QCoreApplication::translate(
                            "attnviz::ui::MainWindow",
                            "The documentation (README.md and docs/) comes with the source code.")
                      //: About box: %1 and %2 links to the README and the docs folder
                      : QCoreApplication::translate("attnviz::ui::MainWindow",
                                                    "Documentation: %1 and the %2 folder.")
                            .arg(QString("<a href=\"%1\">README.md</a>")
                                     .arg(QUrl::fromLocalFile(dir + "/README.md").toString()),
                                 QString("<a href=\"%1\">docs</a>")
                                     .arg(QUrl::fromLocalFile(dir + "/docs").toString()));
    return "<h3>attnviz " + QCoreApplication::applicationVersion().toHtmlEscaped() + "</h3><p>" +
           QCoreApplication::translate(
               "attnviz::ui::MainWindow",
               "See how Transformer attention variants differ: trained models of each variant, "
               "their attention maps side by side for any sentence.") +
           "</p><p>" +
           QCoreApplication::translate(
               "attnviz::ui::MainWindow",
               "Licence: GNU General Public License, version 3 or later (GPL-3.0-or-later).") +
           "</p><p>" +
           QCoreApplication::translate("attnviz::ui::MainWindow", "The variants come from:") +
           "</p><ul>"
           "<li>Y. Tay, D. Bahri, D. Metzler, D.-C. Juan, Z. Zhao, C. Zheng. <i>Synthesizer: "
           "Rethinking Self-Attention for Transformer Models.</i> ICML 2021.</li>"
           "<li>W. You, S. Sun, M. Iyyer. <i>Hard-Coded Gaussian Attention for Neural Machine "
           "Translation.</i> ACL 2020.</li>"
           "<li>A. Vaswani, N. Shazeer, N. Parmar, J. Uszkoreit, L. Jones, A. N. Gomez, Ł. Kaiser, "
           "I. Polosukhin. <i>Attention Is All You Need.</i> NeurIPS 2017.</li></ul><p>" +
           docs + "</p>";
}

void addHelpMenu(QMainWindow* w, const std::function<QAction*(QAction*, const char*)>& named) {
    QMenu* help = w->menuBar()->addMenu(QString());
    named(help->menuAction(), QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "&Help"));
    QAction* docs = named(help->addAction(QString()),
                          QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "&Documentation"));
    docs->setShortcut(QKeySequence::HelpContents);
    QObject::connect(docs, &QAction::triggered, w, [w] {
        const QUrl url = documentationUrl();
        if (url.isEmpty() || !QDesktopServices::openUrl(url))
            QMessageBox::information(
                w, QCoreApplication::translate("attnviz::ui::MainWindow", "Documentation"),
                QCoreApplication::translate(
                    "attnviz::ui::MainWindow",
                    "No viewer could open the documentation. It is README.md and the docs "
                    "folder of attnviz's source code."));
    });
    help->addSeparator();
    QAction* about = named(help->addAction(QString()),
                           QT_TRANSLATE_NOOP("attnviz::ui::MainWindow", "&About attnviz"));
    about->setMenuRole(QAction::AboutRole);
    QObject::connect(about, &QAction::triggered, w, [w] {
        QMessageBox box(w);
        box.setWindowTitle(QCoreApplication::translate("attnviz::ui::MainWindow", "About attnviz"));
        box.setTextFormat(Qt::RichText);
        box.setTextInteractionFlags(Qt::TextBrowserInteraction);  // the links open
        box.setText(aboutText());
        box.exec();
    });
}

}  // namespace attnviz::ui
