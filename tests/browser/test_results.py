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

"""Journey: an operation's results as data. BACKUP on both db servers, each printing progress
lines: a search finds exactly the lines that hold the text, each linked to its line of the
run's output, where it is marked; the two servers' outputs compared; the CSV and JSON the
page offers parse and hold the rows it shows."""

import csv
import io
import json

from selenium.webdriver.common.by import By

from devcloud import credentials
import heat_deploy_runner as runner
from tests.integration import waiting

LOG_LINES = 3
_FETCH = """
var done = arguments[arguments.length - 1];
fetch(arguments[0], {credentials: 'same-origin'}).then(function (reply) {
  return reply.text().then(function (text) { done([reply.status, text]); });
});
"""


def _operation(heat, find_transport, demo_resources):
    source = demo_resources['mysql']
    operation = runner.Operation.new(credentials.DEMO_USER, source)
    started = runner.start(heat, find_transport, runner.RunRequest(
        config_id=source, action='BACKUP', name='mysql',
        server_ids=[demo_resources['db_server_1'], demo_resources['db_server_2']],
        input_values={'tables': 'users', 'pause_seconds': 0, 'log_lines': LOG_LINES},
        transport='TEMP_URL_SIGNAL'), operation=operation)
    assert started.failures == []
    runs = [waiting.finished(heat, run.id, timeout=90) for run in started.created]
    assert [run.status for run in runs] == ['COMPLETE', 'COMPLETE'], runs
    return operation.id, runs


def test_search_follow_a_match_compare_and_download_an_operations_results(
        demo_user, heat, find_transport, demo_resources):
    user = demo_user
    operation_id, runs = _operation(heat, find_transport, demo_resources)
    user.open(f'/project/deployments/operations/{operation_id}/')
    user.require_scripts()
    user.find('a.hdd-results-link').click()
    user.wait_loaded()
    assert user.path() == f'/project/deployments/operations/{operation_id}/results/'

    # "copying block 1" is on line 4 of each server's stdout (two lines before the progress).
    search = user.find('input[name="q"]')
    search.send_keys('Copying BLOCK 1')
    search.submit()
    user.wait_loaded()
    rows = user.driver.find_elements(By.CSS_SELECTOR, 'table.hdd-matches tbody tr')
    found = sorted(tuple(cell.text for cell in row.find_elements(By.TAG_NAME, 'td'))[:3]
                   for row in rows)
    assert found == [('demo-db-1', 'deploy_stdout', '4'), ('demo-db-2', 'deploy_stdout', '4')]
    marks = [mark.text for mark in user.driver.find_elements(
        By.CSS_SELECTOR, 'table.hdd-matches mark')]
    assert marks == ['copying block 1', 'copying block 1']
    # Only the runs with a match are left in the table, and the downloads take the search.
    assert len(user.driver.find_elements(By.CSS_SELECTOR, 'table.hdd-results tbody tr')) == 2

    # A match opens the run's output at its line, marked.
    user.find('a.hdd-match-link').click()
    user.wait_loaded()
    mark = user.visible('mark.hdd-output-line')
    assert mark.text == 'progress 1: copying block 1 of the table data'

    # The two servers' outputs compared: their archive's name differs (its stamp and pid).
    user.driver.back()
    user.wait_loaded()
    user.open(f'/project/deployments/{runs[1].id}/diff/?other={runs[0].id}')
    # Side by side: one changed row, the first server's line on the left, the second's on
    # the right.
    changed = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, 'td.hdd-diff-text')]
               for row in user.driver.find_elements(
                   By.CSS_SELECTOR, 'table.hdd-diff tr.hdd-diff-changed, '
                   'table.hdd-diff tr.hdd-diff-removed, table.hdd-diff tr.hdd-diff-added')]
    assert len(changed) == 1 and len(changed[0]) == 2, changed
    assert all('Wrote backups/backup-' in each for each in changed[0]), changed
    assert changed[0][0] != changed[0][1]

    # The downloads hold what the page shows.
    user.open(f'/project/deployments/operations/{operation_id}/results/')
    shown = {row.get_attribute('data-object-id'): [cell.text for cell in row.find_elements(
        By.TAG_NAME, 'td')] for row in user.driver.find_elements(
        By.CSS_SELECTOR, 'table.hdd-results tbody tr')}
    columns = [cell.text for cell in user.driver.find_elements(
        By.CSS_SELECTOR, 'table.hdd-results thead th')]
    status, text = user.driver.execute_async_script(
        _FETCH, user.find('a.hdd-download-csv').get_attribute('href'))
    assert status == 200
    as_csv = list(csv.reader(io.StringIO(text)))
    assert as_csv[0] == columns
    assert {row[2]: row for row in as_csv[1:]}.keys() == shown.keys()
    for row in as_csv[1:]:
        assert [cell.strip() for cell in row] == [cell.strip() for cell in shown[row[2]]]
    status, text = user.driver.execute_async_script(
        _FETCH, user.find('a.hdd-download-json').get_attribute('href'))
    assert status == 200
    as_json = json.loads(text)
    assert [[('' if value is None else str(value)) for value in each.values()]
            for each in as_json] == as_csv[1:]
