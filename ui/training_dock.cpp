// SPDX-License-Identifier: GPL-3.0-or-later
#include "training_dock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>
#include <cmath>
#include <thread>

#include "background.h"
#include "language.h"
#include "render/colormaps.h"
#include "render/figure.h"
#include "render/words.h"

namespace attnviz::ui {

using nlohmann::json;

const std::vector<Preset>& TrainingDock::presets() {
    static const std::vector<Preset> all = [] {
        try {
            return loadPresets(presetDirectory());
        } catch (const std::exception&) {
            return std::vector<Preset>{};  // start() reports the missing preset
        }
    }();
    return all;
}

json TrainingDock::configFor(const QString& presetId, const QString& size, bool lm) {
    json c{{"max_len", 48}};
    if (size.startsWith("tiny")) {
        c.update(
            {{"d_model", 32}, {"heads", 2}, {"d_ff", 64}, {"enc_layers", 1}, {"dec_layers", 1}});
    } else if (size.startsWith("medium")) {
        c.update(
            {{"d_model", 64}, {"heads", 4}, {"d_ff", 256}, {"enc_layers", 2}, {"dec_layers", 2}});
    } else {  // small: the bundled models' size
        c.update(
            {{"d_model", 48}, {"heads", 4}, {"d_ff", 96}, {"enc_layers", 2}, {"dec_layers", 2}});
    }
    return presetConfig(findPreset(presets(), presetId.toStdString()), c, lm);
}

TrainingDock::TrainingDock(QWidget* parent) : QWidget(parent) {
    // Controls on the left, loss curves on the right.
    auto* row = new QHBoxLayout(this);
    auto* left = new QWidget;
    left->setMaximumWidth(460);
    auto* form = new QFormLayout(left);
    row->addWidget(left);
    m_task = new QComboBox;
    // Tasks carry their name as data; the data file item none. Every text: retranslateUi.
    for (const auto& t : taskNames()) m_task->addItem(QString(), QString::fromStdString(t));
    m_task->addItem(QString());
    m_task->setCurrentIndex(m_task->findData(QStringLiteral("translate")));
    auto* dataRow = makeDataRow();
    m_variant = new QComboBox;
    for (const Preset& p : presets()) m_variant->addItem(QString(), QString::fromStdString(p.id));
    m_size = new QComboBox;
    // The size's id (configFor) is the item's data, not its translated text.
    for (const char* id : {"tiny", "small", "medium"}) m_size->addItem(QString(), id);
    m_size->setCurrentIndex(1);
    m_steps = new QSpinBox;
    m_steps->setRange(1, 1000000);
    m_steps->setValue(1000);
    auto* probeRow = makeProbeRow();
    // Long item texts must not squeeze the labels (the form is at most 460 px wide).
    for (QComboBox* c : {m_task, m_tokenizer, m_variant, m_size}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(12);
    }
    form->addRow(rowLabel(m_task), m_task);
    form->addRow(rowLabel(m_data), dataRow);
    for (QWidget* field : std::initializer_list<QWidget*>{m_tokenizer, m_variant, m_size, m_steps})
        form->addRow(rowLabel(field), field);
    form->addRow(probeRow);
    form->addRow(makeButtonRow());
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    form->addRow(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    form->addRow(m_status);
    row->addWidget(makeLossPlot(), 1);

    connect(m_start, &QPushButton::clicked, this, &TrainingDock::startFromControls);
    connect(m_pause, &QPushButton::toggled, this, &TrainingDock::setPaused);
    connect(m_stop, &QPushButton::clicked, this, &TrainingDock::stop);
    connect(m_save, &QPushButton::clicked, this, &TrainingDock::saveLast);
    retranslateUi();
}

std::pair<QString, QString> TrainingDock::lossAxisTitles(const QString& language) {
    const render::Words words(language);
    //: Loss plot axis title: the training step
    return {words.translate("attnviz::ui::TrainingDock", "step"),
            words.translate("attnviz::ui::TrainingDock", "training loss")};
}

void TrainingDock::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        // The last run's held-out line again; a running one says it at its next step.
        if (!m_running && m_last) showHeldOut();
    }
    QWidget::changeEvent(event);
}

