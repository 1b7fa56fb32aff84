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

"""The directive ``bench-results``: bench/RESULTS.md (written by ``make bench``) as a table,
read when the documentation is built, so that the figures the pages show are the file's.

RESULTS.md is Markdown: its pipe table becomes a list-table, its other lines paragraphs,
single backquotes literals; its first heading is left out (the page has its own title).
"""

import os
import re

from docutils.parsers.rst import Directive
from docutils.statemachine import StringList


def _inline(text):
    return re.sub(r'(?<!`)`([^`]+)`(?!`)', r'``\1``', text)


def _cells(row):
    return [cell.strip() for cell in row.strip().strip('|').split('|')]


def rst_lines(markdown):
    lines, table = [], []

    def flush():
        if not table:
            return
        lines.extend(['', '.. list-table::', '   :header-rows: 1', ''])
        for row in [table[0]] + table[2:]:
            for number, cell in enumerate(_cells(row)):
                lines.append(('   * - ' if number == 0 else '     - ') + (_inline(cell) or '\\'))
        lines.append('')
        table.clear()

    for line in markdown.splitlines():
        if line.startswith('|'):
            table.append(line)
            continue
        flush()
        if line.startswith('#'):
            continue
        lines.append(_inline(line))
    flush()
    return lines


class BenchResults(Directive):
    required_arguments = 1

    def run(self):
        env = self.state.document.settings.env
        source = os.path.normpath(os.path.join(os.path.dirname(env.doc2path(env.docname)),
                                               self.arguments[0]))
        env.note_dependency(source)
        with open(source, encoding='utf-8') as markdown:
            lines = rst_lines(markdown.read())
        self.state_machine.insert_input(StringList(lines, source), source)
        return []


def setup(app):
    app.add_directive('bench-results', BenchResults)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
