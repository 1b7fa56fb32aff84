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

"""Swift all-in-one: account, container and object servers and a proxy with TempURL and
Keystone auth. One replica, one device, rings built on first start."""

import os

from devcloud import credentials
from devcloud import layout as layout_mod
from devcloud import process
from devcloud.services import infra

SERVERS = ('account', 'container', 'object')

SWIFT_CONF = '''\
[swift-hash]
swift_hash_path_suffix = devcloud
swift_hash_path_prefix = devcloud

[storage-policy:0]
name = Policy-0
default = yes
'''

SERVER_CONF = '''\
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = {port}
workers = 0
user = {user}
swift_dir = {swift_dir}
devices = {devices}
mount_check = false
log_name = {kind}-server

[pipeline:main]
pipeline = {kind}-server

[app:{kind}-server]
use = egg:swift#{kind}
'''

PROXY_CONF = '''\
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = {port}
workers = 0
user = {user}
swift_dir = {swift_dir}
log_name = proxy-server

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats tempurl
    authtoken keystoneauth copy dlo versioned_writes proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# A server that failed 10 times is left alone until this long after its last error (60 s by
# default). With one replica there is no other server to go to: try it again soon.
error_suppression_interval = 5
# 0.5 s by default to connect to a storage server: on a busy machine (the whole cloud and the
# tests on two cores) the proxy answered an object PUT with 503 inside that.
conn_timeout = 3

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:gatekeeper]
use = egg:swift#gatekeeper

[filter:healthcheck]
use = egg:swift#healthcheck

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:cache]
use = egg:swift#memcache
memcache_servers = {memcached}

[filter:listing_formats]
use = egg:swift#listing_formats

[filter:tempurl]
use = egg:swift#tempurl
methods = GET HEAD PUT POST DELETE

[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
www_authenticate_uri = {keystone}
auth_url = {keystone}
auth_type = password
username = swift
password = {password}
project_name = service
user_domain_name = Default
project_domain_name = Default
memcached_servers = {memcached}
memcache_pool_dead_retry = {dead_retry}
delay_auth_decision = True

[filter:keystoneauth]
use = egg:swift#keystoneauth
operator_roles = admin, member, swiftoperator

[filter:copy]
use = egg:swift#copy

[filter:dlo]
use = egg:swift#dlo

# Heat's signal containers use X-Versions-Location: without this each signal would
# silently overwrite the last.
[filter:versioned_writes]
use = egg:swift#versioned_writes
allow_versioned_writes = true
'''


def _build_rings(layout, swift_dir, log):
    builder = layout_mod.venv_bin('swift-ring-builder')
    for kind in SERVERS:
        ring = str(swift_dir / f'{kind}.builder')
        process.run([builder, ring, 'create', '6', '1', '1'], log)
        process.run([builder, ring, 'add',
                     f'r1z1-127.0.0.1:{layout.port("swift_" + kind)}/d1', '1'], log)
        process.run([builder, ring, 'rebalance'], log)


def start(layout, sup, progress):
    swift_dir = layout.path('swift')
    devices = layout.path('swift', 'devices')
    (devices / 'd1').mkdir(parents=True, exist_ok=True)
    user = os.environ.get('USER') or 'root'
    (swift_dir / 'swift.conf').write_text(SWIFT_CONF)
    for kind in SERVERS:
        (swift_dir / f'{kind}-server.conf').write_text(SERVER_CONF.format(
            port=layout.port('swift_' + kind), user=user, swift_dir=swift_dir,
            devices=devices, kind=kind))
    (swift_dir / 'proxy-server.conf').write_text(PROXY_CONF.format(
        port=layout.port('swift_proxy'), user=user, swift_dir=swift_dir,
        memcached=infra.memcached_address(layout),
        dead_retry=infra.MEMCACHED_DEAD_RETRY_SECONDS, keystone=layout.url('keystone'),
        password=credentials.SERVICE_PASSWORD))
    if not (swift_dir / 'object.ring.gz').exists():
        progress('Swift: building rings')
        _build_rings(layout, swift_dir, sup.log_path('swift-setup'))
    env = {'SWIFT_DIR': str(swift_dir)}
    for kind in SERVERS:
        name = f'swift-{kind}'
        proc = sup.start(name, [layout_mod.venv_bin(f'swift-{kind}-server'),
                                str(swift_dir / f'{kind}-server.conf')], env=env)
        sup.wait_until(name, proc, lambda k=kind: process.port_open(layout.port('swift_' + k)))
    proc = sup.start('swift-proxy', [layout_mod.venv_bin('swift-proxy-server'),
                                     str(swift_dir / 'proxy-server.conf')], env=env)
    sup.wait_until('swift-proxy', proc,
                   lambda: process.http_answers(layout.url('swift_proxy', '/healthcheck')))
