// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's texts: set at construction and again on every language change (QEvent::
// LanguageChange, sent by Qt when ui/language.h installs another catalog).
#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QToolButton>
#include <algorithm>

#include "comparison_grid.h"
#include "film_dock.h"
#include "language.h"
#include "main_window.h"
#include "offset_profiles.h"
#include "problems_panel.h"
#include "render/words.h"
#include "variant_panel.h"

namespace attnviz::ui {

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        // What is made from data is made again, from what is already computed (nothing is
        // analysed again): the grid's titles and tooltips, the Variant tab, the status bar.
        statusBar()->clearMessage();
        refreshColumnInfo();
        m_grid->rebuild();
        setView(view());
        if (!m_workspace->results()->empty()) showFailures();
        if (!watchedFolder().isEmpty()) showWatching(watchedFolder());
    }
    QMainWindow::changeEvent(event);
}

// Each set with how many models it has (counted in retranslateUi): a set still being trained
// (the vision set) shows it, and one without any cannot be chosen. The current set says how
// many of them are shown when a comparison or the picker left some out (a newcomer read
// "12 models" beside two columns). The box grows up to the longest text it may show and
// shrinks, in a narrow window, down to the longest set's "n models", whatever it says now, so
// that a new text (another set, a comparison) does not move the Compare and Present buttons
// beside it (issue 47).
void MainWindow::labelModelSets() {
    const auto& sets = modelSets();
    auto label = [&](int i, int shown) {
        const int n = m_setSizes[size_t(i)];
        const QString set = engineText(sets[size_t(i)].label);
        if (shown > 0 && shown < n)
            //: The current model set in the Models box when some of its models are not shown:
            //: %2 of its %3 models are
            return tr("%1 · %2 of %3 models shown").arg(set).arg(shown).arg(n);
        //: A model set in the Models box and how many models it has
        return tr("%1 · %2 models").arg(set).arg(n);
    };
    const QFontMetrics fm = m_modelSet->fontMetrics();
    int widest = 0, widestCount = 0;
    for (int i = 0; i < m_modelSet->count() && i < int(m_setSizes.size()); ++i) {
        const int n = m_setSizes[size_t(i)];
        const bool current = i == m_modelSet->currentIndex();
        m_modelSet->setItemText(i, label(i, current ? int(columns().size()) : 0));
        if (auto* items = qobject_cast<QStandardItemModel*>(m_modelSet->model()))
            items->item(i)->setEnabled(n > 0);
        widestCount = std::max(widestCount, fm.horizontalAdvance(label(i, 0)));
        // With "n − 1 of n models shown", the most it may say.
        widest = std::max({widest, widestCount, fm.horizontalAdvance(label(i, n - 1))});
    }
    QStyleOptionComboBox box;
    box.initFrom(m_modelSet);
    auto boxWidth = [&](int text) {  // as QComboBox measures an item
        const QSize item(text, std::max(fm.height(), 14) + 2);
        return m_modelSet->style()
            ->sizeFromContents(QStyle::CT_ComboBox, &box, item, m_modelSet)
            .width();
    };
    m_modelSet->setMinimumWidth(boxWidth(widestCount));
    m_modelSet->setMaximumWidth(boxWidth(widest));
}

void MainWindow::retranslateUi() {
    setWindowTitle(tr("attnviz — compare attention variants"));
    m_source->setPlaceholderText(tr("Type a sentence, e.g. I want to go to the station"));
    m_target->setPlaceholderText(tr("Target (empty: each model decodes greedily)"));
    m_setSizes.clear();  // read from the folders here, not at every change of the columns
    for (const auto& set : modelSets()) m_setSizes.push_back(modelSetSize(set));
    labelModelSets();
    m_modelSet->setToolTip(
        tr("The bundled models to compare: real English → Spanish text with subword pieces, the "
           "toy translation task whose gold alignments are exact, or language models. Replaces "
           "the columns."));
    m_compare->setText(tr("Co&mpare"));  // the menu's own name (Columns › Compare)
    m_compare->setToolTip(
        tr("Show only the models a comparison needs, in its order: dot-product vs hard-coded "
           "Gaussian (HC-SA), the HC-SA paper's four, the Synthesizer family, or every model "
           "(also Columns › Compare)"));
    //: The button beside Compare that starts the presentation mode (full screen)
    m_present->setText(tr("&Present"));
    //: %1 the shortcut (F5)
    m_present->setToolTip(
        tr("Presentation mode (%1): full screen, large labels, the shown columns under the "
           "sentence; ← → step through the tokens, Esc leaves (also View › Presentation mode)")
            .arg(QKeySequence(Qt::Key_F5).toString(QKeySequence::NativeText)));
    //: Form label: the bundled set of models compared
    setRowLabel(m_modelSet, tr("M&odels"));
    //: Form label: the source sentence
    setRowLabel(m_source, tr("&Source"));
    //: Form label: the target sentence (the reference translation)
    setRowLabel(m_target, tr("&Target"));
    retranslateDocks();
    for (auto& [action, source] : m_named)
        if (action) action->setText(tr(source));
    for (auto& [action, label] : m_presetActions)
        if (action) action->setText(engineText(label));
}

void MainWindow::showFailures() {
    const QStringList failures = mode().failures();
    m_failures->setVisible(!failures.isEmpty());
    m_failures->setText(QString("<font color='#b00020'>%1</font>")
                            .arg(tr("%1 of %2 models could not run")
                                     .arg(failures.size())
                                     .arg(m_workspace->results()->size())));
    QString items;
    for (const QString& f : failures) items += "<li>" + f.toHtmlEscaped() + "</li>";
    m_failures->setToolTip(QString("<b>%1</b><ul>%2</ul>")
                               .arg(tr("Models that could not run on this sentence"), items));
    m_problems->setCurrent(tr("%1 of %2 models could not run on this sentence")
                               .arg(failures.size())
                               .arg(m_workspace->results()->size()),
                           failures);
}

// The status bar's note of the watched folder ("": none).
void MainWindow::showWatching(const QString& dir) {
    m_watching->setVisible(!dir.isEmpty());
    if (dir.isEmpty()) return;
    m_watching->setText(tr("Watching %1").arg(QFileInfo(dir).fileName()));
    m_watching->setToolTip(tr("Checkpoints appearing in %1 become columns; a replaced file "
                              "updates its column (File › Stop watching)")
                               .arg(dir));
}

}  // namespace attnviz::ui
