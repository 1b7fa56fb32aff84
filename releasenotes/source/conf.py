# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

# Sphinx configuration of heat-deploy-dashboard's release notes, as heat-dashboard's
# releasenotes/source/conf.py: reno's Sphinx extension renders the notes of
# releasenotes/notes/ (read from git, so a new note must at least be added to the index).
#
# Build (from the repository's top, warnings as errors):
#   .venv/bin/sphinx-build -a -E -W -d releasenotes/build/doctrees \
#       -b html releasenotes/source releasenotes/build/html
# Check the notes alone:
#   .venv/bin/reno lint

extensions = [
    'openstackdocstheme',
    'reno.sphinxext',
]

source_suffix = {'.rst': 'restructuredtext'}
root_doc = 'index'

project = 'heat-deploy-dashboard Release Notes'
copyright = 'heat-deploy-dashboard contributors'

# openstackdocstheme: the repository the "Report a bug" and source links name.
openstackdocs_repo_name = 'heat-deploy-dashboard'
openstackdocs_use_storyboard = False
openstackdocs_auto_name = False
openstackdocs_bug_project = 'heat-deploy-dashboard'
openstackdocs_bug_tag = 'releasenotes'

# Release notes are version independent: each page names its own versions.
release = ''
version = ''

html_theme = 'openstackdocs'
html_static_path = []
templates_path = []

pygments_style = 'native'

exclude_patterns = []
