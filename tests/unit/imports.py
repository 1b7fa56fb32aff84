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

"""The modules Python files import, read from their syntax trees in a process of its own.

CPython 3.11 keeps an AST conversion's recursion depth in state the interpreter's threads share
(python/cpython#106905): a tree built while another thread of the test run builds one (a
traceback it formats does) can fail with "AST constructor recursion depth mismatch".
"""

import json
import pathlib
import subprocess
import sys

_READ = '''
import ast, json, sys
found = {}
for path in sys.argv[1:]:
    names = found[path] = []
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.extend(node.module + "." + alias.name for alias in node.names)
print(json.dumps(found))
'''


def imported(paths):
    """{path: the modules it imports, absolutely ("module" or "module.name")}."""
    done = subprocess.run([sys.executable, '-c', _READ, *map(str, paths)],
                          capture_output=True, text=True, check=True)
    return {pathlib.Path(path): set(names) for path, names in json.loads(done.stdout).items()}
