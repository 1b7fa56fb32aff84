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

"""Secret inputs of runs Mistral starts, kept in the project's Swift instead of Mistral."""

from heat_deploy_runner.workflows import secret_store


def test_inputs_named_as_secrets_are_split_off():
    assert secret_store.split({'backup_dir': 'b', 'db_password': 'p', 'api_token': 't'}) == (
        {'backup_dir': 'b'}, {'db_password': 'p', 'api_token': 't'})
    assert secret_store.split(None) == ({}, {})


def test_kept_values_are_read_back_and_expire_when_asked(swift):
    secret_store.put(swift, 'run-1', {'db_password': 'p'}, delete_after_seconds=7200.5)
    secret_store.put(swift, 'hdd-1', {'db_password': 'q'})

    assert secret_store.get(swift, 'run-1') == {'db_password': 'p'}
    assert swift.object_headers[secret_store.CONTAINER, 'run-1'] == {'X-Delete-After': '7200'}
    assert swift.object_headers[secret_store.CONTAINER, 'hdd-1'] == {}


def test_forgetting_twice_is_fine(swift):
    secret_store.put(swift, 'hdd-1', {'db_password': 'q'})
    secret_store.forget(swift, 'hdd-1')
    secret_store.forget(swift, 'hdd-1')
    assert swift.containers[secret_store.CONTAINER] == {}


def test_an_empty_secret_is_not_kept():
    assert secret_store.split({'db_password': ''}) == ({'db_password': ''}, {})


def test_a_run_in_batches_keeps_its_secrets_for_every_batch_and_an_hour():
    assert secret_store.run_lifetime_seconds(5, 2, 10) == 3 * 600 + 3600
    assert secret_store.run_lifetime_seconds(5, 0, 10) == 600 + 3600
