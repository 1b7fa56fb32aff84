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

"""`make soak` (not in `make test`): a fresh local cloud used for MINUTES (30) the way
operators use the plugin at night. A schedule fires every minute on every server, with tries;
20 users follow the newest operation's page as a browser tab does; the command line starts a
run every minute and cancels every other one; Mistral runs two executors, as operators do when
one host is not enough; every two minutes one service is SIGKILLed and started again 20 s later
(RabbitMQ, PostgreSQL, Keystone, Heat API and engine, either Mistral executor, Swift proxy and
object server, Zaqar, Mistral engine, memcached, a Horizon worker, in turn: load.SERVICES).
Then the schedules are deleted, everything is let end, and the figures (figures.py) are
printed and written to build/soak/results.json; the exit status is 1 when a goal is missed.

    .venv/bin/python -m soak [MINUTES] [--services NAME,NAME...]

--services kills only those, in that order (a short run that tries some services).
"""

import argparse
from datetime import datetime
from datetime import timezone
import json
import sys
import time

from devcloud import layout as layout_mod
from devcloud import servers as servers_mod
from devcloud.services import identity
from devcloud.services import mistral as mistral_service
from heat_deploy_runner.configs import derived
from heat_deploy_runner import Run
from heat_deploy_runner import session_clients
from heat_deploy_runner import workflows

from bench import cloud as bench_cloud
from bench import rolling_cost
from soak import figures
from soak import load
from tests.integration import webhook

MINUTES = 30
PAGES = 20
SOAK_PORT_BASE = 24000
RESULTS = layout_mod.REPO_ROOT / 'build' / 'soak' / 'results.json'
# The demo's servers by stack resource, as the servers' own folders are named.
SERVER_NAMES = {'db_server_1': 'demo-db-1', 'db_server_2': 'demo-db-2',
                'web_server': 'demo-web-1', 'monitor_server': 'demo-mon-1'}
# (component, action, servers, inputs) of the schedules, one per server.
SCHEDULES = (
    ('mysql', 'BACKUP', ('demo-db-1', 'demo-db-2'), ('pause_seconds=5', 'backup_dir=soak')),
    ('wordpress', 'ROTATE_KEYS', ('demo-web-1',), ('pause_seconds=5', 'db_dsn=mysql://db/x')),
    ('monitoring', 'CHECK', ('demo-mon-1',), ('pause_seconds=5',)),
)
# Once the load stops: how long every operation and run is given to end.
SETTLE_SECONDS = 300


def _progress(message):
    print(f'[soak] {message}', file=sys.stderr, flush=True)


def _schedule(layout, component, action, servers, inputs):
    argv = ['software', 'schedule', 'create', component, action, '--repeat', '* * * * *',
            '--retries', '1', '--timeout', '2', '-f', 'json']
    for server in servers:
        argv += ['--server', server]
    for each in inputs:
        argv += ['--input', each]
    return load.openstack(layout, *argv)['name']


def _settled(mistral, heat, deadline):
    """Once no operation runs and no run is in progress, or at ``deadline``."""
    while time.monotonic() < deadline:
        running = mistral.executions.list(state='RUNNING', limit=10)
        if not running and not any(each.status == 'IN_PROGRESS'
                                   for each in heat.software_deployments.list()):
            return
        time.sleep(5)


def _runs(heat):
    found = []
    for row in heat.software_deployments.list():
        run = Run.from_heat(heat.software_deployments.get(row.id))
        if run.operation:
            found.append(run.described(derived.as_dict(
                heat.software_configs.get(run.config_id))))
    return found


def _reported(layout, runs, names):
    """The ids of the runs whose server's agent sent its result (heat-config-notify writes
    what it sends beside the deployed marker first)."""
    return {run.id for run in runs if run.server_id in names and servers_mod.deployed_marker(
        layout, names[run.server_id], run.config_id).with_name(
            f'{run.config_id}.notify.json').exists()}


