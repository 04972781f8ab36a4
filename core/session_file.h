// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A saved workspace of the app (a "session"), read and checked here so that the app and the
// command line share one reader with the limits of core/input_limits.h. The file:
//   {"attnviz_session": 1, "source": TEXT, "target": TEXT, "sentences": [TEXT, …],
//    "sentence_index": I, "columns": [CHECKPOINT PATH, …], "model_set": ID,
//    "column_configs": [CONFIG OBJECT or null, …], "view": {…}}
// Each entry of "columns" names a checkpoint in one of three forms, so that a workspace opens
// on another machine, after the app is installed, and when moved with its own models:
//   "bundle:en-es/01-dot.safetensors"  a bundled model: the path below the models folder the
//                                      app uses (bundledModelDirectory(), core/workspace.h)
//   "mine/model.safetensors"           a file beside or under the workspace file: relative
//                                      to the workspace file's folder
//   "/home/me/model.safetensors"       any other file: absolute
// A relative entry keeps the absolute path it had when saved in "columns_absolute" (same
// index; "" for the other forms), the fallback when the workspace file was moved without
// its models. Older files hold absolute paths only; they still open (resolveColumnPath).
// Every key but "attnviz_session" may be absent (older files): its default is used. The
// view's keys belong to the app (ui/view_state.h); here it must only be an object.
// In image mode (issue 28) "image" holds the image the models read and what the panels show:
//   {"test_index": I}  a Fashion-MNIST test image, or
//   {"file": PATH, "file_absolute": PATH, "invert": "auto"|"yes"|"no",
//    "prepare": "cutout"|"plain"}  a person's image, stored as a column's checkpoint is
//                      (below), and how it is made the models' input (core/garment_cutout.h;
//                      absent in workspaces older than the cut-out: "plain", as they were made);
//   {"pasted_png": BASE64, "invert": …, "prepare": …}  a pasted image, which has no file: its
//                      pixels kept inside the workspace as an 8-bit PNG, RGB or gray (at most
//                      kMaxPastedPngBytes);
//   and "query" ("pooled", "cls" or "ROW,COL"), "layer" (-1: the last), "heads" ("all",
//   "mean" or "rollout"), "opacity" (0 … 1), "colormap", "shared_scale" (true/false).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// The "image" object: image mode's input and panels.
// The largest pasted image a workspace keeps, as PNG bytes (base64 adds a third).
constexpr size_t kMaxPastedPngBytes = 8u << 20;

struct SessionImage {
    int testIndex = -1;                // a Fashion-MNIST test image, 0 …; -1: none
    std::string file, fileAbsolute;    // a person's image file as stored ("" none), see above
    std::string pastedPng;             // a pasted image: its PNG bytes ("" none); the app
                                       // decodes them (render/image_file.h), here only the
                                       // PNG signature and the size are checked
    std::string invert = "auto";       // for the file: "auto", "yes" or "no"
    std::string prepare = "plain";     // for the file: "cutout" or "plain" (see above)
    std::string query = "pooled";      // "pooled", "cls" or "ROW,COL" (checked for its form
                                       // here, against the models' grids by the app)
    int layer = -1;                    // -1: the last
    std::string heads = "all";         // "all", "mean" or "rollout"
    double opacity = 0.6;              // 0 … 1
    std::string colormap = "viridis";  // a name of render/colormaps.h (checked by the app)
    bool sharedScale = false;          // every panel on one colour scale
    nlohmann::json toJson() const;
};

struct SessionFile {
    std::string source, target;
    std::vector<std::string> sentences;
    int sentenceIndex = -1;  // -1: none chosen
    std::vector<std::string> columns;
    // Per column: the absolute path of a relative entry when saved, else "" (may be shorter
    // than columns; written only when one is not empty).
    std::vector<std::string> columnsAbsolute;
    // Per column: its configuration edited in the app (an object), else null. At most one
    // per column; a missing one counts as null.
    std::vector<nlohmann::json> columnConfigs;
    std::string modelSet;  // the bundled set the columns came from, "" if none
    nlohmann::json view = nlohmann::json::object();
    std::optional<SessionImage> image;  // written only when set

    nlohmann::json toJson() const;
    bool operator==(const SessionFile& o) const { return toJson() == o.toJson(); }
};

// Parses a session's text; `what` names it in errors ("'w.attnviz.json'"). Error for text
// over kMaxSessionBytes, invalid JSON (invalid UTF-8 included), nesting deeper than
// kMaxJsonDepth, a repeated key, a value that is not an object, no "attnviz_session": 1, or
// a key of the wrong type ("<what>: 'columns' must be an array of strings, got …"), or an
// "image" object that breaks its rules ("<what>: 'image.heads' must be all, mean or rollout").
SessionFile parseSessionJson(std::string_view text, const std::string& what);
// Reads `path` through readTextFile (a regular file of at most kMaxSessionBytes) and parses
// it; every message names the file.
SessionFile readSessionFile(const std::string& path);
// The file's text (indented, as the app has always written it).
std::string sessionJson(const SessionFile& s);

// The prefix of a bundled model's entry in "columns".
inline constexpr std::string_view kBundlePrefix = "bundle:";
// How a workspace in the folder `workspaceDir` stores the checkpoint at `path` (absolute or
// relative to the current folder): "bundle:…" when it is under bundledModelDirectory(), else
// relative to `workspaceDir` when beside or under it, else absolute. An empty `workspaceDir`
// (the last workspace kept in the settings) never gives a relative path. "" stays "".
std::string storedColumnPath(const std::string& path, const std::string& workspaceDir);
// The checkpoint a stored entry names: "bundle:X" is bundledModelDirectory()/X, a relative
// path is relative to `workspaceDir`, or `absolute` (what it was when saved) when that
// names no file and `absolute` does. An absolute path that does not exist but names a
// bundled model's file in a bundled layout (".../resources/models/en-es/01-dot.safetensors"
// or ".../share/attnviz/models/…" of an older workspace, written on another machine or in a
// build tree since removed) gives that bundled model when it exists here; any other path is
// returned as it is and opening it reports the missing file (a folder of one's own that
// happens to be called "models" is never swapped for the bundle).
std::string resolveColumnPath(const std::string& stored, const std::string& workspaceDir,
                              const std::string& absolute = {});
// Every entry of s.columns, and the image's file, through storedColumnPath /
// resolveColumnPath.
void storeColumnPaths(SessionFile& s, const std::string& workspaceDir);
void resolveColumnPaths(SessionFile& s, const std::string& workspaceDir);

}  // namespace attnviz