void TrainingDock::retranslateUi() {
    const auto& tasks = taskNames();
    for (size_t i = 0; i < tasks.size(); ++i) m_task->setItemText(int(i), engineText(tasks[i]));
    //: Task combo box item: train on a data file chosen below instead of a built-in task
    m_task->setItemText(int(tasks.size()), tr("data file…"));
    for (size_t i = 0; i < presets().size(); ++i)
        m_variant->setItemText(int(i), engineText(presets()[i].label));
    m_size->setItemText(0, tr("tiny (d 32, 2 heads, 1+1)"));
    m_size->setItemText(1, tr("small (d 48, 4 heads, 2+2)"));
    m_size->setItemText(2, tr("medium (d 64, 4 heads, 2+2)"));
    setRowLabel(m_task, tr("&Task"));
    //: Form label: the training data file
    setRowLabel(m_data, tr("Data"));
    setRowLabel(m_tokenizer, tr("Tokeni&zer"));
    //: Form label: the attention variant to train
    setRowLabel(m_variant, tr("&Variant"));
    //: Form label: the model size
    setRowLabel(m_size, tr("Si&ze"));
    //: Form label: the number of training steps
    setRowLabel(m_steps, tr("&Steps"));
    m_start->setText(tr("&Train"));
    setPaused(m_pauseFlag);
    m_stop->setText(tr("St&op"));
    m_save->setText(tr("Sa&ve model…"));
    //: Progress bar text: no training run yet
    if (!m_running && !m_last) m_progress->setFormat(tr("idle"));
    const auto [step, loss] = lossAxisTitles(currentLanguage());
    m_plot->xAxis->setLabel(step);
    m_plot->yAxis->setLabel(loss);
    m_plot->replot();
    retranslateRows();
}

// Train, Pause, Stop and Save model; all but Train disabled until a run starts.
QHBoxLayout* TrainingDock::makeButtonRow() {
    auto* buttons = new QHBoxLayout;
    m_start = new QPushButton;
    m_pause = new QPushButton;
    m_pause->setCheckable(true);
    m_stop = new QPushButton;
    m_save = new QPushButton;
    for (auto* b : {m_pause, m_stop, m_save}) b->setEnabled(false);
    for (auto* b : {m_start, m_pause, m_stop, m_save}) buttons->addWidget(b);
    return buttons;
}

// The loss curves: a line per run, dragged and zoomed with the mouse.
QCustomPlot* TrainingDock::makeLossPlot() {
    m_plot = new QCustomPlot;
    m_plot->setMinimumHeight(160);
    m_plot->legend->setVisible(false);  // until a run has a line: no empty box
    m_plot->legend->setFont(QFont(render::figureFontFamily(), 8));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    return m_plot;
}

// The data file, its browse button and the tokenizer choice, enabled with "data file…".
QHBoxLayout* TrainingDock::makeDataRow() {
    m_data = new QLineEdit;
    auto* browse = new QPushButton("…");
    m_tokenizer = new QComboBox;
    m_tokenizer->addItem(QString(), "word");
    m_tokenizer->addItem(QString(), "sentencepiece");
    for (QWidget* w : std::initializer_list<QWidget*>{m_data, browse, m_tokenizer})
        w->setEnabled(false);
    auto* dataRow = new QHBoxLayout;
    dataRow->addWidget(m_data, 1);
    dataRow->addWidget(browse);
    connect(m_task, &QComboBox::currentIndexChanged, this, [this, browse] {
        const bool file = !m_task->currentData().isValid();
        for (QWidget* w : std::initializer_list<QWidget*>{m_data, browse, m_tokenizer})
            w->setEnabled(file);
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(
            this, tr("Training data"), {}, tr("Text or TSV (*.txt *.tsv);;All files (*)"));
        if (!p.isEmpty()) m_data->setText(p);
    });
    return dataRow;
}

