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

"""Paging through a list Heat returns whole, with Horizon's markers."""

import types
import unittest

from heat_deploy_dashboard.content import paging

ROWS = [types.SimpleNamespace(id=f'run-{n}') for n in range(7)]


def ids(page):
    return [row.id for row in page.rows]


class PageOfTests(unittest.TestCase):

    def test_the_first_page_without_a_marker(self):
        page = paging.page_of(ROWS, 3)
        self.assertEqual(['run-0', 'run-1', 'run-2'], ids(page))
        self.assertEqual((False, True), (page.has_prev, page.has_more))

    def test_next_starts_after_the_marker(self):
        page = paging.page_of(ROWS, 3, marker='run-2')
        self.assertEqual(['run-3', 'run-4', 'run-5'], ids(page))
        self.assertEqual((True, True), (page.has_prev, page.has_more))

    def test_the_last_page_has_no_more(self):
        page = paging.page_of(ROWS, 3, marker='run-5')
        self.assertEqual(['run-6'], ids(page))
        self.assertEqual((True, False), (page.has_prev, page.has_more))

    def test_prev_ends_before_the_marker(self):
        page = paging.page_of(ROWS, 3, marker='run-6', direction='asc')
        self.assertEqual(['run-3', 'run-4', 'run-5'], ids(page))
        self.assertEqual((True, True), (page.has_prev, page.has_more))

    def test_prev_near_the_top_gives_the_first_rows(self):
        page = paging.page_of(ROWS, 3, marker='run-2', direction='asc')
        self.assertEqual(['run-0', 'run-1'], ids(page))
        self.assertEqual((False, True), (page.has_prev, page.has_more))

    def test_a_marker_that_is_gone_gives_the_first_page(self):
        for direction in ('desc', 'asc'):
            with self.subTest(direction):
                page = paging.page_of(ROWS, 3, marker='deleted', direction=direction)
                self.assertEqual(['run-0', 'run-1', 'run-2'], ids(page))
                self.assertFalse(page.has_prev)

    def test_prev_from_the_first_row_gives_the_first_page(self):
        page = paging.page_of(ROWS, 3, marker='run-0', direction='asc')
        self.assertEqual(['run-0', 'run-1', 'run-2'], ids(page))

    def test_a_list_that_fits_has_no_other_page(self):
        page = paging.page_of(ROWS, 7)
        self.assertEqual(7, len(page.rows))
        self.assertEqual((False, False), (page.has_prev, page.has_more))

    def test_an_empty_list_is_one_empty_page(self):
        page = paging.page_of([], 3)
        self.assertEqual(([], False, False), (page.rows, page.has_prev, page.has_more))
