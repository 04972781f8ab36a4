// SPDX-License-Identifier: GPL-3.0-or-later
// Help › Documentation and Help › About (issue 29).
#include "ui/help_menu.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>

#include "ui/main_window.h"

using namespace attnviz::ui;

TEST(HelpMenu, AboutNamesVersionLicencePapersAndDocs) {
    const QString saved = QCoreApplication::applicationVersion();
    QCoreApplication::setApplicationVersion("9.8.7-test");  // the app's main.cpp sets the real one
    const QString about = aboutText();
    QCoreApplication::setApplicationVersion(saved);
    EXPECT_TRUE(about.contains("GPL-3.0-or-later"));
    EXPECT_TRUE(about.contains("9.8.7-test"));
    for (const char* paper : {"Synthesizer: Rethinking Self-Attention",
                              "Hard-Coded Gaussian Attention", "Attention Is All You Need"})
        EXPECT_TRUE(about.contains(paper)) << paper;
    // Built in the source tree: the README is found, and linked with the docs folder.
    const QUrl readme = documentationUrl();
    ASSERT_FALSE(readme.isEmpty());
    EXPECT_TRUE(QFileInfo::exists(readme.toLocalFile())) << readme.toString().toStdString();
    EXPECT_TRUE(about.contains(readme.toString()));
    EXPECT_TRUE(about.contains("/docs\""));
    // With ATTNVIZ_GRAB_DIR set, the box as Help › About shows it, saved as about.png.
    if (const QByteArray dir = qgetenv("ATTNVIZ_GRAB_DIR"); !dir.isEmpty()) {
        QMessageBox box;
        box.setWindowTitle("About attnviz");
        box.setTextFormat(Qt::RichText);
        box.setText(about);
        box.show();
        box.grab().save(QString::fromUtf8(dir) + "/about.png");
    }
}

TEST(HelpMenu, TheWindowHasHelpWithDocumentationAndAbout) {
    MainWindow w;
    QMenu* help = nullptr;
    for (QAction* a : w.menuBar()->actions())
        if (a->text() == "&Help") help = a->menu();
    ASSERT_NE(help, nullptr);
    QStringList texts;
    for (QAction* a : help->actions())
        if (!a->isSeparator()) texts << a->text();
    EXPECT_EQ(texts, (QStringList{"&Documentation", "&About attnviz"}));
    // In Chinese with the rest of the window.
    w.setLanguage("zh_CN");
    EXPECT_NE(help->menuAction()->text(), "&Help");
    w.setLanguage("en");
    EXPECT_EQ(help->menuAction()->text(), "&Help");
}
