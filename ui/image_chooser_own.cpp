// SPDX-License-Identifier: GPL-3.0-or-later
// ImageChooser's second half: a person's own image (a file, a drop, a paste, a workspace's),
// decoded and prepared in the background with a way to cancel, and shown with its previews.
#include <QComboBox>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QUrl>
#include <QtConcurrent>
#include <algorithm>
#include <utility>

#include "background.h"
#include "core/error.h"
#include "core/session_file.h"
#include "image_chooser.h"
#include "image_chooser_parts.h"
#include "image_model.h"
#include "render/image_file.h"

namespace attnviz::ui {
namespace {

// Pasted bytes decoded as a file's (render::readColorImageBytes), by MIME type; a QImage put on
// the clipboard by this process has no bytes and comes as application/x-qt-image.
const char* const kImageMimeTypes[] = {"image/png",
                                       "image/jpeg",
                                       "image/bmp",
                                       "image/gif",
                                       "image/webp",
                                       "image/tiff",
                                       "image/x-portable-graymap"};

}  // namespace

// Both preparations of a person's image, made once in the background: switching between them
// or the invert switch only chooses among these.
struct ImageChooser::Opened {
    const ImageTask* task = nullptr;  // whose input it is made for
    int width = 0, height = 0;        // the image as decoded
    std::vector<uint8_t> colourSeen;  // a colour task's input: [S, S, 3], the photo fitted
    std::vector<uint8_t> colourCut;   // a cut-out task's (ImageTask::cutOut): cut[0], steps[0]
    // A gray task's: (empty for a colour task)
    ModelImage seen[2];        // the whole image: as it is, inverted
    bool autoInverts = false;  // what InvertMode::Auto chooses for the whole image
    GarmentCutout cut[2];      // the garment cut out: not inverted, inverted (auto)
    QImage steps[2];           // cutoutStepsImage of each, at the preview's height
    QImage preview;            // the original at the preview's size (gray for a gray task)
    ColorImage pasted;         // a pasted image's pixels, for a workspace; empty for a file
    QString error;             // why it could not be read; "" when it was
    bool cancelled = false;
};

bool ImageChooser::refuse(const QString& heading, const QString& why, QString* error) {
    if (error) *error = why;
    m_note->setText(why);
    emit problem(heading, why);
    return false;
}

void ImageChooser::startOpening(Decode decode, const QString& path, const std::string& ownName) {
    const bool keepPixels = path.isEmpty();  // a pasted image: kept for a saved workspace
    cancelOpening();
    m_openingRequest = {decode, path, ownName};
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancelOpen = cancel;
    const int generation = ++m_openGeneration;
    m_opening = true;
    m_openError.clear();
    m_cancel->show();
    m_note->setText(path.isEmpty() ? tr("Opening the pasted image…")
                                   : tr("Opening %1…").arg(QFileInfo(path).fileName()));
    // A watcher owned by this chooser (as the test images' loader): gone with it, so a decode
    // still running when the window closes delivers to nobody.
    auto* watcher = new QFutureWatcher<std::shared_ptr<Opened>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [=] {
        watcher->deleteLater();
        if (generation == m_openGeneration) finishOpening(watcher->result(), path, ownName);
    });
    watcher->setFuture(QtConcurrent::run(
        backgroundPool(), [decode = std::move(decode), cancel, keepPixels, task = m_task] {
            auto out = std::make_shared<Opened>();
            out->task = task;
            const int kSize = task->imageSize;
            try {
                ColorImage color = decode(cancel.get());
                out->width = color.width;
                out->height = color.height;
                if (task->channels == 3) {  // read as it is (model-spec 3.12)
                    out->colourSeen = prepareColorModelImage(color, kSize);
                    if (task->cutOut) {  // as the task's photos were made: cut out on gray
                        if (cancel->load()) throw Cancelled();
                        out->colourCut = cutOutColorGarment(color, kSize, &out->cut[0]);
                        out->steps[0] = render::qImage(cutoutStepsImage(out->cut[0]))
                                            .scaled(3 * chooser::kPreview, chooser::kPreview - 4,
                                                    Qt::KeepAspectRatio, Qt::SmoothTransformation);
                        out->cut[0].work = {};
                    }
                    out->preview =
                        render::qImage(color).scaled(chooser::kPreview - 4, chooser::kPreview - 4,
                                                     Qt::KeepAspectRatio, Qt::SmoothTransformation);
                    if (keepPixels) out->pasted = std::move(color);
                    return out;
                }
                const GrayImage gray = grayImage(color);
                const ModelImage automatic = prepareModelImage(gray, kSize, InvertMode::Auto);
                out->autoInverts = automatic.inverted;
                out->seen[automatic.inverted ? 1 : 0] = automatic;
                out->seen[automatic.inverted ? 0 : 1] = prepareModelImage(
                    gray, kSize, automatic.inverted ? InvertMode::No : InvertMode::Yes);
                out->preview = chooser::pixelsQImage(gray.pixels.data(), gray.width, gray.height, 1)
                                   .scaled(chooser::kPreview - 4, chooser::kPreview - 4,
                                           Qt::KeepAspectRatio, Qt::SmoothTransformation);
                for (int k = 0; k < 2; ++k) {  // GrabCut on a copy of at most 320 pixels: < 1 s
                    if (cancel->load()) throw Cancelled();
                    out->cut[k] = cutOutGarment(color, kSize, k ? InvertMode::Yes : InvertMode::No);
                    // At the preview's height, at most three previews wide (a long shoe's crop).
                    out->steps[k] = render::qImage(cutoutStepsImage(out->cut[k]))
                                        .scaled(3 * chooser::kPreview, chooser::kPreview - 4,
                                                Qt::KeepAspectRatio, Qt::SmoothTransformation);
                    out->cut[k].work = {};  // shown by the steps; not kept twice
                }
                if (keepPixels) out->pasted = std::move(color);
            } catch (const Cancelled&) {
                out->cancelled = true;
            } catch (const std::exception& e) {
                out->error = QString::fromStdString(e.what());
            }
            return out;
        }));
}

