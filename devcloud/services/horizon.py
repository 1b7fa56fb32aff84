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

"""Horizon with this plugin, served by gunicorn workers that share memcached as their cache and
keep sessions in signed cookies, with offline-compressed static files, logging in through the
cloud's Keystone. Without memcached, pages are slower and nothing else."""

import hashlib
import importlib.metadata
import importlib.util
import os
import pathlib
import secrets
import shutil

from devcloud import layout as layout_mod
from devcloud import process
from devcloud import servers
from devcloud.services import infra
from devcloud.services import mistral
from devcloud.services import wsgi

LOCAL_SETTINGS = '''\
import os

DEBUG = False
ALLOWED_HOSTS = ['*']
SECRET_KEY = {secret!r}
OPENSTACK_HOST = '127.0.0.1'
OPENSTACK_KEYSTONE_URL = {keystone!r}
OPENSTACK_KEYSTONE_DEFAULT_ROLE = 'member'
WEBROOT = '/'
LOGIN_URL = '/auth/login/'
LOGOUT_URL = '/auth/logout/'
# This cloud has no Nova, so Horizon's default landing page (Project > Overview) is forbidden.
LOGIN_REDIRECT_URL = '/project/deployments/'
STATIC_ROOT = {static_root!r}
STATIC_URL = '/static/'
COMPRESS_ENABLED = True
COMPRESS_OFFLINE = True
COMPRESS_ROOT = STATIC_ROOT
# Sessions in a signed cookie (about 1.8 KB here with fernet tokens), not in memcached: a
# memcached outage must not log everyone out, nor make every page an error.
SESSION_ENGINE = 'django.contrib.sessions.backends.signed_cookies'
CACHES = {{
    'default': {{
        'BACKEND': 'django.core.cache.backends.memcached.PyMemcacheCache',
        'LOCATION': {memcached!r},
        'OPTIONS': {{
            # A cache outage reads as misses and writes that did not happen, never as an error.
            'ignore_exc': True,
            # pymemcache waits for ever by default; an unreachable host would hang every page.
            'connect_timeout': 0.5,
            'timeout': 1,
            # After two failed tries the server is left out, and tried again after this long.
            'dead_timeout': 10,
        }},
    }},
}}
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
TIME_ZONE = 'UTC'
# This cloud's Mistral policy (devcloud.services.mistral.POLICY), as an operator gives Horizon
# a service's policy when it narrows the defaults.
from openstack_dashboard import defaults as _defaults
POLICY_FILES = dict(_defaults.POLICY_FILES, workflow={workflow_policy!r})
# How often this cloud's servers look for new runs (devcloud.servers; stock images: 30 s).
HEAT_DEPLOY_AGENT_POLLING_INTERVAL = {polling_interval!r}
LOGGING = {{
    'version': 1,
    'disable_existing_loggers': False,
    'handlers': {{'console': {{'class': 'logging.StreamHandler'}}}},
    'root': {{'handlers': ['console'], 'level': 'INFO'}},
}}
'''


def _site_local_dir():
    """openstack_dashboard/local inside the installed Horizon: where operators drop plugins."""
    spec = importlib.util.find_spec('openstack_dashboard')
    return pathlib.Path(spec.origin).parent / 'local'


def _plugin_dir():
    spec = importlib.util.find_spec('heat_deploy_dashboard')
    return pathlib.Path(spec.origin).parent


def enable_plugin():
    """Copy the plugin's enabled and settings files into Horizon, as the README says."""
    local = _site_local_dir()
    plugin = _plugin_dir()
    for folder in ('enabled', 'local_settings.d'):
        target = local / folder
        target.mkdir(exist_ok=True)
        # Files of an older checkout of the plugin may name panels that no longer exist.
        for stale in target.glob('_*.py'):
            if 'heat_deploy_dashboard' in stale.read_text(errors='replace'):
                stale.unlink()
        for source in sorted((plugin / folder).glob('_*.py')):
            if source.name != '__init__.py':
                shutil.copy2(source, target / source.name)


def _static_fingerprint():
    """Changes whenever what offline compression works from changes: the plugin's files or
    the installed Horizon."""
    digest = hashlib.sha256(importlib.metadata.version('horizon').encode())
    for path in sorted(_plugin_dir().rglob('*')):
        if path.suffix in ('.html', '.css', '.scss', '.js', '.py') and path.is_file():
            digest.update(str(path).encode())
            digest.update(str(path.stat().st_mtime_ns).encode())
    return digest.hexdigest()


def start(layout, sup, progress):
    conf_dir = layout.path('horizon')
    settings_dir = conf_dir / 'local'
    settings_dir.mkdir(parents=True, exist_ok=True)
    secret_file = conf_dir / 'secret_key'
    if not secret_file.exists():
        secret_file.write_text(secrets.token_urlsafe(48))
    (settings_dir / '__init__.py').touch()
    (settings_dir / 'local_settings.py').write_text(LOCAL_SETTINGS.format(
        secret=secret_file.read_text(), keystone=layout.keystone_url,
        static_root=str(conf_dir / 'static'), memcached=infra.memcached_address(layout),
        polling_interval=servers.POLLING_INTERVAL,
        workflow_policy=str(mistral.policy_path(layout))))
    enable_plugin()
    # Horizon imports `local.local_settings`: this directory first on the path makes ours win.
    env = {'PYTHONPATH': os.pathsep.join(filter(None, [str(conf_dir), str(layout_mod.REPO_ROOT),
                                                       os.environ.get('PYTHONPATH')])),
           'DJANGO_SETTINGS_MODULE': 'openstack_dashboard.settings'}
    stamp = conf_dir / '.static-fingerprint'
    fingerprint = _static_fingerprint()
    if not stamp.exists() or stamp.read_text() != fingerprint:
        progress('Horizon: collecting and compressing static files (about 20 s)')
        django_admin = layout_mod.venv_bin('django-admin')
        log = sup.log_path('horizon-setup')
        process.run([django_admin, 'collectstatic', '--noinput', '--clear', '-v0'], log, env=env)
        process.run([django_admin, 'compress', '--force', '-v0'], log, env=env)
        stamp.write_text(fingerprint)
    wsgi.start(layout, sup, 'horizon', 'devcloud.horizon_wsgi:application',
               layout.port('horizon'), workers=2, env=env, ready_path='/auth/login/')
