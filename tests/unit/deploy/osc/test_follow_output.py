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

"""`openstack software run output RUN --follow`, on the in-memory clouds: the snapshots a
server's heat-deploy-script-hook sends (put in Object Storage here, as the hook PUTs them)
printed as they come, what is new by their byte totals, then the rest of the final output;
the run's exit code; one sentence where no lines come; Ctrl-C leaves the run going."""

import datetime
import json

from osc_lib import exceptions as osc_exc
import pytest
from swiftclient.exceptions import ClientException

from heat_deploy_runner.configs import derived
from heat_deploy_runner import masking
from heat_deploy_runner import Message
from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import output_follower
from heat_deploy_runner.osc import runs as osc_runs
from heat_deploy_runner.osc import waiting
from heat_deploy_runner.running import live_output
from heat_deploy_runner.signalling import live
from heat_deploy_runner.signalling.tempurl import signal_location
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.app import PROJECT
from tests.unit.deploy.osc.app import shown


def _started(heat, app, *extra):
    """The BACKUP run a `component run --server s1` started, as Heat stores it."""
    shown(component_run.RunComponent, app, 'mysql', 'BACKUP', '--server', 's1', *extra)
    [running] = new_runs(heat)
    return running


class Server:
    """What the run's server does at each of the follower's sleeps, one step a sleep: a
    snapshot sent to the live object, or the result applied. ``seen`` keeps what the command
    had printed and the run's status at each step."""

    def __init__(self, heat, swift, app, run, steps):
        self.heat, self.swift, self.app, self.run = heat, swift, app, run
        self.steps = list(steps)
        self.seen = []

    def __call__(self, _seconds):
        self.seen.append((self.run['status'], self.app.stdout.getvalue()))
        step = self.steps.pop(0)
        if isinstance(step, dict):
            self.send(step)
        else:
            status, stdout, stderr, code = step
            self.run.update(status=status, status_reason=f'exit {code}', output_values={
                'deploy_stdout': stdout, 'deploy_stderr': stderr, 'deploy_status_code': code})

    def send(self, snapshot):
        values = derived.derived_input_values(self.heat.configs[self.run['config_id']])
        container, object_name = signal_location(values)
        self.swift.put_object(container, live.object_name(object_name), json.dumps(snapshot))


def snapshot(seq, stdout='', stderr='', stdout_bytes=None, stderr_bytes=None):
    """A send of the hook: the tails, and the streams' whole sizes (the tails' by default)."""
    return {'seq': seq, 'final': False, 'status_code': None, 'stdout': stdout,
            'stderr': stderr,
            'stdout_bytes': len(stdout.encode()) if stdout_bytes is None else stdout_bytes,
            'stderr_bytes': len(stderr.encode()) if stderr_bytes is None else stderr_bytes}


def _followed(app, run, server, monkeypatch, *extra):
    """The exit status of `run output RUN --follow`, its server doing ``server``'s steps."""
    monkeypatch.setattr(waiting.time, 'sleep', server)
    made, parsed = command(osc_runs.ShowRunOutput, app, run['id'], '--follow', *extra)
    return made.run(parsed)


