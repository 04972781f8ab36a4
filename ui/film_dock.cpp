// SPDX-License-Identifier: GPL-3.0-or-later
#include "film_dock.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/file_io.h"
#include "core/selection.h"
#include "heatmap_panel.h"
#include "language.h"
#include "render/figure_file.h"
#include "render/words.h"

namespace attnviz::ui {
namespace {

bool fail(QString* error, const QString& why) {
    if (error) *error = why;
    return false;
}

}  // namespace

FilmDock::FilmDock(QWidget* parent)
    : QWidget(parent),
      m_open(new QPushButton),
      m_export(new QPushButton),
      m_save(new QPushButton),
      m_caption(new QLabel),
      m_slider(new QSlider(Qt::Horizontal)),
      m_empty(new QLabel),
      m_scroll(new QScrollArea) {
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(1);
    m_slider->setPageStep(1);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    auto* strip = new QWidget;
    m_row = new QHBoxLayout(strip);
    m_row->setContentsMargins(2, 2, 2, 2);
    m_row->setSpacing(2);
    m_row->addStretch(1);  // panels keep their size, left-aligned
    m_scroll->setWidget(strip);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);

    auto* top = new QHBoxLayout;
    top->addWidget(m_open);
    top->addWidget(m_caption, 1);
    top->addWidget(m_save);
    top->addWidget(m_export);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(2, 2, 2, 2);
    v->addLayout(top);
    v->addWidget(m_slider);
    v->addWidget(m_empty, 1);
    v->addWidget(m_scroll, 1);

    connect(m_open, &QPushButton::clicked, this, &FilmDock::openFromDialog);
    connect(m_export, &QPushButton::clicked, this, &FilmDock::exportFromDialog);
    connect(m_save, &QPushButton::clicked, this, &FilmDock::saveFromDialog);
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (m_settingSlider) return;
        m_index = value;
        m_follow = value == m_slider->maximum();  // back at the end: follow again
        showCurrent();
    });
    retranslateUi();
}

void FilmDock::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

// Every text, and the caption and panels made again from the snapshots already recorded.
void FilmDock::retranslateUi() {
    m_open->setText(tr("&Open probe file…"));
    m_export->setText(tr("E&xport filmstrip…"));
    m_save->setText(tr("&Save probe…"));
    m_empty->setText(
        tr("Train with a probe sentence (Training tab: 'Record attention over training') or "
           "open a probe file written by attnviz-cli train --probe"));
    m_open->setToolTip(
        tr("A probe file (M.probe.json) written by attnviz-cli train --probe S "
           "--probe-every K --out M.safetensors"));
    m_export->setToolTip(
        tr("The chosen block, layer and heads at five evenly spaced steps (every step when there "
           "are six or fewer), a column per step, as SVG, PDF or PNG"));
    m_slider->setAccessibleName(tr("Training step"));
    m_save->setToolTip(
        tr("Write these snapshots as a probe file (JSON, docs/analysis.md), to open later or "
           "draw with attnviz-cli render --probe; a run trained here is lost otherwise"));
    updateSlider();
    showCurrent();
}

void FilmDock::setRecord(ProbeRecord record) {
    m_record = std::move(record);
    m_live = false;
    m_follow = true;
    m_index = int(m_record.snapshots.size()) - 1;
    updateSlider();
    showCurrent();
}

void FilmDock::addSnapshot(const QString& runName, const std::string& source, int every,
                           ProbeSnapshot snapshot, bool first) {
    if (first) {
        ProbeRecord r;
        r.model = runName.toStdString();
        r.source = source;
        r.every = every;
        r.snapshots.push_back(std::move(snapshot));
        setRecord(std::move(r));
        m_live = true;
        return;
    }
    if (!m_live || m_record.model != runName.toStdString()) return;  // not the run shown
    if (!m_record.snapshots.empty() && snapshot.step <= m_record.snapshots.back().step) return;
    m_record.snapshots.push_back(std::move(snapshot));
    if (m_follow) m_index = int(m_record.snapshots.size()) - 1;
    updateSlider();
    showCurrent();  // the newest snapshot, or the caption's count
}

