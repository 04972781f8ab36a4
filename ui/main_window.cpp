// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPicture>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QStatusBar>

#include "colormaps.h"
#include "comparison_grid.h"
#include "core/safetensors.h"
#include "export_dialog.h"
#include "figure.h"
#include "profile_plot.h"
#include "sentence_list.h"
#include "training_dock.h"
#include "variant_panel.h"

namespace attnviz::ui {
namespace {

QDockWidget* dock(QMainWindow* w, const QString& title, const QString& name, QWidget* content,
                  Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, w);
    d->setObjectName(name);
    d->setWidget(content);
    w->addDockWidget(area, d);
    return d;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_runner(new AnalysisRunner(this)),
      m_grid(new ComparisonGrid),
      m_profile(new ProfilePlot),
      m_sentences(new SentenceList),
      m_training(new TrainingDock),
      m_variant(new VariantPanel) {
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
    m_mean = new QCheckBox("&Mean of heads");
    m_colormap = new QComboBox;
    m_colormap->addItems(colormapNames());
    m_scaling = new QComboBox;
    m_scaling->addItems({"linear", "power", "log"});
    m_shared = new QCheckBox("S&hared colour scale");
    m_shared->setChecked(true);
    auto label = [](const QString& text, QWidget* buddy) {
        auto* l = new QLabel(text);
        l->setBuddy(buddy);
        return l;
    };
    for (QWidget* w : std::initializer_list<QWidget*>{
             label("&Block", m_block), m_block, label("&Layer", m_layer), m_layer, m_mean,
             label("&Colours", m_colormap), m_colormap, label("Sc&aling", m_scaling), m_scaling,
             m_shared})
        controls->addWidget(w);
    controls->addStretch(1);
    v->addLayout(controls);

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_grid);
    v->addWidget(scroll, 1);
    setCentralWidget(central);

    // Docks: query profile (bottom), sentences (left), variant and training (right).
    auto* profileBox = new QWidget;
    auto* pv = new QVBoxLayout(profileBox);
    pv->setContentsMargins(2, 2, 2, 2);
    m_profileMode = new QComboBox;
    m_profileMode->addItems(
        {"One line per model (mean of its heads)", "One line per head of the clicked model"});
    pv->addWidget(m_profileMode);
    pv->addWidget(m_profile, 1);
    auto* profileDock =
        dock(this, "Query profile", "profile", profileBox, Qt::BottomDockWidgetArea);
    auto* sentenceDock = dock(this, "Sentences", "sentences", m_sentences, Qt::LeftDockWidgetArea);
    auto* variantDock = dock(this, "Variant", "variant", m_variant, Qt::BottomDockWidgetArea);
    auto* trainingDock = dock(this, "Training", "training", m_training, Qt::BottomDockWidgetArea);
    // The grid gets the whole width; the tools share the bottom as tabs.
    tabifyDockWidget(profileDock, variantDock);
    tabifyDockWidget(variantDock, trainingDock);
    profileDock->raise();
    m_profileDock = profileDock;
    sentenceDock->hide();

