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

"""Heat: the heat-engine program and the Heat API WSGI app, over RabbitMQ and PostgreSQL."""

import os
import sys

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud import process
from devcloud.services import infra
from devcloud.services import wsgi

# Heat's own default of max_software_deployments_per_tenant and max_software_configs_per_tenant:
# the demo and the tests meet the cap an operator's cloud has. Every run has a derived config of
# its own, so one number serves both.
DEFAULT_QUOTA = 4096

CONF = '''\
[DEFAULT]
use_stderr = true
transport_url = {rabbit}
region_name_for_services = {region}
stack_user_domain_name = {heat_domain}
stack_domain_admin = {domain_admin}
stack_domain_admin_password = {password}
default_software_config_transport = POLL_TEMP_URL
default_deployment_signal_transport = TEMP_URL_SIGNAL
max_software_deployments_per_tenant = {max_deployments}
max_software_configs_per_tenant = {max_configs}
num_engine_workers = 1
# heat-engine otherwise ignores SIGTERM for up to 60 s.
graceful_shutdown_timeout = 5
heat_metadata_server_url = {heat_api}
heat_waitcondition_server_url = {heat_api}/v1/waitcondition

[paste_deploy]
api_paste_config = {paste}

[database]
connection = {db}

[oslo_messaging_notifications]
driver = noop

[keystone_authtoken]
www_authenticate_uri = {keystone}
auth_url = {keystone}
auth_type = password
username = heat
password = {password}
project_name = service
user_domain_name = Default
project_domain_name = Default
memcached_servers = {memcached}
memcache_pool_dead_retry = {dead_retry}

[trustee]
auth_type = password
auth_url = {keystone}
username = heat
password = {password}
user_domain_name = Default

[clients_keystone]
auth_uri = {keystone}

[ec2authtoken]
auth_uri = {keystone}/v3

[cache]
enabled = true
backend = oslo_cache.memcache_pool
memcache_servers = {memcached}
memcache_dead_retry = {dead_retry}
'''


def write_conf(layout, quota=DEFAULT_QUOTA):
    """heat.conf, with ``quota`` as the software deployments, and configs, a project may
    have; its path. heat-engine reads it when it starts (tests change the quota this way)."""
    conf_dir = layout.path('heat')
    conf_dir.mkdir(parents=True, exist_ok=True)
    conf = conf_dir / 'heat.conf'
    conf.write_text(CONF.format(
        rabbit=infra.rabbitmq_url(layout), region=credentials.REGION,
        heat_domain=credentials.HEAT_DOMAIN, domain_admin=credentials.HEAT_DOMAIN_ADMIN,
        password=credentials.SERVICE_PASSWORD, max_deployments=quota, max_configs=quota,
        heat_api=layout.url("heat_api"),
        paste=os.path.join(sys.prefix, "etc", "heat", "api-paste.ini"),
        db=infra.database_url(layout, 'heat'),
        keystone=layout.url('keystone'), memcached=infra.memcached_address(layout),
        dead_retry=infra.MEMCACHED_DEAD_RETRY_SECONDS))
    return conf


def start(layout, sup, progress, quota=DEFAULT_QUOTA):
    conf = write_conf(layout, quota)
    conf_dir = conf.parent
    stamp = conf_dir / '.db-synced'
    if not stamp.exists():
        progress('Heat: creating its database')
        process.run([layout_mod.venv_bin('heat-manage'), '--config-file', str(conf), 'db_sync'],
                    sup.log_path('heat-setup'))
        stamp.touch()
    engine = sup.start('heat-engine', [layout_mod.venv_bin('heat-engine'), '--config-file',
                                       str(conf)])
    wsgi.start(layout, sup, 'heat-api', 'heat.wsgi.api:application', layout.port('heat_api'),
               argv=['heat-api', '--config-file', str(conf)])
    sup.check_alive('heat-engine', engine)