bool FilmDock::openFile(const QString& path, QString* error) {
    ProbeRecord r;
    try {
        r = readProbeFile(path.toStdString());  // its messages name the file
    } catch (const std::exception& e) {
        return fail(error, QString::fromUtf8(e.what()));
    }
    if (r.snapshots.empty()) return fail(error, tr("%1 holds no snapshots").arg(path));
    setRecord(std::move(r));
    return true;
}

void FilmDock::setView(const ViewState& view) {
    m_view = view;
    showCurrent();
}

int FilmDock::currentStep() const {
    if (m_index < 0 || m_index >= int(m_record.snapshots.size())) return -1;
    return m_record.snapshots[size_t(m_index)].step;
}

HeatmapPanel* FilmDock::panel(int row) const {
    if (currentStep() < 0 || row < 0 || row >= m_shown) return nullptr;
    return m_panels[size_t(row)];
}

SelectionRequest FilmDock::request() const {
    SelectionRequest r = m_view.request();
    r.wording = render::wording(currentLanguage());
    r.allLayersOf = -1;  // the window's focus column is not a snapshot
    if (r.show == TableKind::Difference) r.show = TableKind::Weights;  // one snapshot: no base
    return r;
}

render::FigureStyle FilmDock::style() const {
    render::FigureStyle s = m_view.figureStyle();
    s.language = currentLanguage();
    s.lines = false;  // heatmaps, as in the dock
    s.title =
        QString("%1 · \u201C%2\u201D")
            .arg(QString::fromStdString(m_record.model), QString::fromStdString(m_record.source));
    return s;
}

void FilmDock::updateSlider() {
    const int n = int(m_record.snapshots.size());
    m_settingSlider = true;
    m_slider->setRange(0, std::max(0, n - 1));
    m_slider->setValue(std::max(0, m_index));
    m_settingSlider = false;
    m_slider->setVisible(n > 0);
    m_slider->setEnabled(n > 1);
    m_export->setEnabled(n > 0);
    m_save->setEnabled(n > 0);
}

void FilmDock::showCurrent() {
    const int step = currentStep();
    m_empty->setVisible(step < 0);
    m_scroll->setVisible(step >= 0);
    if (step < 0) {
        m_caption->setText(m_record.snapshots.empty() && !m_record.model.empty()
                               ? tr("%1 · no snapshots").arg(QString::fromStdString(m_record.model))
                               : QString());
        for (auto* p : m_panels) p->hide();
        m_shown = 0;
        return;
    }
    showCaption(step);
    showPanels(step);
}

void FilmDock::showCaption(int step) {
    const int n = int(m_record.snapshots.size());
    QString sentence = QString::fromStdString(m_record.source);
    if (m_record.target) sentence += " → " + QString::fromStdString(*m_record.target);
    // Without a probe target a translation model decodes at each snapshot: the rows are its
    // output of the moment, which changes (and so do the panels' shapes). Say so.
    const bool decoding = !m_record.target && !m_record.snapshots.empty() &&
                          m_record.snapshots.front().analysis.decoded;
    //: The probe's caption: the run, “the sentence”, the step and which snapshot of how many
    const QString caption =
        decoding ? tr("%1 · \u201C%2\u201D · step %3 (%4/%5) · no target: the rows are each "
                      "snapshot's own decoded output")
                 : tr("%1 · \u201C%2\u201D · step %3 (%4/%5)");
    m_caption->setText(caption.arg(QString::fromStdString(m_record.model), sentence)
                           .arg(step)
                           .arg(m_index + 1)
                           .arg(n));
    m_slider->setToolTip(tr("step %1 of %2 (a snapshot every %3 steps)")
                             .arg(step)
                             .arg(m_record.snapshots.back().step)
                             .arg(m_record.every));
}