    auto* file = menuBar()->addMenu("&File");
    file->addAction("&Open checkpoint as a new column…", QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, "Open checkpoint", {},
                                                          "Checkpoints (*.safetensors)");
        if (!path.isEmpty()) openCheckpointFile(path);
    });
    file->addAction("Open &sentence list…", QKeySequence("Ctrl+Shift+O"), this,
                    [this, sentenceDock] {
                        const QString path = QFileDialog::getOpenFileName(
                            this, "Sentence list", {}, "Text or TSV (*.txt *.tsv);;All files (*)");
                        if (path.isEmpty()) return;
                        QString error;
                        if (!m_sentences->loadFile(path, &error)) return message(error);
                        sentenceDock->show();
                        m_sentences->list()->setFocus();
                        m_sentences->setCurrentIndex(0);
                    });
    m_recent = file->addMenu("&Recent sentences");
    connect(m_recent, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addSeparator();
    file->addAction("Open &workspace…", this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, "Open workspace", {}, "attnviz workspace (*.attnviz.json *.json)");
        QString error;
        if (!path.isEmpty() && !openSession(path, &error)) message(error);
    });
    file->addAction("Save workspace &as…", QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, "Save workspace", "workspace.attnviz.json", "attnviz workspace (*.attnviz.json)");
        QString error;
        if (!path.isEmpty() && !saveSession(path, &error)) message(error);
    });
    file->addSeparator();
    file->addAction("&Export figure…", QKeySequence("Ctrl+E"), this, [this] {
        std::unique_ptr<ExportDialog> d(createExportDialog());
        d->exec();
    });
    file->addAction("Export &data…", QKeySequence("Ctrl+Shift+E"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, "Export data", "attention.csv",
            "CSV, long form (*.csv);;JSON dump (*.json);;NumPy (*.npy)");
        QString error;
        if (!path.isEmpty()) message(exportData(path, &error) ? "exported " + path : error);
    });
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
    auto* view = menuBar()->addMenu("&View");
    for (auto* d : {profileDock, sentenceDock, variantDock, trainingDock})
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction("Encoder self-attention", QKeySequence("Ctrl+1"), this,
                    [this] { m_block->setCurrentIndex(0); });
    view->addAction("Decoder self-attention", QKeySequence("Ctrl+2"), this,
                    [this] { m_block->setCurrentIndex(1); });
    view->addAction("Cross-attention", QKeySequence("Ctrl+3"), this,
                    [this] { m_block->setCurrentIndex(2); });
    view->addAction("Next query", QKeySequence("Alt+Down"), this,
                    [this] { selectQuery(m_currentColumn, m_view.query + 1); });
    view->addAction("Previous query", QKeySequence("Alt+Up"), this,
                    [this] { selectQuery(m_currentColumn, std::max(0, m_view.query - 1)); });
    view->addAction("Clear query", QKeySequence("Alt+Backspace"), this,
                    [this] { selectQuery(m_currentColumn, -1); });
    // The current column (for the Variant tab and the per-head profile) without a mouse.
    auto stepColumn = [this](int delta) {
        if (m_columns.empty()) return;
        const int n = int(m_columns.size());
        const int c = m_currentColumn < 0 ? 0 : (m_currentColumn + delta + n) % n;
        selectQuery(c, m_view.query);
        message("current column: " + m_columns[size_t(c)].name);
    };
    view->addAction("Next column", QKeySequence("Ctrl+Alt+Right"), this,
                    [stepColumn] { stepColumn(+1); });
    view->addAction("Previous column", QKeySequence("Ctrl+Alt+Left"), this,
                    [stepColumn] { stepColumn(-1); });
    view->addAction("Focus the sentence", QKeySequence("Ctrl+L"), this, [this] {
        m_source->setFocus();
        m_source->selectAll();
    });
    auto* columns = menuBar()->addMenu("&Columns");
    columns->addAction(
        "Show every &layer of the clicked model", QKeySequence("Ctrl+Shift+L"), this, [this] {
            ViewState v = m_view;
            v.allLayersOf = v.allLayersOf >= 0 ? -1 : std::max(0, m_currentColumn);
            setView(v);
            message(v.allLayersOf >= 0 ? "every layer of " + m_columns[size_t(v.allLayersOf)].name +
                                             " (Ctrl+Shift+L: back to all models)"
                                       : "all models");
        });
    columns->addAction("Move clicked column &left", QKeySequence("Ctrl+Shift+Left"), this,
                       [this] { moveColumn(m_currentColumn, -1); });
    columns->addAction("Move clicked column &right", QKeySequence("Ctrl+Shift+Right"), this,
                       [this] { moveColumn(m_currentColumn, +1); });
    columns->addAction("&Remove clicked column", QKeySequence("Ctrl+Shift+Del"), this,
                       [this] { removeColumn(m_currentColumn); });

    connect(m_source, &QLineEdit::textChanged, this, &MainWindow::requestAnalysis);
    connect(m_target, &QLineEdit::textChanged, this, &MainWindow::requestAnalysis);
    connect(m_source, &QLineEdit::returnPressed, this, &MainWindow::rememberSentence);
    connect(m_block, &QComboBox::currentIndexChanged, this, &MainWindow::viewFromControls);
    connect(m_layer, &QSpinBox::valueChanged, this, &MainWindow::viewFromControls);
    connect(m_mean, &QCheckBox::toggled, this, &MainWindow::viewFromControls);
    connect(m_colormap, &QComboBox::currentTextChanged, this, &MainWindow::viewFromControls);
    connect(m_scaling, &QComboBox::currentTextChanged, this, &MainWindow::viewFromControls);
    connect(m_shared, &QCheckBox::toggled, this, &MainWindow::viewFromControls);
    connect(m_profileMode, &QComboBox::currentIndexChanged, this, &MainWindow::updateProfile);
    connect(m_runner, &AnalysisRunner::finished, this, &MainWindow::showResults);
    connect(m_grid, &ComparisonGrid::queryClicked, this, &MainWindow::selectQuery);
    connect(m_grid, &ComparisonGrid::moveColumnRequested, this, &MainWindow::moveColumn);
    connect(m_grid, &ComparisonGrid::removeColumnRequested, this, &MainWindow::removeColumn);
    connect(m_sentences, &SentenceList::sentenceChosen, this,
            [this](const QString& s, const QString& t) {
                setSentence(s, t);
                rememberSentence();
            });
    connect(m_training, &TrainingDock::modelTrained, this, &MainWindow::addColumn);
    connect(m_training, &TrainingDock::message, this, &MainWindow::message);
    connect(m_variant, &VariantPanel::modelChanged, this, &MainWindow::requestAnalysis);
    connect(m_variant, &VariantPanel::message, this, &MainWindow::message);
    resize(1600, 1000);
}