// "Record attention over training" and its interval, which follows the steps (a twentieth)
// until the user sets it.
QHBoxLayout* TrainingDock::makeProbeRow() {
    m_probe = new QCheckBox;
    m_probe->setChecked(true);
    m_probeEvery = new QSpinBox;
    m_probeEvery->setRange(1, 1000000);
    auto follow = [this](int steps) {
        if (m_probeEverySet) return;
        const QSignalBlocker block(m_probeEvery);
        m_probeEvery->setValue(std::max(1, int(std::lround(steps / 20.0))));
    };
    follow(m_steps->value());
    connect(m_steps, qOverload<int>(&QSpinBox::valueChanged), this, follow);
    connect(m_probeEvery, qOverload<int>(&QSpinBox::valueChanged), this,
            [this] { m_probeEverySet = true; });
    connect(m_probe, &QCheckBox::toggled, m_probeEvery, &QWidget::setEnabled);
    auto* r = new QHBoxLayout;
    r->addWidget(m_probe, 1);
    r->addWidget(m_probeEvery);
    return r;
}

// The texts of the data and probe rows.
void TrainingDock::retranslateRows() {
    m_data->setPlaceholderText(tr("TSV (source<TAB>target) or text (language model)"));
    m_tokenizer->setItemText(0, tr("words (unknown words become <unk>)"));
    m_tokenizer->setItemText(1, tr("subwords: SentencePiece trained on the data (never <unk>)"));
    m_probe->setText(tr("&Record attention over training"));
    //: Spin box prefix, read with the value and the suffix: "every 50 steps"
    m_probeEvery->setPrefix(tr("every "));
    //: Spin box suffix, read with the prefix and the value: "every 50 steps"
    m_probeEvery->setSuffix(tr(" steps"));
    const QString tip =
        tr("The current sentence's attention is recorded every N steps and shown in the Over "
           "training dock");
    m_probe->setToolTip(tip);
    m_probeEvery->setToolTip(tip);
}

void TrainingDock::setProbeSentence(const std::string& source, const std::string& target) {
    m_probeSource = source;
    m_probeTarget = target;
}

TrainingDock::~TrainingDock() {
    m_stopFlag = true;
    m_pauseFlag = false;
    m_future.waitForFinished();
}