def _operations(mistral):
    """(concluded, stopped): the ids of the operations whose execution recorded an outcome,
    and {id: why} of those whose execution ended in error without one (a listing leaves the
    output out: each is read)."""
    concluded, stopped = [], {}
    for each in mistral.executions.list(limit=1000):
        if each.workflow_name not in workflows.OPERATION_WORKFLOWS:
            continue
        execution = mistral.executions.get(each.id)
        if isinstance(json.loads(execution.output or '{}').get('outcome'), dict):
            concluded.append(each.id)
        elif execution.state == 'ERROR':
            stopped[each.id] = execution.state_info or ''
    return concluded, stopped


def soak(cloud, minutes, services=load.SERVICES):
    layout = cloud.layout
    mistral_service.start_executor(layout, cloud.sup, load.SECOND_EXECUTOR)
    session = identity.user_session(layout)
    clients = session_clients.on_session(session)
    heat, mistral = clients.heat, rolling_cost.mistral(session)
    ids = {each.resource_name: each.physical_resource_id
           for each in heat.resources.list('demo')}
    names = {ids[resource]: name for resource, name in SERVER_NAMES.items()}
    with webhook.subscribed(clients.zaqar, [ids['mysql'], ids['wordpress'],
                                            ids['monitoring']]) as received:
        made = [_schedule(layout, *each) for each in SCHEDULES]
        pages = [load.Page(layout.dashboard_url) for _each in range(PAGES)]
        command_line, killer = load.CommandLine(layout), load.Killer(cloud, services)
        workers = pages + [command_line, killer]
        for each in workers:
            each.start()
        _progress(f'{len(made)} schedules every minute, {PAGES} pages, the command line and a '
                  f'service killed every {killer.every} s, for {minutes} minutes')
        time.sleep(minutes * 60)
        for each in workers:
            each.stop()
        for name in made:
            load.openstack(layout, 'software', 'schedule', 'delete', name)
        _progress('load stopped; letting every operation and run end')
        _settled(mistral, heat, time.monotonic() + SETTLE_SECONDS)
        runs = _runs(heat)
        concluded, stopped = _operations(mistral)
        found = figures.summary(
            runs, _reported(layout, runs, names), concluded,
            [each['body'] for each in received],
            [reply for page in pages for reply in page.replies], killer.outages,
            datetime.now(timezone.utc))
        found.update(minutes=minutes, services=list(services), operations_stopped=stopped,
                     operations_stopped_by_reason=figures.by_reason(stopped),
                     command_line_errors=command_line.errors,
                     restart_errors=killer.errors, killed_at=killer.killed_at,
                     pages_without_reply=sum(1 for page in pages for reply in page.replies
                                             if reply[2] is None))
    return found


def arguments(args):
    parser = argparse.ArgumentParser(prog='python -m soak')
    parser.add_argument('minutes', nargs='?', type=int, default=MINUTES)
    parser.add_argument('--services', type=load.named, default=load.SERVICES,
                        help='the services to kill in turn, by name, comma-separated '
                             '(all of them by default)')
    return parser.parse_args(args)


def main(args):
    chosen = arguments(args)
    the_layout = layout_mod.Layout(layout_mod.REPO_ROOT / 'build' / 'soakcloud',
                                   SOAK_PORT_BASE)
    with bench_cloud.fresh_cloud(the_layout) as the_cloud:
        found = soak(the_cloud, chosen.minutes, chosen.services)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(found, indent=1, sort_keys=True) + '\n')
    for key in ('runs', 'operations_concluded', 'operations_stopped_by_reason', 'notices',
                'page_replies', 'results_lost',
                'left_running', 'run_twice', 'notices_missing', 'notices_doubled',
                'server_errors', 'server_errors_by_outage', 'pages_without_reply',
                'service_down_replies',
                'slowest_page_while_down_seconds'):
        _progress(f'{key}: {found[key]}')
    _progress(f'written to {RESULTS}')
    return 0 if figures.met(found) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