void MainWindow::message(const QString& text) {
    statusBar()->showMessage(text);
}

void MainWindow::setColumns(std::vector<ModelColumn> columns) {
    m_columns = std::move(columns);
    columnsChanged();
}

void MainWindow::addColumn(ModelColumn column) {
    m_columns.push_back(std::move(column));
    columnsChanged();
}

void MainWindow::moveColumn(int c, int delta) {
    m_view.allLayersOf = -1;
    const int to = c + delta;
    if (c < 0 || to < 0 || c >= int(m_columns.size()) || to >= int(m_columns.size())) return;
    ModelColumn moved = std::move(m_columns[size_t(c)]);
    m_columns.erase(m_columns.begin() + c);
    m_columns.insert(m_columns.begin() + to, std::move(moved));
    m_currentColumn = to;
    columnsChanged();
}

void MainWindow::removeColumn(int c) {
    if (c < 0 || c >= int(m_columns.size())) return;
    m_view.allLayersOf = -1;
    m_columns.erase(m_columns.begin() + c);
    m_currentColumn = -1;
    m_variant->showColumn(nullptr, m_view.kind);
    columnsChanged();
}

void MainWindow::columnsChanged() {
    QStringList info;
    for (const auto& c : m_columns) info << VariantPanel::describe(*c.model);
    m_grid->setColumnInfo(info);
    requestAnalysis();
}

bool MainWindow::openCheckpointFile(const QString& path) {
    try {
        addColumn(loadModelColumn(path));
        message("opened " + path);
        return true;
    } catch (const std::exception& e) {
        message("Cannot open checkpoint: " + QString::fromUtf8(e.what()));
        return false;
    }
}

void MainWindow::setSentence(const QString& source, const QString& target) {
    const QSignalBlocker b1(m_source), b2(m_target);
    m_source->setText(source);
    m_target->setText(target);
    requestAnalysis();
}

void MainWindow::setBlock(BlockKind kind, int layer) {
    ViewState v = m_view;
    v.kind = kind;
    v.layer = layer;
    setView(v);
}

void MainWindow::setView(const ViewState& v) {
    {
        const QSignalBlocker b1(m_block), b2(m_layer), b3(m_mean), b4(m_colormap), b5(m_scaling),
            b6(m_shared);
        m_block->setCurrentIndex(m_block->findData(int(v.kind)));
        m_layer->setValue(v.layer);
        m_mean->setChecked(v.meanHeads);
        m_colormap->setCurrentText(v.colormap);
        m_scaling->setCurrentText(scalingName(v.scaling));
        m_shared->setChecked(v.shared);
    }
    m_view = v;
    m_grid->setView(m_view);
    if (m_currentColumn >= 0 && m_currentColumn < int(m_columns.size()))
        m_variant->showColumn(&m_columns[size_t(m_currentColumn)], m_view.kind);
    updateProfile();
}

