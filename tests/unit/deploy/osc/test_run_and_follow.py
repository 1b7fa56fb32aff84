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

"""`component run ... --wait --follow` (and `run create`'s), on the in-memory clouds: one
server's run started, its output printed as `run output --follow` prints it, the command's
stdout the run's alone, its exit status the run's; refused, with nothing made, without --wait
or for more than one server."""

from osc_lib import exceptions as osc_exc
import pytest

from heat_deploy_runner.osc import component_run
from heat_deploy_runner.osc import output_follower
from heat_deploy_runner.osc import waiting
from tests.unit.deploy.osc.app import command
from tests.unit.deploy.osc.app import new_runs
from tests.unit.deploy.osc.test_follow_output import Server
from tests.unit.deploy.osc.test_follow_output import snapshot


class Started(Server):
    """The server of the run the command starts, once it has started it."""

    def __init__(self, heat, swift, app, steps):
        super().__init__(heat, swift, app, None, steps)

    def __call__(self, seconds):
        [self.run] = new_runs(self.heat)
        super().__call__(seconds)


def _run(app, server, monkeypatch, *argv):
    monkeypatch.setattr(waiting.time, 'sleep', server)
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', *argv)
    return made.run(parsed)


def test_one_servers_lines_come_as_it_runs_and_the_command_exits_with_its_code(
        heat, swift, mysql, app, monkeypatch):
    server = Started(heat, swift, app, [
        snapshot(1, 'dumping\n'),
        ('FAILED', 'dumping\ndisk full\n', 'gzip: broken pipe\n', 4)])

    exits = _run(app, server, monkeypatch, '--server', 'demo-db-1', '--live', '--wait',
                 '--follow')

    assert exits == 4
    # stdout is the run's alone: no table of the operation after it.
    assert app.stdout.getvalue() == 'dumping\ndisk full\n'
    assert server.seen[1] == ('IN_PROGRESS', 'dumping\n')
    following, *said = app.stderr.getvalue().splitlines()
    assert following.startswith('Following operation ')
    # The server's end, after the rest of its output.
    assert said == ['gzip: broken pipe', 'demo-db-1: FAILED, exit code 4 (exit 4)']


def test_without_live_output_it_says_why_then_prints_the_output(
        heat, swift, mysql, app, monkeypatch):
    server = Started(heat, swift, app, [('COMPLETE', 'done\n', '', 0)])

    assert _run(app, server, monkeypatch, '--server', 's1', '--wait', '--follow') == 0

    assert app.stdout.getvalue() == 'done\n'
    assert 'it was started without live output' in app.stderr.getvalue()


def test_ctrl_c_stops_following_the_started_run_which_goes_on(
        heat, swift, mysql, app, monkeypatch):
    def interrupted(_seconds):
        raise KeyboardInterrupt

    exits = _run(app, interrupted, monkeypatch, '--server', 's1', '--live', '--wait',
                 '--follow')

    [running] = new_runs(heat)
    assert exits == output_follower.INTERRUPTED
    assert app.stderr.getvalue().splitlines()[-1] == (
        f'Stopped following; the run {running["id"]} goes on (it was not cancelled): '
        f'`openstack software run output {running["id"]} --follow` follows it again.')
    assert running['status'] == 'IN_PROGRESS'


@pytest.mark.parametrize('argv, said', [
    (('--server', 's1', '--follow'),
     "--follow prints the run's output until it ends: give --wait too."),
    (('--server', 's1', '--server', 's2', '--wait', '--follow'),
     "--follow prints one run's output, and 2 servers were chosen: choose one, or leave out "
     '--follow and follow each run with `openstack software run output RUN --follow`.')])
def test_follow_without_wait_or_for_several_servers_is_refused_and_nothing_made(
        heat, swift, mysql, app, argv, said):
    before = (dict(heat.configs), dict(heat.deployments))
    made, parsed = command(component_run.RunComponent, app, 'mysql', 'BACKUP', *argv)

    with pytest.raises(osc_exc.CommandError) as refused:
        made.take_action(parsed)

    assert str(refused.value) == said
    assert (heat.configs, heat.deployments, swift.containers) == (*before, {})


def test_run_create_follows_its_one_run_too(heat, swift, app, monkeypatch):
    hello = heat.add_config(name='hello', group='script', config='echo hi', inputs=[])
    server = Started(heat, swift, app, [snapshot(1, 'hi\n'), ('COMPLETE', 'hi\n', '', 0)])
    monkeypatch.setattr(waiting.time, 'sleep', server)
    made, parsed = command(component_run.CreateRun, app, '--config', hello, '--server', 's1',
                           '--action', 'BACKUP', '--live', '--wait', '--follow')

    assert made.run(parsed) == 0
    assert app.stdout.getvalue() == 'hi\n'
    assert server.seen[1] == ('IN_PROGRESS', 'hi\n')
