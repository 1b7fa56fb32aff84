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

"""One page of a list Heat returns whole.

Heat lists a project's deployments in one answer, with no limit or marker, so the table pages
through that answer itself: building and rendering a row costs far more than Heat's row does,
and a person reads a page at a time. The markers are Horizon's: "marker" is the last row of the
page before, "prev_marker" the first row of the page after.
"""

import dataclasses


@dataclasses.dataclass
class Page:
    rows: list
    has_prev: bool
    has_more: bool


def page_of(rows, size, marker=None, direction='desc'):
    """The page of `rows` (already sorted and filtered) that Horizon's markers ask for.

    A marker that is no longer in the list (its run was deleted) gives the first page.
    """
    index = next((i for i, row in enumerate(rows) if row.id == marker), None)
    if index is None or (direction == 'asc' and index == 0):
        start, end = 0, size
    elif direction == 'asc':
        start, end = max(0, index - size), index
    else:
        start, end = index + 1, index + 1 + size
    return Page(rows[start:end], has_prev=start > 0, has_more=end < len(rows))
