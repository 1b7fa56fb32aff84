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

[token]
provider = fernet

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
'''


def start(layout, sup, progress):
    conf_dir = layout.path('keystone')
    conf_dir.mkdir(parents=True, exist_ok=True)
    conf = conf_dir / 'keystone.conf'
    conf.write_text(CONF.format(db=infra.database_url(layout, 'keystone'), dir=conf_dir,
                                memcached=infra.memcached_address(layout)))
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
