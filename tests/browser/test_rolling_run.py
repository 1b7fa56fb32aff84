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

"""A rolling run from Run Action: batches of one server, the operation's page following the
batches as the workflow service runs them, and saying why it stopped."""

from tests.browser import pages


def test_run_in_batches_is_followed_until_it_stops_after_a_failure(
        demo_user, demo_resources):
    user = demo_user
    user.open('/project/deployments/')
    user.require_scripts()
    form = pages.open_run_action(user, 'mysql')
    form.choose_action('BACKUP')
    servers = [demo_resources['db_server_1'], demo_resources['db_server_2']]
    form.tick_servers(servers)
    # No such table: the first server fails, so the second is never started.
    form.type('tables', 'no_such_table')
    form.type('pause_seconds', '0')
    batch = form.field('batch_size')
    batch.clear()
    batch.send_keys('1')

    form.submit()

    user.wait_loaded()
    assert any('1 at a time' in toast for toast in user.toasts())
    # The page reloads itself while the batches go on, until the rolling run has stopped.
    user.wait(timeout=120).until(
        lambda d: d.find_elements('css selector', '.hdd-rolling-not-started'))
    user.wait_loaded()
    assert 'Stopped: servers failed: 1, more than the 0 allowed; not started: 1.' in (
        user.find('.hdd-rolling-reason').text)
    assert pages.counts(user) == {'Failed': 1}
    assert not user.find_all('.hdd-rolling[data-refresh-seconds]')
