// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QWidget>

class QHBoxLayout;
#include <atomic>
#include <functional>
#include <memory>

#include "core/presets.h"
#include "core/training_job.h"
#include "core/workspace.h"

class QCheckBox;
class QComboBox;
class QSpinBox;
class QPushButton;
class QProgressBar;
class QLineEdit;
class QLabel;

namespace attnviz::ui {

// Train a new model from the app: task or data file, variant, size, steps; start, pause,
// stop; a progress bar with ETA and live loss curves (one graph per run). The job runs on a
// worker thread (core TrainingJob, as `attnviz-cli train`); the finished model is offered
// to the workspace and can be saved.
class TrainingDock : public QWidget {
    Q_OBJECT
public:
    explicit TrainingDock(QWidget* parent = nullptr);
    ~TrainingDock() override;

    // The attention presets offered: the bundled models' configurations
    // (resources/models/configs, core/presets.h), read once; empty when they are missing.
    static const std::vector<Preset>& presets();
    // The configuration the controls describe: a preset's attention (by id), a size
    // ("tiny…", "small…", "medium…") and the task kind.
    static nlohmann::json configFor(const QString& presetId, const QString& size,
                                    bool languageModel);

    // The window's sentence, recorded over training when "Record attention over training"
    // is checked (an empty target: none; a seq2seq model then decodes at each snapshot).
    void setProbeSentence(const std::string& source, const std::string& target);

    // Starts a run (false with a message when the set-up fails, e.g. a bad data file). With
    // spec.probeEvery > 0 the probe's snapshots are delivered by probeSnapshot.
    bool start(const JobSpec& spec, const QString& name, QString* error);
    bool running() const { return m_running; }
    void setPaused(bool paused);
    void stop();
    QCustomPlot* lossPlot() const { return m_plot; }
    QProgressBar* progressBar() const { return m_progress; }
    // The model of the last finished run (null before).
    std::shared_ptr<Model> lastModel() const { return m_last; }
    // Training › Save model… for any model trained here: asks where (a file dialog, or the
    // chooser set below), writes the checkpoint atomically (Model::save) and emits
    // modelSaved. False when the user cancelled or the write failed (the reason by message).
    bool saveModel(const std::shared_ptr<Model>& model, const QString& name);
    // Several models at once (saving a workspace, quitting): one model as saveModel does;
    // two or more with one folder dialog, each written there as its name's first word +
    // ".safetensors", a name already taken (on disk or by an earlier one of them) getting
    // "-2", "-3", … so that no file is overwritten. False when cancelled or a write failed
    // (those before it stay saved and their columns name them).
    bool saveModels(const std::vector<std::pair<std::shared_ptr<Model>, QString>>& models);
    // Stands in for the file dialog (tests): the path to save to given a suggested file name;
    // "" = cancelled.
    using ChoosePath = std::function<QString(const QString& suggested)>;
    void setChoosePath(ChoosePath choose) { m_choosePath = std::move(choose); }
    // Stands in for the folder dialog of saveModels (tests): "" = cancelled.
    using ChooseFolder = std::function<QString(int models)>;
    void setChooseFolder(ChooseFolder choose) { m_chooseFolder = std::move(choose); }
    // The loss plot's axis titles (x, y) in `language`: on screen and in a figure.
    static std::pair<QString, QString> lossAxisTitles(const QString& language);

signals:
    void modelTrained(attnviz::ModelColumn column);
    // The last trained model was written to `path`.
    void modelSaved(std::shared_ptr<attnviz::Model> model, const QString& path);
    void message(const QString& text);
    void runFinished();
    // A snapshot of the probe sentence's attention during the run `runName` (core/probe.h),
    // on the UI thread; `first` for step 0, the model before training.
    void probeSnapshot(QString runName, std::string source, int every,
                       attnviz::ProbeSnapshot snapshot, bool first);

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    // Model::save to `path` (atomic), then modelSaved; false with the reason by message.
    bool writeModel(const std::shared_ptr<Model>& model, const QString& path);
    void retranslateUi();
    void retranslateRows();  // the data and probe rows
    void startFromControls();
    void train(const JobSpec& spec, const QString& name);  // the run, on the worker thread
    void onProgress(int step, int total, double loss, double eta, double tokensPerSecond);
    void onFinished(std::shared_ptr<Model> model, QString name, QString error);
    void saveLast();
    QString showHeldOut();  // the last run's held-out metrics, in the status and progress bar

    QComboBox *m_task, *m_variant, *m_size;
    QLineEdit* m_data;
    QComboBox* m_tokenizer;  // word or sentencepiece, for data files
    QHBoxLayout* makeDataRow();
    QHBoxLayout* makeProbeRow();
    QHBoxLayout* makeButtonRow();  // Train, Pause, Stop, Save model
    QCustomPlot* makeLossPlot();   // m_plot, the loss curves
    QSpinBox* m_steps;
    QCheckBox* m_probe;      // record attention over training
    QSpinBox* m_probeEvery;  // every N steps (steps / 20 until the user sets it)
    bool m_probeEverySet = false;
    std::string m_probeSource, m_probeTarget;
    QPushButton *m_start, *m_pause, *m_stop, *m_save;
    QProgressBar* m_progress;
    QLabel* m_status;
    QCustomPlot* m_plot;
    QCPGraph* m_graph = nullptr;
    std::atomic<bool> m_stopFlag{false}, m_pauseFlag{false};
    bool m_running = false;
    std::shared_ptr<Model> m_last;
    QString m_lastName;
    ChoosePath m_choosePath;
    ChooseFolder m_chooseFolder;
    QFuture<void> m_future;
};

}  // namespace attnviz::ui
