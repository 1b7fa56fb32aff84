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

"""Mistral, the workflow service that runs schedules and rolling runs: its API, its engine
(with the notifier and the periodic server that fires cron triggers) and an executor, each a
process of its own as operators run them, over the cloud's RabbitMQ and PostgreSQL."""

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud import process
from devcloud.services import infra

# [keystone_authtoken] serves twice: the API's token checks, and Mistral's own service user,
# which trusts are delegated to and which gets the trust-scoped token of each cron firing.
CONF = '''\
[DEFAULT]
use_stderr = true
transport_url = {rabbit}
# oslo.service otherwise waits up to 60 s for a stopping server's work.
graceful_shutdown_timeout = 5

[api]
host = 127.0.0.1
port = {port}
api_workers = 1

[database]
connection = {db}
max_pool_size = 5
max_overflow = 5

[pecan]
auth_enable = True

[keystone_authtoken]
www_authenticate_uri = {keystone}
auth_url = {keystone}
auth_type = password
username = mistral
password = {password}
project_name = service
user_domain_name = Default
project_domain_name = Default
memcached_servers = {memcached}
memcache_pool_dead_retry = {dead_retry}

[keystone]
timeout = 30

[cron_trigger]
enabled = True
# The periodic server fires the triggers (running them in the API is deprecated).
run_in_api = False

[engine]
host = 127.0.0.1

[executor]
type = remote
host = 127.0.0.1

[notifier]
type = remote
host = 127.0.0.1

# An executor lost mid-action (killed, its host restarted) leaves the action RUNNING until
# the engine's heartbeat checker fails it ("Heartbeat wasn't received."); the workflows then
# run it again. Mistral's defaults wait 15 x 20 s, and an hour for an action no executor
# has taken yet; these wait 9 s, and a minute (executors report every 3 s).
[action_heartbeat]
check_interval = 3
max_missed_heartbeats = 3
first_heartbeat_timeout = 60

[oslo_policy]
enforce_scope = False
enforce_new_defaults = False
policy_file = {policy}
'''

# This cloud's own Mistral policy, as an operator narrows Mistral's defaults: a project's
# readers may look at its schedules but not make, change or delete them. Horizon is given the
# same file (devcloud.services.horizon), as an operator copies a service's policy to Horizon.
POLICY = '''\
"cron_triggers:create": "is_admin:True or (project_id:%(project_id)s and role:member)"
"cron_triggers:delete": "is_admin:True or (project_id:%(project_id)s and role:member)"
"environments:create": "is_admin:True or (project_id:%(project_id)s and role:member)"
"environments:update": "is_admin:True or (project_id:%(project_id)s and role:member)"
"environments:delete": "is_admin:True or (project_id:%(project_id)s and role:member)"
'''

# (service name, mistral-server --server value)
SERVERS = (
    ('mistral-api', 'api'),
    ('mistral-engine', 'engine,notifier,periodic'),
    ('mistral-executor', 'executor'),
)

# Another executor's own settings over mistral.conf: the name it serves RPC under, as each
# host an operator adds has its own.
EXECUTOR_CONF = '''\
[executor]
host = {name}
'''


def conf_path(layout):
    return layout.path('mistral', 'mistral.conf')


def policy_path(layout):
    return layout.path('mistral', 'policy.yaml')


def _argv(layout):
    return [layout_mod.venv_bin('mistral-server'), '--config-file', str(conf_path(layout))]


def start_executor(layout, sup, name):
    """One more executor beside the cloud's (started by mistral.start), as operators add one
    when a host is not enough: a service of its own, ``name``, reading the same mistral.conf
    and loading the same actions, serving under its own host name. The engine sends each
    action to whichever executor takes it first. Started only on demand (the soak's)."""
    own = layout.path('mistral', f'{name}.conf')
    own.write_text(EXECUTOR_CONF.format(name=name))
    proc = sup.start(name, _argv(layout) + ['--config-file', str(own), '--server', 'executor'])
    sup.check_alive(name, proc)
    return proc


def start(layout, sup, progress):
    progress('Mistral: starting its API, engine and executor')
    conf = conf_path(layout)
    conf.parent.mkdir(parents=True, exist_ok=True)
    policy_path(layout).write_text(POLICY)
    conf.write_text(CONF.format(
        rabbit=infra.rabbitmq_url(layout), port=layout.port('mistral'),
        db=infra.database_url(layout, 'mistral'), keystone=layout.url('keystone'),
        password=credentials.SERVICE_PASSWORD, memcached=infra.memcached_address(layout),
        dead_retry=infra.MEMCACHED_DEAD_RETRY_SECONDS,
        policy=policy_path(layout)))
    stamp = conf.parent / '.db-synced'
    if not stamp.exists():
        process.run([layout_mod.venv_bin('mistral-db-manage'), '--config-file', str(conf),
                     'upgrade', 'head'], sup.log_path('mistral-setup'))
        stamp.touch()
    argv = _argv(layout) + ['--server']
    started = [(name, sup.start(name, argv + [servers])) for name, servers in SERVERS]
    for name, proc in started:
        if name == 'mistral-api':
            sup.wait_until(name, proc, lambda: process.http_answers(layout.url('mistral', '/')))
        else:
            sup.check_alive(name, proc)
