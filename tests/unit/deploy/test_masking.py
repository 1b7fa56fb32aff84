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

from heat_deploy_runner import masking

TEMP_URL = ('http://127.0.0.1:8080/v1/AUTH_abc/mysql-BACKUP-1234/5678'
            '?temp_url_sig=4b4037a49ff8&temp_url_expires=2147483586')


def test_a_tempurl_keeps_its_container_and_expiry_but_not_its_signature():
    masked = masking.mask_url(TEMP_URL)
    assert '4b4037a49ff8' not in masked
    assert masked.startswith('http://127.0.0.1:8080/v1/AUTH_abc/mysql-BACKUP-1234/5678?')
    assert 'temp_url_sig=********' in masked
    assert 'temp_url_expires=2147483586' in masked


def test_a_url_without_a_query_is_unchanged():
    assert masking.mask_url('http://heat:8004/v1/abc') == 'http://heat:8004/v1/abc'


def test_passwords_are_masked_by_name_and_empty_ones_stay_empty():
    assert masking.mask_value('deploy_password', 's3cret') == masking.MASK
    assert masking.mask_value('password', '') == ''
    assert masking.mask_value('deploy_user_id', 'u-1') == 'u-1'


def test_metadata_is_masked_at_every_depth_and_not_changed_in_place():
    metadata = {
        'os-collect-config': {'request': {'metadata_url': TEMP_URL},
                              'heat': {'password': 'pw', 'user_id': 'u-1'}},
        'deployments': [{'name': 'mysql', 'inputs': [
            {'name': 'deploy_signal_id', 'type': 'String', 'value': TEMP_URL},
            {'name': 'deploy_password', 'type': 'String', 'value': 'pw2'},
            {'name': 'tables', 'type': 'CommaDelimitedList', 'value': ['users']}]}],
    }
    masked = masking.mask_tree(metadata)
    text = repr(masked)
    assert '4b4037a49ff8' not in text and "'pw'" not in text and 'pw2' not in text
    assert masked['os-collect-config']['heat']['user_id'] == 'u-1'
    assert masked['deployments'][0]['inputs'][2]['value'] == ['users']
    assert masked['deployments'][0]['inputs'][0]['type'] == 'String'
    assert metadata['os-collect-config']['heat']['password'] == 'pw'


def test_the_secrets_of_metadata_are_listed_by_the_names_leading_to_them():
    metadata = [{'name': 'mysql-BACKUP', 'id': 'c-1', 'inputs': [
        {'name': 'deploy_signal_id', 'type': 'String',
         'value': 'http://swift/v1/AUTH_p/c/o?temp_url_sig=abc&temp_url_expires=1'},
        {'name': 'db_password', 'type': 'String', 'value': 'hunter2'},
        {'name': 'tables', 'type': 'String', 'value': 'users'}],
        'options': {'auth': {'token': 't0k'}}}]

    assert masking.secrets_of(metadata) == [
        ('mysql-BACKUP: deploy_signal_id',
         'http://swift/v1/AUTH_p/c/o?temp_url_sig=abc&temp_url_expires=1'),
        ('mysql-BACKUP: db_password', 'hunter2'),
        ('mysql-BACKUP: options: auth: token', 't0k')]
    assert masking.secrets_of([{'name': 'plain', 'inputs': []}]) == []
