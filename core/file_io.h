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

// A file named on a command line: the option that named it ("--out") and the path given.
struct NamedPath {
    std::string flag;
    std::string path;
};

// Whether `a` and `b` name the same file, after symbolic links and hard links: two existing
// files are the same when their device and inode are (stat follows links); a file that does
// not exist yet is where it would be created: a dangling symbolic link followed to its
// target, then the canonical path of its folder and its name. An existing and a missing file
// are never the same.
bool sameFile(const std::string& a, const std::string& b);

// The one rule for the files of a command: no output is the same file (sameFile) as an
// input or as another output. Empty paths are skipped. Error naming both options and paths:
// "--out 'x.png' is the same file as the input --image 'x.png': refusing to overwrite an
// input", "--out 'a' and --save-input 'a' are the same file: give each output its own".
// attnviz-cli applies it to every command before the command runs (cli/command.h).
void checkDistinctFiles(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs);

// Checks that `path` may be written as an output, before any long work: Error when it
// exists and is not a regular file (a symlink, directory, FIFO, device or socket: the
// message says which), is read-only, or its directory is missing or not writable. Also
// removes the stale temporary files of an earlier interrupted write to `path`
// (`path.tmp-PID-RAND` whose process no longer runs). `flag` names the option in messages
// ("--out"). Whether it is one of the inputs is checkDistinctFiles' question.
void checkOutputPath(const std::string& path, const std::string& flag = "--out");
// The same, and Error when `path` is the same file as one of `inputs` (checkDistinctFiles):
// for callers that do not declare their files to attnviz-cli's one check.
void checkOutputPath(const std::string& path, const std::vector<std::string>& inputs,
                     const std::string& flag);

// Makes SIGTERM, SIGINT and SIGHUP remove the temporary file of every write in progress
// (writeFileAtomically) before the process ends as the signal would end it: an interrupted
// write leaves neither a partial file nor a temporary one. Only signals whose handling is
// still the default are taken (a program's own SIGINT handling, as `train`'s, stays). Called
// once by each program's main.
void removeTemporariesOnTermination();

}  // namespace attnviz