void ImageChooser::finishOpening(std::shared_ptr<Opened> opened, const QString& path,
                                 const std::string& ownName) {
    m_opening = false;
    m_cancel->hide();
    m_cancelOpen.reset();
    if (opened->cancelled || !opened->error.isEmpty()) {
        m_openError = opened->cancelled ? tr("Opening the image was cancelled.") : opened->error;
        refuse(tr("The image could not be opened"), m_openError, nullptr);
        emit openingFinished(false);
        return;
    }
    m_own = std::move(opened);
    m_shownRequest = m_openingRequest;
    m_ownPath = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    m_ownName = ownName;
    showOwnImage();
    emit openingFinished(true);
}

void ImageChooser::cancelOpening() {
    if (!m_opening) return;
    m_cancelOpen->store(true);
    ++m_openGeneration;  // whatever it still delivers is dropped
    m_opening = false;
    m_cancelOpen.reset();
    m_cancel->hide();
    m_openError = tr("Opening the image was cancelled.");
    m_note->setText(m_openError);
    emit openingFinished(false);
}

bool ImageChooser::waitForImage(QString* error) {
    QEventLoop loop;
    connect(this, &ImageChooser::openingFinished, &loop, &QEventLoop::quit);
    while (m_opening) loop.exec();  // a newer request may have replaced the one waited for
    if (error) *error = m_openError;
    return m_openError.isEmpty();
}

void ImageChooser::requestImageFile(const QString& path) {
    startOpening(
        [p = path.toStdString()](const std::atomic<bool>* cancel) {
            return render::readColorImageFile(p, cancel);
        },
        path, "file '" + path.toStdString() + "'");
}

bool ImageChooser::openImageFile(const QString& path, QString* error) {
    requestImageFile(path);
    return waitForImage(error);
}

