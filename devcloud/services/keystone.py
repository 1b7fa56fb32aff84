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

"""Keystone: SQL database, fernet tokens, served by gunicorn."""

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud import process
from devcloud.services import infra
from devcloud.services import wsgi

CONF = '''\
[DEFAULT]
use_stderr = true

[database]
connection = {db}

[identity]
# bcrypt's least work: every login, command and service token here checks a password, and
# at Keystone's default (12) each check took ~0.25 s of its one worker. The passwords of a
# local cloud are in its README.
password_hash_rounds = 4

[token]
provider = fernet
expiration = {token_expiration}

[fernet_tokens]
key_repository = {dir}/fernet-keys

[fernet_receipts]
key_repository = {dir}/fernet-keys

[credential]
key_repository = {dir}/credential-keys

[cache]
enabled = true
backend = oslo_cache.memcache_pool
memcache_servers = {memcached}
memcache_dead_retry = {dead_retry}
'''


# Keystone's own default, in seconds.
TOKEN_EXPIRATION = 3600


def write_conf(layout, token_expiration=TOKEN_EXPIRATION):
    """keystone.conf, its tokens lasting ``token_expiration`` seconds; its path. Keystone
    reads it when it starts (tests shorten the tokens' life this way)."""
    conf_dir = layout.path('keystone')
    conf_dir.mkdir(parents=True, exist_ok=True)
    conf = conf_dir / 'keystone.conf'
    conf.write_text(CONF.format(db=infra.database_url(layout, 'keystone'), dir=conf_dir,
                                memcached=infra.memcached_address(layout),
                                dead_retry=infra.MEMCACHED_DEAD_RETRY_SECONDS,
                                token_expiration=token_expiration))
    return conf


def start(layout, sup, progress):
    conf = write_conf(layout)
    conf_dir = conf.parent
    stamp = conf_dir / '.bootstrapped'
    if not stamp.exists():
        progress('Keystone: creating its database and the admin user')
        manage = [layout_mod.venv_bin('keystone-manage'), '--config-file', str(conf)]
        log = sup.log_path('keystone-setup')
        process.run(manage + ['db_sync'], log)
        for repo in ('fernet_setup', 'credential_setup'):
            process.run(manage + [repo, '--keystone-user', 'root', '--keystone-group', 'root'],
                        log)
        url = layout.url('keystone', '/v3')
        process.run(manage + [
            'bootstrap', '--bootstrap-password', credentials.ADMIN_PASSWORD,
            '--bootstrap-admin-url', url, '--bootstrap-public-url', url,
            '--bootstrap-internal-url', url, '--bootstrap-region-id', credentials.REGION], log)
        stamp.touch()
    # One worker: every service caches token checks in memcached, so Keystone mostly issues
    # tokens, and a second worker cost 143 MB of the cloud's 2 GB.
    wsgi.start(layout, sup, 'keystone', 'keystone.wsgi.api:application',
               layout.port('keystone'), workers=1,
               env={'OS_KEYSTONE_CONFIG_DIR': str(conf_dir)}, ready_path='/v3')