void FilmDock::showPanels(int step) {
    Selection s;
    try {
        s = selectTables(std::make_shared<const Results>(
                             probeResults(m_record, {step}, render::wording(currentLanguage()))),
                         request());
    } catch (const std::exception& e) {
        s.error = e.what();
    }
    const SelectedColumn* col = s.columns.empty() ? nullptr : &s.columns.front();
    const int rows = col ? std::max(1, int(col->tables.size())) : 1;
    m_shown = rows;
    while (int(m_panels.size()) < rows) {
        auto* p = new HeatmapPanel;
        m_row->insertWidget(int(m_panels.size()), p);  // before the stretch
        m_panels.push_back(p);
    }
    const QString run = QString::fromStdString(m_record.model);
    for (int h = 0; h < int(m_panels.size()); ++h) {
        HeatmapPanel* p = m_panels[size_t(h)];
        p->setVisible(h < rows);
        if (h >= rows) continue;
        p->setColormap(m_view.colormap);
        p->setScaling(m_view.scaling);
        p->setOwnColorBar(!m_view.shared);
        p->setZoom(m_view.zoom);
        p->setLabelPoints(m_view.labelPoints);
        if (!col || h >= int(col->tables.size())) {
            //: A heatmap's title: the training step it shows
            p->setTitle(tr("step %1").arg(step));
            p->setMessage(
                QString::fromStdString(col && !col->error.empty() ? col->error : s.error));
            continue;
        }
        const SelectedTable& t = col->tables[size_t(h)];
        const QString where = QString::fromStdString(t.where);
        p->setTitle(where);
        //: A heatmap's tooltip title: the run, the training step, the block and head
        p->setToolTipTitle(tr("%1 · step %2 · %3").arg(run).arg(step).arg(where));
        p->setTable(t);
    }
}

std::vector<int> FilmDock::filmSteps(int n) const {
    const int m = int(m_record.snapshots.size());
    std::vector<int> out;
    if (m == 0 || n < 1) return out;
    if (n == 1) return {m_record.snapshots.back().step};
    const int frames = std::min(n, m);
    for (int i = 0; i < frames; ++i) {
        const int k = int(std::lround(double(i) * (m - 1) / (frames - 1)));
        const int step = m_record.snapshots[size_t(k)].step;
        if (out.empty() || step > out.back()) out.push_back(step);
    }
    return out;
}

bool FilmDock::exportFilmstrip(const QString& path, const std::vector<int>& steps, QString* error) {
    if (m_record.snapshots.empty())
        return fail(error,
                    tr("no snapshots yet: train with a probe sentence or open a probe file"));
    if (steps.empty()) return fail(error, tr("no steps chosen for the filmstrip"));
    Selection s;
    try {
        s = selectTables(std::make_shared<const Results>(
                             probeResults(m_record, steps, render::wording(currentLanguage()))),
                         request());
    } catch (const std::exception& e) {
        return fail(error, QString::fromUtf8(e.what()));
    }
    const auto paint = render::gridPainter(s, style(), error);
    return paint && render::writeFigure(path, QSizeF(960, 540), true, 144, paint, error);
}

void FilmDock::openFromDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open training probe"), {}, tr("Probe files (*.probe.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!openFile(path, &error)) {
        emit message(tr("Cannot open the probe file: %1").arg(error));
        return;
    }
    emit message(tr("opened %1: %2 snapshots of %3")
                     .arg(path)
                     .arg(m_record.snapshots.size())
                     .arg(QString::fromStdString(m_record.model)));
}

bool FilmDock::saveProbe(const QString& path, QString* error) const {
    if (m_record.snapshots.empty()) {
        if (error) *error = tr("no snapshots to save");
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), probeJson(m_record));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

void FilmDock::saveFromDialog() {
    if (m_record.snapshots.empty()) return;
    const QString base = QString::fromStdString(m_record.model).section(' ', 0, 0);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save probe"), (base.isEmpty() ? "run" : base) + ".probe.json",
        tr("Probe files (*.probe.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!saveProbe(path, &error)) {
        emit message(tr("Cannot save the probe: %1").arg(error));
        return;
    }
    emit message(tr("wrote %1").arg(path));
}

void FilmDock::exportFromDialog() {
    if (m_record.snapshots.empty()) return;
    const QString base = QString::fromStdString(m_record.model).section(' ', 0, 0);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export filmstrip"), (base.isEmpty() ? "probe" : base) + "-filmstrip.svg",
        tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"));
    if (path.isEmpty()) return;
    const std::vector<int> steps = filmSteps(m_record.snapshots.size() <= 6 ? 6 : 5);
    QString error;
    if (!exportFilmstrip(path, steps, &error)) {
        emit message(tr("Cannot export the filmstrip: %1").arg(error));
        return;
    }
    emit message(tr("wrote %1").arg(path));
}

}  // namespace attnviz::ui
