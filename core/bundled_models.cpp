// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundled_models.h"

#include <cstdlib>
#include <filesystem>

namespace attnviz {

namespace fs = std::filesystem;

std::string bundledModelDirectory() {
    if (const char* env = std::getenv("ATTNVIZ_MODELS"); env && *env) return env;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path app = ec ? fs::current_path(ec) : exe.parent_path();
    for (const char* rel : {"../resources/models", "resources/models", "../share/attnviz/models"}) {
        const fs::path p = (app / rel).lexically_normal();
        if (fs::is_directory(p, ec)) return p.string();
    }
    return (app / "../resources/models").lexically_normal().string();
}

}  // namespace attnviz
