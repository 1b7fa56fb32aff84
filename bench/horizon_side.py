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

"""Page views inside a process configured like the cloud's Horizon, counting what they cost.

Started by bench.horizon_views with the environment the cloud gives its gunicorn workers (its
local_settings first on the path), so the plugin renders with the same settings and the same
memcached. It logs in once against the real Keystone, then serves one page view per line
asked on stdin, through Django's test client: no gunicorn in the way, so no worker timeout
cuts a long page short. Every HTTP request a view makes is counted by service (heatclient,
swiftclient and keystoneauth all go through requests), and the config cache's own counters of
this process are read before and after.

stdin, first line: {"username", "password", "ports": {service: port}}; then one path a line.
stdout: one line per view, after REPLY: {"status", "seconds", "calls": {service: n},
"policy_checks": n (oslo.policy's), "cache": {"hits": n, "misses": n}}. Anything else on
stdout is Horizon's and is ignored.
"""

import collections
import json
import os
import sys
import time
from urllib import parse

REPLY = 'REPLY '


def _service_of(url, ports):
    port = parse.urlsplit(url).port
    for service, service_port in ports.items():
        if port == service_port:
            return service
    return 'other'


def _count_requests(ports, counter):
    import requests

    send = requests.Session.send

    def counted(self, request, **kwargs):
        counter[_service_of(request.url, ports)] += 1
        return send(self, request, **kwargs)

    requests.Session.send = counted


def _count_policy_checks(counter):
    from oslo_policy import policy

    enforce = policy.Enforcer.enforce

    def counted(self, *args, **kwargs):
        counter['policy_checks'] += 1
        return enforce(self, *args, **kwargs)

    policy.Enforcer.enforce = counted


def _sent_to_login(response):
    return response.status_code == 302 and '/auth/login' in response.get('Location', '')


def _login(client, spec):
    login = client.post('/auth/login/', {'username': spec['username'],
                                         'password': spec['password'], 'region': 'default'})
    if login.status_code != 302 or _sent_to_login(login):
        sys.exit(f'login refused: {login.status_code}')


def _view(client, path, counter, checks, config_cache):
    counter.clear()
    checks.clear()
    before = config_cache.stats()
    started = time.perf_counter()
    response = client.get(path)
    return response, time.perf_counter() - started, before


def main():
    spec = json.loads(sys.stdin.readline())
    import django
    django.setup()
    from django.test import Client

    from heat_deploy_dashboard import config_cache
    from heat_deploy_dashboard.content import server_names

    # The server names are read again once a minute, by whichever page comes then: a few
    # calls whatever the runs, which would land on one page's count at random.
    server_names.NAMES_SECONDS = 3600

    counter, checks = collections.Counter(), collections.Counter()
    _count_requests(spec['ports'], counter)
    _count_policy_checks(checks)
    client = Client()
    _login(client, spec)
    print(REPLY + '{}', flush=True)
    for line in sys.stdin:
        response, seconds, before = _view(client, line.strip(), counter, checks, config_cache)
        if _sent_to_login(response):
            # Horizon's Keystone token lasts an hour and a whole bench longer: the user logs
            # in again, as a person would, and the view is measured afresh.
            _login(client, spec)
            response, seconds, before = _view(client, line.strip(), counter, checks,
                                              config_cache)
        after = config_cache.stats()
        print(REPLY + json.dumps({
            'status': response.status_code, 'seconds': seconds, 'calls': dict(counter),
            'policy_checks': checks['policy_checks'],
            'cache': {name: after[name] - before[name] for name in after}}), flush=True)


if __name__ == '__main__':
    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'openstack_dashboard.settings')
    main()
