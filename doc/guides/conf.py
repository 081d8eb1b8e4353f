# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Sphinx configuration of the rtemem guides (doc/guides/meson.build)."""

from pathlib import Path

project = 'rtemem'
copyright = '2026, The rtemem authors'
author = 'The rtemem authors'

# meson passes -D version=... -D release=...; this is for a plain
# "sphinx-build doc/guides OUT" run.
_version_file = Path(__file__).resolve().parents[2] / 'VERSION'
version = _version_file.read_text().strip() if _version_file.exists() else ''
release = version

extensions = []
exclude_patterns = []
source_suffix = '.rst'
root_doc = 'index'
language = 'en'

# Literal blocks are plain text unless a code-block says otherwise.
highlight_language = 'none'

html_theme = 'alabaster'
html_title = 'rtemem ' + release + ' documentation'
html_show_sourcelink = False
html_static_path = []
