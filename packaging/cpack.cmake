# The Debian package, made by CPack from the install rules (scripts/package runs
# `cpack -G DEB`). Why CPack rather than a debian/ directory: docs/packaging.md.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attnviz)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The attnviz developers")
# Who answers for the package: set ATTNVIZ_MAINTAINER to a real address when publishing it.
set(CPACK_PACKAGE_CONTACT "${ATTNVIZ_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "compare Transformer attention variants side by side")
# The long description: CPack puts the summary above it and indents each line by a space.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "attnviz runs small Transformers that differ only in their attention
(dot-product, the Synthesizer's dense and random variants and their
mixtures, hard-coded Gaussian attention) and shows each model's attention
maps side by side for any sentence.

This package holds the desktop app (attnviz), the command-line tool
(attnviz-cli), trained English-Spanish and toy models, and the PyTorch twin
of the models (python3 -m attnviz_torch, which needs python3-torch).")
# Debian revision 1 of upstream 0.1.0: a package made from the upstream source, not a
# Debian-native one (its changelog is then changelog.Debian.gz, as lintian expects).
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # attnviz_0.1.0-1_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# Depends: computed by dpkg-shlibdeps from the libraries the binaries link. Qt's platform
# plugins (xcb, wayland, offscreen) are loaded at run time, so no linker and no
# dpkg-shlibdeps sees them: without qt6-qpa-plugins the app cannot open a window.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# Chinese glyphs and Qt's own dialogs in Chinese; the PyTorch twin's libraries.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3, python3-torch, python3-numpy, python3-sentencepiece")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
# Folders the package must not claim (they belong to the base system).
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