void MainWindow::viewFromControls() {
    ViewState v = m_view;
    v.kind = BlockKind(m_block->currentData().toInt());
    v.layer = m_layer->value();
    v.meanHeads = m_mean->isChecked();
    v.colormap = m_colormap->currentText();
    v.scaling = scalingFromName(m_scaling->currentText());
    v.shared = m_shared->isChecked();
    if (v.kind != m_view.kind) v.query = -1;  // rows mean other tokens now
    setView(v);
}

void MainWindow::selectQuery(int column, int query) {
    if (column >= 0 && column < int(m_columns.size())) {
        m_currentColumn = column;
        m_variant->showColumn(&m_columns[size_t(column)], m_view.kind);
    }
    ViewState v = m_view;
    v.query = query;
    setView(v);
}

void MainWindow::updateProfile() {
    const auto& res = m_grid->results();
    if (!res) return;
    const bool perHead = m_profileMode->currentIndex() == 1 && m_currentColumn >= 0 &&
                         m_currentColumn < int(res->size());
    m_profile->showProfile(*res, m_view, perHead ? m_currentColumn : -1);
}

void MainWindow::requestAnalysis() {
    if (m_columns.empty()) {
        m_grid->setResults(std::make_shared<const Results>());
        return;
    }
    message("analysing…");
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
    updateProfile();
    if (failed) {
        message(QString("%1 of %2 models could not run: %3")
                    .arg(failed)
                    .arg(m_columns.size())
                    .arg(firstError));
    } else {
        message(QString("%1 models").arg(m_columns.size()));
    }
}

void MainWindow::rememberSentence() {
    const QString s = m_source->text().trimmed();
    if (s.isEmpty()) return;
    QSettings settings;
    QStringList recent = settings.value("recentSentences").toStringList();
    recent.removeAll(s);
    recent.prepend(s);
    settings.setValue("recentSentences", recent.mid(0, 20));
}

void MainWindow::rebuildRecentMenu() {
    m_recent->clear();
    const QStringList recent = QSettings().value("recentSentences").toStringList();
    for (const QString& s : recent) m_recent->addAction(s, this, [this, s] { setSentence(s); });
    if (recent.isEmpty())
        m_recent->addAction("(none yet: press Enter in the sentence field)")->setEnabled(false);
}

bool MainWindow::exportFigure(const QString& path, QString* error) {
    const auto res = m_grid->results();
    const FigurePainter paint =
        res ? gridPainter(*res, m_view, "all", styleOf(m_view), error) : FigurePainter();
    if (!res && error) *error = "nothing to export yet";
    // A 16:9 slide; PNG at 144 dpi is 1920 x 1080.
    return paint && writeFigure(path, QSizeF(960, 540), true, 144, paint, error);
}