bool ImageChooser::requestMime(const QMimeData* mime, QString* error) {
    if (mime) {
        for (const char* type : kImageMimeTypes) {
            if (!mime->hasFormat(type)) continue;
            startOpening(
                [bytes = mime->data(type).toStdString()](const std::atomic<bool>* cancel) {
                    return render::readColorImageBytes(bytes, "the pasted image", cancel);
                },
                {}, "the pasted image");
            return true;
        }
        if (mime->hasImage()) {
            startOpening(
                [image = qvariant_cast<QImage>(mime->imageData())](const std::atomic<bool>*) {
                    return render::colorImage(image, "the pasted image");
                },
                {}, "the pasted image");
            return true;
        }
        if (mime->hasUrls())
            for (const QUrl& url : mime->urls())
                if (url.isLocalFile()) {
                    requestImageFile(url.toLocalFile());
                    return true;
                }
    }
    return refuse(tr("The image could not be opened"), tr("The clipboard holds no image."), error);
}

bool ImageChooser::openMime(const QMimeData* mime, QString* error) {
    return requestMime(mime, error) && waitForImage(error);
}

std::string ImageChooser::pastedPng() const {
    if (!m_own || !m_ownPath.isEmpty() || m_testIndex >= 0 || m_own->pasted.rgb.empty()) return {};
    // A workspace holds at most kMaxPastedPngBytes of PNG: a larger photo is kept at half its
    // size, and half again, until it fits (a workspace that could not be opened again would
    // lose everything else in it).
    std::string png = render::colorPng(m_own->pasted);
    QImage image = render::qImage(m_own->pasted);
    while (png.size() > kMaxPastedPngBytes && image.width() > 1 && image.height() > 1) {
        image = image.scaled(image.width() / 2, image.height() / 2, Qt::IgnoreAspectRatio,
                             Qt::SmoothTransformation);
        png = render::colorPng(render::colorImage(image, "the pasted image"));
    }
    return png;
}

void ImageChooser::requestPastedPng(const std::string& png) {
    startOpening(
        [png](const std::atomic<bool>* cancel) {
            return render::readColorImageBytes(png, "the pasted image kept in the workspace",
                                               cancel);
        },
        {}, "the pasted image");
}

bool ImageChooser::openPastedPng(const std::string& png, QString* error) {
    requestPastedPng(png);
    return waitForImage(error);
}

void ImageChooser::setInvert(InvertMode mode) {
    m_invert = mode;
    m_invertBox->setCurrentIndex(mode == InvertMode::Yes ? 1 : mode == InvertMode::No ? 2 : 0);
    if (m_own) showOwnImage();
}

void ImageChooser::setPrepare(PrepareMode mode) {
    m_prepare = mode;
    m_prepareBox->setCurrentIndex(mode == PrepareMode::Plain ? 1 : 0);
    if (m_own) showOwnImage();
}

void ImageChooser::showOwnImage() {
    if (m_own->task != m_task) return;  // made for another task: being made again
    const QString name = m_ownPath.isEmpty()
                             ? tr("Your pasted image")
                             : tr("Your image: %1").arg(QFileInfo(m_ownPath).fileName());
    if (colour()) {
        const bool cutout = colourCutout();
        const GarmentCutout& cut = m_own->cut[0];
        const std::string how = !cutout ? ", fitted on its mean colour"
                                : cut.found
                                    ? ", garment cut out on gray"
                                    : ", fitted on its mean colour; not cut out: " + cut.note;
        const QSignalBlocker b(m_strip);
        m_strip->setCurrentRow(-1);
        m_testIndex = -1;
        m_model->setImage(cutout ? m_own->colourCut : m_own->colourSeen, std::nullopt,
                          m_ownName + " (" + std::to_string(m_own->width) + "×" +
                              std::to_string(m_own->height) + " pixels, colour" + how + ")");
        showPreviews(cutout ? m_own->steps[0] : m_own->preview);
        setPreviewTips();
        m_note->setText(
            cutout && !cut.found
                ? tr("%1 (no garment cut out: %2)").arg(name, QString::fromStdString(cut.note))
                : name);
        return;
    }
    const bool cutout = m_prepare == PrepareMode::Cutout, invert = ownInverted();
    const GarmentCutout& cut = m_own->cut[invert ? 1 : 0];
    const ModelImage& in = cutout ? cut.model : m_own->seen[invert ? 1 : 0];
    const std::string how = cutout ? cutoutSummary(cut)
                                   : std::string(in.inverted ? ", inverted" : "") +
                                         (in.fitted ? ", trimmed and fitted" : "");
    const QSignalBlocker b(m_strip);
    m_strip->setCurrentRow(-1);
    m_testIndex = -1;
    m_model->setImage(in.pixels, std::nullopt,
                      m_ownName + " (" + std::to_string(m_own->width) + "×" +
                          std::to_string(m_own->height) + " pixels" + how + ")");
    showPreviews(cutout ? m_own->steps[invert ? 1 : 0] : m_own->preview);
    setPreviewTips();
    m_note->setText(
        cutout && !cut.found && cut.model.fitted
            ? tr("%1 (no garment cut out: %2)").arg(name, QString::fromStdString(cut.note))
            : name);
}

