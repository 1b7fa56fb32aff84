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

"""The services OpenStack stands on: PostgreSQL, RabbitMQ (with its epmd) and memcached."""

import glob
import os
import shutil
import subprocess

from devcloud import credentials
from devcloud import process

DATABASES = ('keystone', 'heat', 'mistral')


def _chown_tree(path, user):
    shutil.chown(path, user, user)
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            shutil.chown(os.path.join(root, name), user, user)


def _postgres_bin(program):
    found = sorted(glob.glob(f'/usr/lib/postgresql/*/bin/{program}'))
    if not found:
        raise process.ServiceFailed('PostgreSQL is not installed; run "make install" first')
    return found[-1]


def start_postgres(layout, sup, progress):
    data = layout.path('postgres', 'data')
    sockdir = layout.path('postgres', 'run')
    port = layout.port('postgres')
    first_start = not (data / 'PG_VERSION').exists()
    if first_start:
        progress('PostgreSQL: creating the database cluster')
        data.mkdir(parents=True, exist_ok=True)
        sockdir.mkdir(parents=True, exist_ok=True)
        _chown_tree(layout.path('postgres'), 'postgres')
        process.run([_postgres_bin('initdb'), '-D', str(data), '-A', 'trust', '-U', 'postgres',
                     '--no-sync'], sup.log_path('postgres-setup'), user='postgres')
    proc = sup.start('postgres', [
        _postgres_bin('postgres'), '-D', str(data), '-p', str(port),
        '-c', 'listen_addresses=127.0.0.1', '-c', f'unix_socket_directories={sockdir}',
        '-c', 'fsync=off', '-c', 'max_connections=300'], user='postgres')
    sup.wait_until('postgres', proc, lambda: _psql(layout, 'SELECT 1', check=False) == 0)
    if first_start:
        _psql(layout, f"CREATE ROLE {credentials.DB_USER} LOGIN PASSWORD "
                      f"'{credentials.DB_PASSWORD}'", log=sup.log_path('postgres-setup'))
    # A cloud made before a service was added gets that service's database on its next start.
    for name in DATABASES:
        if not _database_exists(layout, name):
            _psql(layout, f'CREATE DATABASE {name} OWNER {credentials.DB_USER}',
                  log=sup.log_path('postgres-setup'))


def _psql_argv(layout, sql):
    return ['psql', '-h', str(layout.path('postgres', 'run')), '-p', str(layout.port('postgres')),
            '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAtc', sql]


def _database_exists(layout, name):
    sql = f"SELECT 1 FROM pg_database WHERE datname = '{name}'"
    found = subprocess.run(_psql_argv(layout, sql), capture_output=True, text=True, check=True,
                           user='postgres', group='postgres', extra_groups=[]).stdout
    return found.strip() == '1'


def _psql(layout, sql, check=True, log=os.devnull):
    argv = _psql_argv(layout, sql)
    with open(log, 'ab') as out:
        code = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, user='postgres',
                              group='postgres', extra_groups=[]).returncode
    if check and code:
        raise process.ServiceFailed(f'PostgreSQL refused "{sql}"; see {log}')
    return code


def database_url(layout, name):
    return (f'postgresql+psycopg2://{credentials.DB_USER}:{credentials.DB_PASSWORD}'
            f'@127.0.0.1:{layout.port("postgres")}/{name}')


def rabbitmq_env(layout):
    base = layout.path('rabbitmq')
    return {
        'HOME': str(base),
        'RABBITMQ_NODENAME': 'rabbit@localhost',
        'RABBITMQ_NODE_IP_ADDRESS': '127.0.0.1',
        'RABBITMQ_NODE_PORT': str(layout.port('rabbitmq')),
        'RABBITMQ_DIST_PORT': str(layout.port('rabbitmq_dist')),
        'RABBITMQ_MNESIA_BASE': str(base / 'mnesia'),
        'RABBITMQ_LOG_BASE': str(base / 'log'),
        'RABBITMQ_CONFIG_FILE': str(base / 'rabbitmq'),
        'RABBITMQ_ENABLED_PLUGINS_FILE': str(base / 'enabled_plugins'),
        'RABBITMQ_SERVER_ERL_ARGS': '-kernel inet_dist_use_interface {127,0,0,1}',
        'ERL_EPMD_ADDRESS': '127.0.0.1',
        'ERL_EPMD_PORT': str(layout.port('epmd')),
    }


def start_rabbitmq(layout, sup, progress):
    base = layout.path('rabbitmq')
    (base / 'log').mkdir(parents=True, exist_ok=True)
    (base / 'mnesia').mkdir(parents=True, exist_ok=True)
    (base / 'rabbitmq.conf').write_text('loopback_users = none\n')
    (base / 'enabled_plugins').write_text('[].\n')
    _chown_tree(base, 'rabbitmq')
    env = rabbitmq_env(layout)
    # epmd runs in the foreground under the supervisor, so it is stopped with the cloud
    # instead of lingering as a daemon the next start would trip over.
    epmd = sup.start('epmd', ['epmd', '-port', str(layout.port('epmd')), '-address',
                              '127.0.0.1'], env=env, user='rabbitmq')
    sup.wait_until('epmd', epmd, lambda: process.port_open(layout.port('epmd')))
    progress('RabbitMQ: starting')
    proc = sup.start('rabbitmq', ['/usr/lib/rabbitmq/bin/rabbitmq-server'], env=env,
                     user='rabbitmq', cwd=str(base))
    sup.wait_until('rabbitmq', proc, lambda: process.port_open(layout.port('rabbitmq')),
                   timeout=90)


def rabbitmq_url(layout):
    return f'rabbit://guest:guest@127.0.0.1:{layout.port("rabbitmq")}/'


def start_memcached(layout, sup, progress):
    proc = sup.start('memcached', ['memcached', '-u', 'memcache', '-l', '127.0.0.1',
                                   '-p', str(layout.port('memcached')), '-U', '0', '-m', '128'])
    sup.wait_until('memcached', proc, lambda: process.port_open(layout.port('memcached')))


# How long a service leaves memcached out after a failed call before trying it again: oslo.cache's
# [cache] memcache_dead_retry and keystonemiddleware's memcache_pool_dead_retry, both 300 s by
# default. A soak killed memcached for 20 s: for the five minutes after, every service
# checked every token with Keystone (6 times the checks a minute) and Keystone checked
# each without its own cache (0.13 s instead of 0.008 s); its one worker fell behind and
# Horizon's pages took 2 to 11 s instead of 0.2 s. As Horizon's own dead_timeout.
MEMCACHED_DEAD_RETRY_SECONDS = 10


def memcached_address(layout):
    return f'127.0.0.1:{layout.port("memcached")}'