ExportDialog* MainWindow::createExportDialog() {
    auto source = [this](ExportDialog::What what, const FigureStyle& style, int head,
                         QString* error) -> FigurePainter {
        const auto res = m_grid->results();
        if (!res || res->empty()) {
            if (error) *error = "nothing to export yet";
            return {};
        }
        if (what == ExportDialog::Loss) {
            QCustomPlot* plot = m_training->lossPlot();
            if (!plot->graphCount()) {
                if (error) *error = "no loss curves yet: train a model in the Training tab";
                return {};
            }
            // Recorded as vector drawing operations, replayed scaled onto the page.
            auto picture = std::make_shared<QPicture>();
            {
                QCPPainter qp(picture.get());
                plot->toPainter(&qp, 600, 400);
            }
            return [picture](QPainter& p, const QRectF& r) {
                p.save();
                p.translate(r.topLeft());
                p.scale(r.width() / 600, r.height() / 400);
                p.drawPicture(0, 0, *picture);
                p.restore();
            };
        }
        if (what == ExportDialog::Profile) {
            if (m_view.query < 0) {
                if (error) *error = "click a query token first";
                return {};
            }
            const bool perHead = m_profileMode->currentIndex() == 1 && m_currentColumn >= 0;
            return profilePainter(*res, m_view, perHead ? m_currentColumn : -1, style, error);
        }
        if (what == ExportDialog::Grid) return gridPainter(*res, m_view, "all", style, error);
        // One head of the clicked model.
        QString e;
        auto fig = std::make_shared<Figure>(gridFigure(*res, m_view, "all", style, &e));
        if (!e.isEmpty()) {
            if (error) *error = e;
            return {};
        }
        const int c = std::clamp(m_currentColumn, 0, int(fig->columns.size()) - 1);
        if (head >= int(fig->columns[size_t(c)].size())) {
            if (error)
                *error = QString("%1 has no head %2").arg(fig->columnTitles[size_t(c)]).arg(head);
            return {};
        }
        fig->columns = {{fig->columns[size_t(c)][size_t(head)]}};
        fig->columnTitles = {fig->columnTitles[size_t(c)]};
        return [fig](QPainter& p, const QRectF& r) { paintFigure(p, *fig, r); };
    };
    return new ExportDialog(source, styleOf(m_view), this);
}

bool MainWindow::exportData(const QString& path, QString* error) {
    const auto res = m_grid->results();
    std::string bytes;
    try {
        bytes = exportDataBytes(res ? *res : Results(), m_columns, m_view, "all",
                                QFileInfo(path).suffix().toLower());
    } catch (const std::exception& e) {
        if (error) *error = path + ": " + QString::fromUtf8(e.what());
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), bytes);  // its message names the path
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

Session MainWindow::session() const {
    Session s;
    s.source = m_source->text();
    s.target = m_target->text();
    s.sentences = m_sentences->lines();
    s.sentenceIndex = m_sentences->currentIndex();
    for (const auto& c : m_columns)
        if (!c.path.isEmpty()) s.columns << c.path;  // models trained in the app need saving first
    s.view = m_view;
    return s;
}

void MainWindow::applySession(const Session& s, QStringList* errors) {
    std::vector<ModelColumn> cols;
    for (const QString& p : s.columns) {
        try {
            cols.push_back(loadModelColumn(p));
        } catch (const std::exception& e) {
            if (errors) errors->append(QString::fromUtf8(e.what()));
        }
    }
    m_sentences->setLines(s.sentences);
    {
        const QSignalBlocker b(m_sentences->list());
        m_sentences->setCurrentIndex(s.sentenceIndex);
    }
    m_currentColumn = -1;
    setView(s.view);
    {
        const QSignalBlocker b1(m_source), b2(m_target);
        m_source->setText(s.source);
        m_target->setText(s.target);
    }
    setColumns(std::move(cols));
}

bool MainWindow::saveSession(const QString& path, QString* error) const {
    return session().save(path, error);
}

bool MainWindow::openSession(const QString& path, QString* error) {
    Session s;
    if (!Session::load(path, &s, error)) return false;
    QStringList errors;
    applySession(s, &errors);
    if (!errors.isEmpty())
        message(QString("%1 checkpoint(s) could not be opened: %2")
                    .arg(errors.size())
                    .arg(errors.first()));
    return true;
}

bool MainWindow::lastSession(Session* out) {
    const QByteArray json = QSettings().value("lastSession").toByteArray();
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isObject()) return false;
    QString error;
    *out = Session::fromJson(doc.object(), &error);
    return error.isEmpty() && !out->columns.isEmpty();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_shown) return;
    m_shown = true;
    resizeDocks({m_profileDock}, {std::max(220, height() / 4)}, Qt::Vertical);  // the grid first
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue("lastSession",
                      QJsonDocument(session().toJson()).toJson(QJsonDocument::Compact));
    settings.setValue("windowState", saveState());
    settings.setValue("geometry", saveGeometry());
    m_training->stop();
    QMainWindow::closeEvent(event);
}

}  // namespace attnviz::ui
