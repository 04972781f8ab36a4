// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writing the files attnviz produces (checkpoints, dumps, figures, exports, workspaces):
// every output is checked before the work (checkOutputPath) and written atomically
// (writeFileAtomically). Reading goes through core/input_limits.h. docs/limits.md lists
// every rule and its message.
#include <string>
#include <vector>

namespace attnviz {

// Writes `bytes` to `path` atomically: a temporary file `path.tmp-PID-RAND` in the same
// directory, flushed, then renamed over `path`. A replaced file keeps its mode. Refuses (see
// checkOutputPath) a target that is not a regular file or is read-only. On any failure
// removes the temporary file and throws an Error naming the path and the reason; never
// leaves a partial file at `path`.
void writeFileAtomically(const std::string& path, const std::string& bytes);

// Checks that `path` may be written as an output, before any long work: Error when it is
// the same file as one of `inputs` (std::filesystem::equivalent), exists and is not a
// regular file (a symlink, directory, FIFO, device or socket: the message says which), is
// read-only, or its directory is missing or not writable. Also removes the stale temporary
// files of an earlier interrupted write to `path` (`path.tmp-PID-RAND` whose process no
// longer runs). `flag` names the option in messages ("--out").
void checkOutputPath(const std::string& path, const std::vector<std::string>& inputs,
                     const std::string& flag = "--out");

// Makes SIGTERM, SIGINT and SIGHUP remove the temporary file of every write in progress
// (writeFileAtomically) before the process ends as the signal would end it: an interrupted
// write leaves neither a partial file nor a temporary one. Only signals whose handling is
// still the default are taken (a program's own SIGINT handling, as `train`'s, stays). Called
// once by each program's main.
void removeTemporariesOnTermination();

}  // namespace attnviz