void TrainingDock::startFromControls() {
    const bool file = !m_task->currentData().isValid();  // the data file item
    const bool lm =
        file ? m_data->text().endsWith(".txt") : m_task->currentData().toString() == "lm";
    JobSpec spec;
    try {
        spec.configJson =
            configFor(m_variant->currentData().toString(), m_size->currentData().toString(), lm);
    } catch (const std::exception& e) {
        emit message(tr("Cannot train: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    if (file) {
        spec.data = m_data->text().toStdString();
        spec.tokenizer = m_tokenizer->currentData().toString().toStdString();
    } else {
        spec.task = m_task->currentData().toString().toStdString();
    }
    spec.train.steps = m_steps->value();
    spec.train.lr = 3e-3;
    spec.train.warmup = std::min(200, std::max(1, m_steps->value() / 10));
    spec.train.threads = std::max(1, int(std::thread::hardware_concurrency()));
    spec.heldOutCount = 100;
    const QString name = QString("%1 · %2").arg(
        m_variant->currentData().toString(),
        file ? QFileInfo(m_data->text()).fileName() : m_task->currentData().toString());
    if (m_probe->isChecked() && m_probeSource.find_first_not_of(" \t\r\n") != std::string::npos) {
        spec.probeEvery = m_probeEvery->value();
        spec.probeSource = m_probeSource;
        // A language model's probe is the text itself: it takes no target.
        if (!lm && m_probeTarget.find_first_not_of(" \t\r\n") != std::string::npos)
            spec.probeTarget = m_probeTarget;
        spec.name = name.toStdString();
        spec.probeRequired = false;  // a sentence the model cannot take: trained without
    }
    QString error;
    if (!start(spec, name, &error)) emit message(tr("Cannot train: %1").arg(error));
}

bool TrainingDock::start(const JobSpec& spec, const QString& name, QString* error) {
    if (m_running) {
        if (error) *error = tr("a training run is already in progress");
        return false;
    }
    try {
        validateJobSpec(spec);  // cheap; data files are read on the worker
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        m_status->setText("<span style='color:#b00020'>" +
                          QString::fromUtf8(e.what()).toHtmlEscaped() + "</span>");
        return false;
    }
    m_running = true;
    m_stopFlag = false;
    m_pauseFlag = false;
    m_start->setEnabled(false);
    m_pause->setEnabled(true);
    m_pause->setChecked(false);
    m_stop->setEnabled(true);
    m_graph = m_plot->addGraph();
    m_plot->legend->setVisible(true);
    m_graph->setName(name);
    m_graph->setPen(QPen(render::lineColor(m_plot->graphCount() - 1), 1.5));
    m_progress->setRange(0, spec.train.steps);
    m_progress->setValue(0);
    m_status->setText(tr("preparing…"));
    m_future = QtConcurrent::run(trainingPool(), [this, spec, name] { train(spec, name); });
    return true;
}

// On the worker thread: prepares and runs the job, its progress, notes and probe snapshots
// queued to the UI thread; ends with onFinished, queued too.
void TrainingDock::train(const JobSpec& spec, const QString& name) {
    const int total = spec.train.steps;
    QString err;
    std::shared_ptr<Model> model;
    try {
        auto job = std::make_shared<TrainingJob>(spec);  // reads a data file: not on the UI thread
        QStringList notes;  // skipped data lines, a probe that could not be recorded
        for (const auto& n : job->notes()) notes << QString::fromStdString(n);
        const QString note = notes.join("; ");
        QMetaObject::invokeMethod(
            this, [this, note] { m_status->setText(note); }, Qt::QueuedConnection);
        // Probe snapshots, copied: the recorder's are the worker's.
        auto deliver = [this, name, source = spec.probeSource,
                        every = spec.probeEvery](const ProbeSnapshot& s) {
            QMetaObject::invokeMethod(
                this,
                [this, name, source, every, s] {
                    emit probeSnapshot(name, source, every, s, s.step == 0);
                },
                Qt::QueuedConnection);
        };
        if (const ProbeRecorder* probe = job->probe(); probe && !probe->record().snapshots.empty())
            deliver(probe->record().snapshots.front());  // step 0, recorded when prepared
        job->run(
            [&](const Progress& p) {
                if (p.probe) deliver(*p.probe);
                if (p.stats.step % 5 == 0 || p.stats.step == total)
                    QMetaObject::invokeMethod(
                        this,
                        [this, s = p.stats.step, total, l = p.stats.loss, eta = p.etaSeconds,
                         t = p.tokensPerSecond] { onProgress(s, total, l, eta, t); },
                        Qt::QueuedConnection);
                while (m_pauseFlag && !m_stopFlag)
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
            },
            &m_stopFlag);
        const bool stopped = m_stopFlag.load();
        job->finish(job->evaluateHeldOut(!stopped), stopped);
        nlohmann::json t = job->model().training().raw();
        t["name"] = name.toStdString();
        job->model().setTraining(t);
        model = std::make_shared<Model>(std::move(job->model()));
    } catch (const std::exception& e) {
        err = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        this, [this, model, name, err] { onFinished(model, name, err); }, Qt::QueuedConnection);
}

void TrainingDock::onProgress(int step, int total, double loss, double eta, double tps) {
    if (!m_graph) return;
    m_graph->addData(step, loss);
    m_plot->rescaleAxes();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_progress->setValue(step);
    const long s = std::lround(eta);
    //: Progress bar: step / total steps, the loss, the time left (minutes:seconds)
    m_progress->setFormat(tr("%1 / %2 · loss %3 · ETA %4:%5")
                              .arg(step)
                              .arg(total)
                              .arg(loss, 0, 'f', 3)
                              .arg(s / 60)
                              .arg(s % 60, 2, 10, QChar('0')));
    m_status->setText(tr("%1k tokens/s").arg(tps / 1000, 0, 'f', 1));
}

void TrainingDock::onFinished(std::shared_ptr<Model> model, QString name, QString error) {
    m_running = false;
    m_start->setEnabled(true);
    m_pause->setEnabled(false);
    m_pause->setChecked(false);
    m_stop->setEnabled(false);
    if (!error.isEmpty() || !model) {
        m_status->setText("<span style='color:#b00020'>" + error.toHtmlEscaped() + "</span>");
        emit message(tr("Training failed: %1").arg(error));
        emit runFinished();
        return;
    }
    m_last = model;
    m_lastName = name;
    m_save->setEnabled(true);
    const QString summary = showHeldOut();
    ModelColumn c;
    c.name = name.toStdString();
    c.model = model;
    c.fileConfig = model->config().toJson().dump();  // its trained values, for Reset
    emit modelTrained(c);
    emit message(tr("trained %1: %2").arg(name, summary));
    emit runFinished();
}

QString TrainingDock::showHeldOut() {
    const HeldOutInfo h = m_last->training().heldOut.value_or(HeldOutInfo{});
    if (!h.loss) {  // nothing held out: no metrics rather than zeros that read like results
        const QString none =
            tr("no held-out set: the data were too few to hold any line out "
               "(every 20th line is held out)");
        m_progress->setFormat(tr("done · %1").arg(none));
        m_status->setText(none);
        return none;
    }
    // No-break spaces inside each metric: a wrapped status must not split "BLEU" from its
    // value.
    const double loss = h.loss.value_or(0.0), accuracy = 100 * h.tokenAccuracy.value_or(0.0);
    const QString summary = h.bleu
                                ? tr("held-out loss\u00A0%1, token accuracy\u00A0%2%, BLEU\u00A0%3")
                                      .arg(loss, 0, 'f', 3)
                                      .arg(accuracy, 0, 'f', 1)
                                      .arg(*h.bleu, 0, 'f', 1)
                                : tr("held-out loss\u00A0%1, token accuracy\u00A0%2%")
                                      .arg(loss, 0, 'f', 3)
                                      .arg(accuracy, 0, 'f', 1);
    //: Progress bar after a run: "done · held-out loss 1.234, …"
    m_progress->setFormat(tr("done · %1").arg(summary));
    m_status->setText(summary);
    return summary;
}

void TrainingDock::setPaused(bool paused) {
    m_pauseFlag = paused;
    m_pause->setText(paused ? tr("&Resume") : tr("&Pause"));
}

void TrainingDock::stop() {
    m_stopFlag = true;
    m_pauseFlag = false;
}

void TrainingDock::saveLast() {
    if (m_last) saveModel(m_last, m_lastName);
}

bool TrainingDock::saveModel(const std::shared_ptr<Model>& model, const QString& name) {
    if (!model) return false;
    const QString suggested = name.section(' ', 0, 0) + ".safetensors";
    const QString path = m_choosePath
                             ? m_choosePath(suggested)
                             : QFileDialog::getSaveFileName(this, tr("Save model"), suggested,
                                                            tr("Checkpoints (*.safetensors)"));
    return writeModel(model, path);
}

bool TrainingDock::saveModels(
    const std::vector<std::pair<std::shared_ptr<Model>, QString>>& models) {
    if (models.size() == 1) return saveModel(models[0].first, models[0].second);
    if (models.empty()) return true;
    const int n = int(models.size());
    const QString folder = m_chooseFolder ? m_chooseFolder(n)
                                          : QFileDialog::getExistingDirectory(
                                                this, tr("Save %1 models into a folder").arg(n));
    if (folder.isEmpty()) return false;
    for (const auto& [model, name] : models) {
        const QDir dir(folder);
        QString stem = name.section(' ', 0, 0);  // "gauss · trained here" → "gauss"
        stem.replace('/', '-').replace('\\', '-');
        if (stem.isEmpty() || stem.startsWith('.')) stem.prepend(QStringLiteral("model"));
        QString file = stem + ".safetensors";
        for (int k = 2; QFileInfo::exists(dir.filePath(file)); ++k)
            file = stem + QStringLiteral("-%1.safetensors").arg(k);
        if (!writeModel(model, dir.filePath(file))) return false;
    }
    return true;
}

bool TrainingDock::writeModel(const std::shared_ptr<Model>& model, const QString& path) {
    if (!model || path.isEmpty()) return false;
    try {
        model->save(path.toStdString());  // atomic: a temporary file renamed over `path`
        emit modelSaved(model, path);
        emit message(tr("saved %1").arg(path));
        return true;
    } catch (const std::exception& e) {
        emit message(tr("Cannot save: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

}  // namespace attnviz::ui