bool ImageChooser::colourCutout() const {
    return colour() && m_task->cutOut && m_prepare == PrepareMode::Cutout;
}

bool ImageChooser::ownInverted() const {
    if (colour()) return false;
    if (m_prepare == PrepareMode::Cutout) return m_invert != InvertMode::No;
    return m_invert == InvertMode::Yes || (m_invert == InvertMode::Auto && m_own->autoInverts);
}

QString ImageChooser::seenTip() const {
    //: %1 the side in pixels (28, 64); %2 "grayscale" or "colour"
    return tr("The %1 × %1 %2 image the models see")
        .arg(m_task->imageSize)
        .arg(colour() ? tr("colour") : tr("grayscale"));
}

void ImageChooser::setPreviewTips() {
    if (colourCutout()) {
        const GarmentCutout& cut = m_own->cut[0];
        m_original->setToolTip(
            cut.found ? tr("Your image with the garment found outlined, and the garment cropped "
                           "on gray; the models read it as the %1 × %1 image on the right")
                            .arg(m_task->imageSize)
                      : tr("No garment was cut out (%1): the whole image is used")
                            .arg(QString::fromStdString(cut.note)));
        m_seen->setToolTip(seenTip() +
                           tr(": your photo with the garment cut out on gray, as the photos "
                              "these models learned from were made"));
        return;
    }
    if (colour()) {
        m_original->setToolTip(tr("Your image"));
        m_seen->setToolTip(
            seenTip() +
            tr(": your photo as it is, its longer side scaled to %1 pixels and the rest filled "
               "with its mean colour, as the clothing photos were made")
                .arg(m_task->imageSize));
        return;
    }
    const bool cutout = m_prepare == PrepareMode::Cutout, invert = ownInverted();
    const GarmentCutout& cut = m_own->cut[invert ? 1 : 0];
    m_original->setToolTip(
        !cutout     ? tr("Your image")
        : cut.found ? tr("Your image with the garment found outlined, and the garment cropped; the "
                         "models read it as the 28 × 28 image on the right")
                    : tr("No garment was cut out (%1): the whole image is used")
                          .arg(QString::fromStdString(cut.note)));
    m_seen->setToolTip(seenTip() + (invert ? tr(" (inverted)") : QString()));
}

void ImageChooser::showPreviews(const QImage& own) {
    m_original->setVisible(!own.isNull());
    if (!own.isNull()) {  // at its height already; the steps are wider than the photo alone
        m_original->setFixedWidth(std::max(chooser::kPreview, own.width() + 4));
        m_original->setPixmap(QPixmap::fromImage(own));
    }
    const auto& px = m_model->image();
    const int side = m_task->imageSize, channels = m_task->channels;
    if (px.size() == size_t(side) * size_t(side) * size_t(channels))
        m_seen->setPixmap(
            QPixmap::fromImage(chooser::pixelsQImage(px.data(), side, side, channels)
                                   .scaled(chooser::kPreview - 4, chooser::kPreview - 4)));
    else
        m_seen->clear();
}

void ImageChooser::openImageDialog() {
    QStringList patterns;
    for (const auto& f : render::imageFileFormats())
        patterns << "*." + QString::fromStdString(f == "jpeg" ? "jpg" : f);
    patterns << "*.jpeg"
             << "*.tif";
    const QString path = QFileDialog::getOpenFileName(this, tr("Open image"), QString(),
                                                      tr("Images (%1)").arg(patterns.join(' ')));
    if (!path.isEmpty()) requestImageFile(path);
}

}  // namespace attnviz::ui
