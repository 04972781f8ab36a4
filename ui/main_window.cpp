// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImageWriter>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>

#include "colormaps.h"
#include "comparison_grid.h"

namespace attnviz::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_runner(new AnalysisRunner(this)), m_grid(new ComparisonGrid) {
    setWindowTitle("attnviz — compare attention variants");
    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    auto* form = new QFormLayout;
    m_source = new QLineEdit;
    m_source->setPlaceholderText("Type a sentence, e.g. I want to go to the station");
    m_target = new QLineEdit;
    m_target->setPlaceholderText("Target (empty: each model decodes greedily)");
    form->addRow("&Source", m_source);
    form->addRow("&Target", m_target);
    v->addLayout(form);

    auto* controls = new QHBoxLayout;
    m_block = new QComboBox;
    m_block->addItem("Encoder self-attention", int(BlockKind::EncoderSelf));
    m_block->addItem("Decoder self-attention", int(BlockKind::DecoderSelf));
    m_block->addItem("Cross-attention", int(BlockKind::Cross));
    m_layer = new QSpinBox;
    m_layer->setRange(0, 255);
    m_colormap = new QComboBox;
    m_colormap->addItems(colormapNames());
    m_shared = new QCheckBox("Shared colour scale");
    m_shared->setChecked(true);
    auto* blockLabel = new QLabel("&Block");
    blockLabel->setBuddy(m_block);
    auto* layerLabel = new QLabel("&Layer");
    layerLabel->setBuddy(m_layer);
    auto* cmapLabel = new QLabel("&Colours");
    cmapLabel->setBuddy(m_colormap);
    for (QWidget* w : std::initializer_list<QWidget*>{blockLabel, m_block, layerLabel, m_layer,
                                                      cmapLabel, m_colormap, m_shared})
        controls->addWidget(w);
    controls->addStretch(1);
    v->addLayout(controls);

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_grid);
    v->addWidget(scroll, 1);
    setCentralWidget(central);

    auto* file = menuBar()->addMenu("&File");
    file->addAction("&Open checkpoint as a new column…", QKeySequence::Open, this,
                    &MainWindow::openCheckpoint);
    file->addAction("&Export figure…", QKeySequence("Ctrl+E"), this,
                    &MainWindow::exportFigureDialog);
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    connect(m_source, &QLineEdit::textChanged, this, &MainWindow::requestAnalysis);
    connect(m_target, &QLineEdit::textChanged, this, &MainWindow::requestAnalysis);
    auto blockChanged = [this] {
        m_grid->setBlock(BlockKind(m_block->currentData().toInt()), m_layer->value());
    };
    connect(m_block, &QComboBox::currentIndexChanged, this, blockChanged);
    connect(m_layer, &QSpinBox::valueChanged, this, blockChanged);
    connect(m_colormap, &QComboBox::currentTextChanged, m_grid, &ComparisonGrid::setColormap);
    connect(m_shared, &QCheckBox::toggled, m_grid, &ComparisonGrid::setSharedScale);
    connect(m_runner, &AnalysisRunner::finished, this, &MainWindow::showResults);
    resize(1400, 900);
}

void MainWindow::setColumns(std::vector<ModelColumn> columns) {
    m_columns = std::move(columns);
    requestAnalysis();
}

void MainWindow::addColumn(ModelColumn column) {
    m_columns.push_back(std::move(column));
    requestAnalysis();
}

void MainWindow::setSentence(const QString& source, const QString& target) {
    const QSignalBlocker b1(m_source), b2(m_target);
    m_source->setText(source);
    m_target->setText(target);
    requestAnalysis();
}

void MainWindow::setBlock(BlockKind kind, int layer) {
    m_block->setCurrentIndex(m_block->findData(int(kind)));
    m_layer->setValue(layer);
}

void MainWindow::requestAnalysis() {
    if (m_columns.empty()) return;
    statusBar()->showMessage("analysing…");
    m_runner->request(m_columns, m_source->text(), m_target->text());
}

void MainWindow::analyzeNow() {
    showResults(std::make_shared<const Results>(
        AnalysisRunner::analyzeAll(m_columns, m_source->text(), m_target->text())));
}

void MainWindow::showResults(std::shared_ptr<const Results> results) {
    int failed = 0;
    QString firstError;
    for (const auto& r : *results)
        if (!r.error.isEmpty()) {
            if (!failed) firstError = r.name + ": " + r.error;
            ++failed;
        }
    m_grid->setResults(std::move(results));
    if (failed) {
        statusBar()->showMessage(QString("%1 of %2 models could not run: %3")
                                     .arg(failed)
                                     .arg(m_columns.size())
                                     .arg(firstError));
    } else {
        statusBar()->showMessage(QString("%1 models").arg(m_columns.size()));
    }
}

void MainWindow::openCheckpoint() {
    const QString path =
        QFileDialog::getOpenFileName(this, "Open checkpoint", {}, "Checkpoints (*.safetensors)");
    if (path.isEmpty()) return;
    try {
        addColumn(loadModelColumn(path));
    } catch (const std::exception& e) {
        QMessageBox::warning(this, "Cannot open checkpoint", QString::fromUtf8(e.what()));
        statusBar()->showMessage(QString::fromUtf8(e.what()));
    }
}

bool MainWindow::exportFigure(const QString& path, QString* error) {
    for (int c = 0; c < m_grid->columnCount(); ++c)
        for (int h = 0; h < m_grid->rowCount(); ++h)
            if (auto* p = m_grid->panel(c, h)) p->replot(QCustomPlot::rpImmediateRefresh);
    const QPixmap pix = m_grid->grab();
    QImageWriter w(path);
    if (!w.write(pix.toImage())) {
        if (error) *error = QString("cannot write '%1': %2").arg(path, w.errorString());
        return false;
    }
    return true;
}

void MainWindow::exportFigureDialog() {
    const QString path =
        QFileDialog::getSaveFileName(this, "Export figure", "attention.png", "PNG image (*.png)");
    if (path.isEmpty()) return;
    QString error;
    if (!exportFigure(path, &error)) {
        QMessageBox::warning(this, "Export failed", error);
    } else {
        statusBar()->showMessage("exported " + path);
    }
}

}  // namespace attnviz::ui
