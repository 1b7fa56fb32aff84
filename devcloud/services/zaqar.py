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

"""Zaqar, the messaging service, on its own Redis (both message and management store, kept on
disk with its append-only file), served by gunicorn with Keystone auth and pre-signed URLs."""

import os
import secrets

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud import process
from devcloud.services import infra
from devcloud.services import wsgi

# Zaqar keeps results nobody has taken yet (a late result after a cancel, a result posted
# while no dashboard was polling) and its queues' metadata here: a restart must not lose them.
# Every write is appended to a log in the data directory, flushed to disk every second, and
# read back on start (Redis flushes it on SIGTERM too, so a clean stop loses nothing).
REDIS_CONF = '''\
bind 127.0.0.1
port {port}
dir {dir}
appendonly yes
appendfsync everysec
save ""
daemonize no
'''

CONF = '''\
[DEFAULT]
use_stderr = true
auth_strategy = keystone

[drivers]
transport = wsgi
message_store = redis
management_store = redis

# Zaqar posts each message to its queue's subscribers (a webhook, an email) as it arrives:
# how the dashboard's notices reach operators (heat_deploy_runner.following.notices).
[storage]
message_pipeline = zaqar.notification.notifier

[drivers:message_store:redis]
uri = {redis}

[drivers:management_store:redis]
uri = {redis}

[signed_url]
secret_key = {signing_key}

[keystone_authtoken]
www_authenticate_uri = {keystone}
auth_url = {keystone}
auth_type = password
username = zaqar
password = {password}
project_name = service
user_domain_name = Default
project_domain_name = Default
memcached_servers = {memcached}
memcache_pool_dead_retry = {dead_retry}
'''


def redis_url(layout):
    return f'redis://127.0.0.1:{layout.port("redis")}'


def start_redis(layout, sup, progress):
    base = layout.path('redis')
    base.mkdir(parents=True, exist_ok=True)
    conf = base / 'redis.conf'
    conf.write_text(REDIS_CONF.format(port=layout.port('redis'), dir=base))
    proc = sup.start('redis', ['redis-server', str(conf)])
    sup.wait_until('redis', proc, lambda: process.port_open(layout.port('redis')))


def start(layout, sup, progress):
    progress('Zaqar: starting Redis and the messaging API')
    start_redis(layout, sup, progress)
    conf_dir = layout.path('zaqar')
    conf_dir.mkdir(parents=True, exist_ok=True)
    key_file = conf_dir / 'signing_key'
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32))
    conf = conf_dir / 'zaqar.conf'
    conf.write_text(CONF.format(
        redis=redis_url(layout), signing_key=key_file.read_text(),
        keystone=layout.url('keystone'), password=credentials.SERVICE_PASSWORD,
        memcached=infra.memcached_address(layout),
        dead_retry=infra.MEMCACHED_DEAD_RETRY_SECONDS))
    # One worker: a message post or pop takes milliseconds, and each worker costs ~100 MB.
    wsgi.start(layout, sup, 'zaqar', 'devcloud.zaqar_wsgi:application', layout.port('zaqar'),
               workers=1, argv=['zaqar', '--config-file', str(conf)],
               env={'PYTHONPATH': os.pathsep.join(filter(None, [
                   str(layout_mod.REPO_ROOT), os.environ.get('PYTHONPATH')]))})
