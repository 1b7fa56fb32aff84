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

"""Serving a WSGI application with gunicorn, the way operators run the OpenStack APIs."""

from devcloud import layout as layout_mod
from devcloud import process

GUNICORN_CONF = '''\
import sys
# oslo.config parses sys.argv and would choke on gunicorn's own flags.
sys.argv = {argv!r}
wsgi_app = {app!r}
bind = '127.0.0.1:{port}'
# Sync workers: Keystone mixed up request contexts under threaded workers.
worker_class = 'sync'
workers = {workers}
timeout = 120
graceful_timeout = 5
# Every gunicorn otherwise shares ~/.gunicorn/gunicorn.ctl.
control_socket = {control_socket!r}
accesslog = '-'
# gunicorn's line, and how long the request took (seconds): a slow page shows in the log.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(L)s'
'''


def start(layout, sup, name, app, port, workers=2, argv=None, env=None, ready_path='/'):
    conf_dir = layout.path(name)
    conf_dir.mkdir(parents=True, exist_ok=True)
    conf = conf_dir / 'gunicorn.conf.py'
    conf.write_text(GUNICORN_CONF.format(
        argv=argv or [name], app=app, port=port, workers=workers,
        control_socket=str(conf_dir / 'gunicorn.ctl')))
    proc = sup.start(name, [layout_mod.venv_bin('gunicorn'), '--config', str(conf)], env=env,
                     cwd=str(conf_dir))
    sup.wait_until(name, proc,
                   lambda: process.http_answers(f'http://127.0.0.1:{port}{ready_path}'))
    return proc