def test_lines_are_printed_as_they_come_then_the_rest_and_the_exit_code(
        heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')
    server = Server(heat, swift, app, run, [
        snapshot(1, 'line 1\n'),
        snapshot(2, 'line 1\nline 2\n', 'warn\n'),
        # A look that finds the same snapshot prints nothing again.
        {},
        ('FAILED', 'line 1\nline 2\nline 3\n', 'warn\nfailed\n', 3)])
    server.steps[2] = server.steps[1]

    assert _followed(app, run, server, monkeypatch) == 3

    assert app.stdout.getvalue() == 'line 1\nline 2\nline 3\n'
    assert app.stderr.getvalue() == 'warn\nfailed\n'
    # The first line came while the run was still running, each once and in order.
    assert server.seen[1] == ('IN_PROGRESS', 'line 1\n')
    assert server.seen[2] == ('IN_PROGRESS', 'line 1\nline 2\n')


def test_what_scrolled_past_the_tail_is_said_not_shown(heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')
    server = Server(heat, swift, app, run, [
        snapshot(1, 'a\n'),
        # 1,000 bytes written since: the tail holds the last 4.
        snapshot(9, 'zzz\n', stdout_bytes=1002),
        ('COMPLETE', 'a\n' + 'x' * 996 + 'zzz\n', '', 0)])

    assert _followed(app, run, server, monkeypatch) == 0

    assert app.stdout.getvalue() == 'a\nzzz\n'
    assert app.stderr.getvalue() == '… 996 bytes not shown live …\n'


def test_a_secret_is_masked_live_and_scrubbed_from_the_rest_so_that_they_line_up(
        heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live', '--input', 'db_password=hunter22')
    masked = f'password {masking.MASK}\n'
    server = Server(heat, swift, app, run, [
        snapshot(1, masked),
        ('COMPLETE', 'password hunter22\ndone\n', '', 0)])

    _followed(app, run, server, monkeypatch)

    assert app.stdout.getvalue() == masked + 'done\n'


def test_without_a_live_target_it_says_why_once_then_prints_the_output(
        heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app)
    server = Server(heat, swift, app, run, [{}, {}, ('COMPLETE', 'all\nat once\n', '', 0)])

    assert _followed(app, run, server, monkeypatch) == 0

    assert [seen for _status, seen in server.seen] == ['', '', '']
    assert app.stdout.getvalue() == 'all\nat once\n'
    assert app.stderr.getvalue() == f'{Message(live_output.NOT_LIVE)}\n'
    assert 'heat-deploy-script-hook' in app.stderr.getvalue()


def test_a_live_run_whose_server_stays_silent_says_its_image_may_lack_the_hook(
        heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')
    server = Server(heat, swift, app, run, [{}, {}, ('COMPLETE', 'done\n', '', 0)])
    server.steps[1] = server.steps[0]
    silent_since = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(
        seconds=output_follower.SILENT_SECONDS + 5)

    def silent(_seconds):
        # Past the silence the hook would not keep: the run was made long ago.
        run['creation_time'] = silent_since.strftime('%Y-%m-%dT%H:%M:%SZ')
        Server.__call__(server, _seconds)
    assert _followed(app, run, silent, monkeypatch) == 0

    assert app.stderr.getvalue() == f'{Message(live_output.SILENT)}\n'
    assert app.stdout.getvalue() == 'done\n'


def test_live_output_that_cannot_be_read_leaves_the_run_followed_to_its_end(
        heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')
    swift.fail('get_object', ClientException('503 fake', http_status=503),
               when=lambda container, name, **kwargs: name.startswith(live.LIVE_PREFIX))
    server = Server(heat, swift, app, run, [{}, ('COMPLETE', 'done\n', '', 0)])

    assert _followed(app, run, server, monkeypatch) == 0

    said = app.stderr.getvalue().splitlines()
    assert said == ['The lines the server sent could not be read: Object Storage could not '
                    'be reached or answered with an error. Following goes on; the whole '
                    'output comes when the run ends.']
    assert app.stdout.getvalue() == 'done\n'


@pytest.mark.parametrize('status, code, exits', [
    ('COMPLETE', 0, 0), ('FAILED', 2, 2), ('FAILED', None, 1), ('FAILED', 256, 1)])
def test_the_exit_status_is_the_runs_exit_code_and_a_failure_never_zero(
        heat, swift, mysql, app, monkeypatch, status, code, exits):
    run = _started(heat, app, '--live')
    server = Server(heat, swift, app, run, [(status, '', '', code)])

    assert _followed(app, run, server, monkeypatch) == exits


def test_a_run_that_has_ended_prints_its_output_at_once(heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')
    run.update(status='COMPLETE', output_values={'deploy_stdout': 'done\n',
                                                 'deploy_status_code': 0})

    assert _followed(app, run, Server(heat, swift, app, run, []), monkeypatch) == 0

    assert (app.stdout.getvalue(), app.stderr.getvalue()) == ('done\n', '')


def test_ctrl_c_stops_following_and_the_run_goes_on(heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')

    def interrupted(_seconds):
        raise KeyboardInterrupt
    assert _followed(app, run, interrupted, monkeypatch) == output_follower.INTERRUPTED

    assert app.stderr.getvalue() == (
        f'Stopped following; the run {run["id"]} goes on (it was not cancelled): '
        f'`openstack software run output {run["id"]} --follow` follows it again.\n')
    assert run['status'] == 'IN_PROGRESS'


def test_a_run_deleted_while_followed_is_said(heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')

    def deleted(_seconds):
        del heat.deployments[run['id']]
    with pytest.raises(osc_exc.CommandError,
                       match=f'The run {run["id"]} was deleted while it was followed.'):
        _followed(app, run, deleted, monkeypatch)


def test_another_projects_run_is_not_found(heat, swift, mysql, app, monkeypatch):
    run = _started(heat, app, '--live')
    heat.configs[run['config_id']]['project'] = 'not-' + PROJECT

    with pytest.raises(osc_exc.CommandError, match=f'No run {run["id"]} in this project.'):
        _followed(app, run, Server(heat, swift, app, run, []), monkeypatch)
    assert app.stdout.getvalue() == ''


@pytest.mark.parametrize('extra', [('--all',), ('--output', 'deploy_stdout')])
def test_follow_prints_both_streams_whole_so_it_takes_no_other_choice(
        heat, swift, mysql, app, monkeypatch, extra):
    run = _started(heat, app, '--live')

    with pytest.raises(osc_exc.CommandError, match='leave out --all and --output'):
        _followed(app, run, Server(heat, swift, app, run, []), monkeypatch, *extra)
