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

"""The DevStack plugin (devstack/plugin.sh and devstack/settings), phase by phase, sourced by
bash as stack.sh, unstack.sh and clean.sh source it, in a fake DevStack: DevStack's functions
are stubs that write what they were asked to a log, $DEST and Horizon's tree are folders of
tmp_path, and the plugin runs from a copy of the checkout's files it uses. No network, no
root, no DevStack."""

import pathlib
import shutil
import subprocess
import tomllib

import pytest

from heat_deploy_runner import workflows

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = 'heat_deploy_dashboard'
ENABLED_FILES = sorted(path.name for path in (ROOT / PACKAGE / 'enabled').glob('_17*.py'))
SETTINGS_FILE = '_1799_heat_deploy_dashboard_settings.py'
# Mistral's DevStack plugin's services, one process each.
MISTRAL = ('mistral', 'mistral-api', 'mistral-engine', 'mistral-executor',
           'mistral-event-engine')
ALL = ('heat-deploy-dashboard', 'horizon', 'heat', 'h-api', 'h-eng') + MISTRAL

# DevStack's functions the plugin calls, each writing its name and arguments to $LOG, and
# the commands it runs (openstack, systemctl, sleep, $PYTHON) as fakes driven by variables:
# RUNNING (Mistral's services active), API_DOWN (workflow lists that fail before one
# answers), KNOWN_WORKFLOWS, UNKNOWN_ACTIONS.
PREAMBLE = r'''
set -o errexit
log() { echo "$*" >> "$LOG"; }
is_service_enabled() {
    local service
    for service in "$@"; do
        [[ ",$ENABLED_SERVICES," == *",$service,"* ]] && return 0
    done
    return 1
}
enable_service() { log enable_service "$@"; }
define_plugin() { log define_plugin "$@"; }
plugin_requires() { log plugin_requires "$@"; }
echo_summary() { :; }
setup_develop() { log setup_develop "$@"; }
pip_install() { log pip_install "$@"; }
pip_uninstall() { log pip_uninstall "$@"; }
restart_apache_server() { log restart_apache_server; }
iniset() { log iniset "$@"; }
inidelete() { log inidelete "$@"; }
die() { log die "$2"; exit 1; }
sleep() { log sleep "$@"; }
fake_systemctl() {
    log systemctl "$@"
    if [[ "$1" == is-active ]]; then
        local service=${3#devstack@}
        [[ " $RUNNING " == *" ${service%.service} "* ]]
    fi
}
openstack() {
    log openstack "$@"
    case "$3 $4 $5" in
        "workflow list "*)
            local failed
            failed=$(cat "$STATE/api-failures" 2>/dev/null || echo 0)
            if (( failed < API_DOWN )); then
                echo $((failed + 1)) > "$STATE/api-failures"
                return 1
            fi;;
        "workflow show "*) [[ " $KNOWN_WORKFLOWS " == *" $5 "* ]];;
        "action definition show") [[ " $UNKNOWN_ACTIONS " != *" $6 "* ]];;
    esac
}
'''


class FakeDevstack:
    """A DevStack host in tmp_path: its checkout of the plugin, $DEST with Horizon's tree,
    Mistral's configuration file, and the log the stubs write."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.checkout = tmp_path / 'opt' / 'stack' / 'heat-deploy-dashboard'
        self.dest = tmp_path / 'opt' / 'stack'
        self.horizon = self.dest / 'horizon'
        self.enabled = self.horizon / 'openstack_dashboard' / 'local' / 'enabled'
        self.local_settings = self.horizon / 'openstack_dashboard' / 'local' / 'local_settings.d'
        self.mistral_conf = tmp_path / 'etc' / 'mistral' / 'mistral.conf'
        self.log = tmp_path / 'calls.log'
        self.state = tmp_path / 'state'
        for source, target in (('devstack', 'devstack'),
                               (f'{PACKAGE}/enabled', f'{PACKAGE}/enabled'),
                               (f'{PACKAGE}/local_settings.d', f'{PACKAGE}/local_settings.d'),
                               ('runner/heat_deploy_runner/workflows',
                                'runner/heat_deploy_runner/workflows')):
            shutil.copytree(ROOT / source, self.checkout / target,
                            ignore=shutil.ignore_patterns('__pycache__'))
        # Horizon as DevStack cloned it, with another plugin's files beside ours.
        self.enabled.mkdir(parents=True)
        self.local_settings.mkdir(parents=True)
        (self.enabled / '_50_mistral.py').write_text('# mistral-dashboard\n')
        (self.local_settings / '_1699_orchestration_settings.py').write_text('# heat\n')
        self.mistral_conf.parent.mkdir(parents=True)
        self.mistral_conf.write_text('[DEFAULT]\n')
        self.state.mkdir()
        self.python = tmp_path / 'python'
        self.python.write_text('#!/bin/sh\necho "python $* in $PWD as '
                               '$DJANGO_SETTINGS_MODULE" >> "$LOG"\n')
        self.python.chmod(0o755)

    def run(self, *phase, enabled=ALL, running=(), api_down=0, known_workflows=(),
            unknown_actions=(), check=True, **variables):
        """Sources the settings, then plugin.sh with ``phase`` as its arguments; gives the
        calls logged by this run, one list of words each."""
        if self.log.exists():
            self.log.unlink()
        exports = {
            'LOG': self.log, 'STATE': self.state, 'DEST': self.dest,
            'HORIZON_DIR': self.horizon, 'MISTRAL_CONF_FILE': self.mistral_conf,
            'PYTHON': self.python, 'SYSTEMCTL': 'fake_systemctl',
            'RUNNING': ' '.join(running), 'API_DOWN': api_down,
            'KNOWN_WORKFLOWS': ' '.join(known_workflows),
            'UNKNOWN_ACTIONS': ' '.join(unknown_actions),
        }
        script = PREAMBLE + ''.join(f'export {name}="{value}"\n'
                                    for name, value in exports.items())
        script += f'source {self.checkout}/devstack/settings\n'
        script += f'rm -f "$LOG"\nENABLED_SERVICES="{",".join(enabled)}"\n'
        script += ''.join(f'{name}="{value}"\n' for name, value in variables.items())
        script += f'source {self.checkout}/devstack/plugin.sh {" ".join(phase)}\n'
        done = subprocess.run(['bash', '-c', script], capture_output=True, text=True,
                              timeout=10, env={'PATH': '/usr/bin:/bin', 'HOME': str(self.tmp)})
        if check:
            assert done.returncode == 0, done.stderr[-3000:]
        self.returncode, self.stdout = done.returncode, done.stdout
        return [line.split() for line in self.log.read_text().splitlines()] \
            if self.log.exists() else []

    def ours_in_horizon(self):
        return (sorted(path.name for path in self.enabled.iterdir()),
                sorted(path.name for path in self.local_settings.iterdir()))


@pytest.fixture
def devstack(tmp_path):
    return FakeDevstack(tmp_path)


def _settings_value(devstack, name):
    script = (PREAMBLE.replace('set -o errexit', '') +
              f'LOG=/dev/null\nsource {devstack.checkout}/devstack/settings\necho "${name}"')
    done = subprocess.run(['bash', '-c', script], capture_output=True, text=True, check=True,
                          timeout=10, env={'PATH': '/usr/bin:/bin'})
    return done.stdout.split()


def test_settings_enable_the_service_and_require_heat(devstack):
    assert devstack.run('stack', 'pre-install', enabled=()) == []
    script = PREAMBLE + f'LOG={devstack.log}\nsource {devstack.checkout}/devstack/settings\n'
    subprocess.run(['bash', '-c', script], check=True, timeout=10, env={'PATH': '/usr/bin:/bin'})
    assert devstack.log.read_text().splitlines() == [
        'define_plugin heat-deploy-dashboard',
        'plugin_requires heat-deploy-dashboard heat',
        'enable_service heat-deploy-dashboard']


def test_the_settings_name_mistrals_services_as_its_devstack_plugin_runs_them(devstack):
    # mistral/devstack/plugin.sh: run_process mistral, or one each of the others.
    assert _settings_value(devstack, 'HEAT_DEPLOY_MISTRAL_SERVICES') == list(MISTRAL)


def test_the_settings_name_the_runners_mistral_actions_and_current_workflows(devstack):
    project = tomllib.loads((ROOT / 'runner' / 'pyproject.toml').read_text())
    actions = project['project']['entry-points']['mistral.actions']
    assert sorted(_settings_value(devstack, 'HEAT_DEPLOY_MISTRAL_ACTIONS')) == sorted(actions)
    names = _settings_value(devstack, 'HEAT_DEPLOY_WORKFLOWS')
    assert sorted(f'heat_deploy.{name}' for name in names) == sorted(
        [workflows.ROLLING_WORKFLOW, workflows.FOLLOW_WORKFLOW, workflows.RETENTION_WORKFLOW,
         workflows.SWEEP_WORKFLOW])
    for name in names:
        assert (ROOT / 'runner' / 'heat_deploy_runner' / 'workflows' / f'{name}.yaml').is_file()


def test_stack_install_installs_the_runner_with_mistral_actions_then_the_panels(devstack):
    assert devstack.run('stack', 'install') == [
        ['setup_develop', f'{devstack.checkout}/runner', 'mistral,cli'],
        ['setup_develop', str(devstack.checkout)]]
    assert devstack.ours_in_horizon() == (['_50_mistral.py'],
                                          ['_1699_orchestration_settings.py'])


def test_stack_install_without_mistral_installs_the_runners_command_line_only(devstack):
    calls = devstack.run('stack', 'install',
                         enabled=[s for s in ALL if not s.startswith('mistral')])
    assert calls == [['setup_develop', f'{devstack.checkout}/runner', 'cli'],
                     ['setup_develop', str(devstack.checkout)]]


def test_stack_post_config_puts_the_enabled_files_and_settings_into_horizon(devstack):
    assert ENABLED_FILES and '__init__.py' not in ENABLED_FILES
    assert devstack.run('stack', 'post-config') == []
    assert devstack.ours_in_horizon() == (
        sorted(ENABLED_FILES + ['_50_mistral.py']),
        ['_1699_orchestration_settings.py', SETTINGS_FILE])
    for name in ENABLED_FILES:
        assert (devstack.enabled / name).read_text() == \
            (ROOT / PACKAGE / 'enabled' / name).read_text()
    assert (devstack.local_settings / SETTINGS_FILE).read_text() == \
        (ROOT / PACKAGE / 'local_settings.d' / SETTINGS_FILE).read_text()


def test_stack_post_config_compiles_the_translations_there_are(devstack):
    catalogue = devstack.checkout / PACKAGE / 'locale' / 'de' / 'LC_MESSAGES' / 'django.po'
    catalogue.parent.mkdir(parents=True)
    catalogue.write_text('')
    assert devstack.run('stack', 'post-config') == [
        ['python', f'{devstack.horizon}/manage.py', 'compilemessages', 'in',
         str(devstack.checkout / PACKAGE), 'as', 'openstack_dashboard.settings']]


def test_stack_post_config_without_horizon_changes_nothing(devstack):
    assert devstack.run('stack', 'post-config', enabled=['heat-deploy-dashboard']) == []
    assert devstack.ours_in_horizon() == (['_50_mistral.py'],
                                          ['_1699_orchestration_settings.py'])


def test_stack_extra_without_mistral_does_nothing(devstack):
    assert devstack.run('stack', 'extra',
                        enabled=[s for s in ALL if not s.startswith('mistral')]) == []


# Mistral's heartbeats as the README gives them to operators: (option, value).
HEARTBEATS = (('check_interval', '3'), ('max_missed_heartbeats', '3'),
              ('first_heartbeat_timeout', '60'))


def _heartbeats(devstack, verb='iniset'):
    """The calls that set (iniset) or remove (inidelete) them."""
    return [[verb, str(devstack.mistral_conf), 'action_heartbeat', option] +
            ([value] if verb == 'iniset' else []) for option, value in HEARTBEATS]


def test_stack_extra_restarts_running_mistral_on_the_runners_actions_and_makes_workflows(
        devstack):
    running = ('mistral-api', 'mistral-engine', 'mistral-executor')
    calls = devstack.run('stack', 'extra', running=running,
                         known_workflows=['heat_deploy.follow_v3'])
    assert calls[:3] == _heartbeats(devstack)
    checks = [['systemctl', 'is-active', '--quiet', f'devstack@{service}.service']
              for service in MISTRAL]
    restarts = [['systemctl', 'restart', f'devstack@{service}.service']
                for service in running]
    assert calls[3:3 + len(checks) + len(restarts)] == checks + restarts
    rest = calls[3 + len(checks) + len(restarts):]
    os = ['openstack', '--os-cloud', 'devstack']
    assert rest[0] == os + ['workflow', 'list', '-f', 'value', '-c', 'Name']
    actions = _settings_value(devstack, 'HEAT_DEPLOY_MISTRAL_ACTIONS')
    assert rest[1:1 + len(actions)] == [
        os + ['action', 'definition', 'show', action, '-f', 'value', '-c', 'Name']
        for action in actions]
    files = devstack.checkout / 'runner' / 'heat_deploy_runner' / 'workflows'
    assert rest[1 + len(actions):] == [
        os + ['workflow', 'show', 'heat_deploy.rolling_v6', '-f', 'value', '-c', 'ID'],
        os + ['workflow', 'create', str(files / 'rolling_v6.yaml')],
        os + ['workflow', 'show', 'heat_deploy.follow_v3', '-f', 'value', '-c', 'ID'],
        os + ['workflow', 'show', 'heat_deploy.retention_v1', '-f', 'value', '-c', 'ID'],
        os + ['workflow', 'create', str(files / 'retention_v1.yaml')],
        os + ['workflow', 'show', 'heat_deploy.sweep_v1', '-f', 'value', '-c', 'ID'],
        os + ['workflow', 'create', str(files / 'sweep_v1.yaml')]]


def test_stack_extra_before_mistral_starts_sets_its_heartbeats_and_leaves_the_rest(devstack):
    calls = devstack.run('stack', 'extra')
    assert calls[:3] == _heartbeats(devstack)
    assert [call[:2] for call in calls[3:]] == [['systemctl', 'is-active']] * len(MISTRAL)
    assert 'workflows are made on first use' in devstack.stdout


def test_stack_extra_leaves_mistrals_heartbeats_when_asked(devstack):
    calls = devstack.run('stack', 'extra', HEAT_DEPLOY_MISTRAL_HEARTBEATS='False')
    assert not [call for call in calls if call[0] == 'iniset']


def test_stack_extra_waits_for_mistrals_api_after_the_restart(devstack):
    calls = devstack.run('stack', 'extra', running=['mistral'], api_down=2)
    lists = [call for call in calls if call[:5] == ['openstack', '--os-cloud', 'devstack',
                                                    'workflow', 'list']]
    assert len(lists) == 3
    assert [call for call in calls if call[0] == 'sleep'] == [['sleep', '1']] * 2
    assert sum(call[4] == 'create' for call in calls if call[0] == 'openstack') == 4


def test_stack_extra_fails_when_mistrals_api_does_not_come_back(devstack):
    calls = devstack.run('stack', 'extra', running=['mistral'], api_down=100,
                         HEAT_DEPLOY_MISTRAL_WAIT='3', check=False)
    assert devstack.returncode != 0
    assert calls[-1][0] == 'die' and 'did not answer 3 s' in ' '.join(calls[-1])
    assert not [call for call in calls if call[0] == 'openstack' and call[4] == 'create']


def test_stack_extra_fails_when_mistral_does_not_know_an_action(devstack):
    calls = devstack.run('stack', 'extra', running=['mistral'],
                         unknown_actions=['heat_deploy.entrust'], check=False)
    assert devstack.returncode != 0
    assert calls[-1][0] == 'die' and 'the action heat_deploy.entrust:' in ' '.join(calls[-1])
    assert not [call for call in calls if call[0] == 'openstack' and call[4] == 'create']


def test_unstack_changes_nothing(devstack):
    devstack.run('stack', 'post-config')
    before = devstack.ours_in_horizon()
    assert devstack.run('unstack', running=MISTRAL) == []
    assert devstack.ours_in_horizon() == before


def test_clean_removes_what_the_phases_added_and_only_that(devstack):
    devstack.run('stack', 'post-config')
    calls = devstack.run('clean')
    assert devstack.ours_in_horizon() == (['_50_mistral.py'],
                                          ['_1699_orchestration_settings.py'])
    assert calls == _heartbeats(devstack, 'inidelete') + [
        ['pip_uninstall', 'heat-deploy-dashboard'], ['pip_uninstall', 'heat-deploy-runner']]


def test_clean_in_devstacks_global_venv_leaves_the_distributions_to_clean_sh(devstack):
    # pip_uninstall would look for them with the system's pip; clean.sh removes the venv.
    assert devstack.run('clean', GLOBAL_VENV='True') == _heartbeats(devstack, 'inidelete')


def test_clean_without_mistrals_configuration_file(devstack):
    devstack.mistral_conf.unlink()
    assert devstack.run('clean') == [['pip_uninstall', 'heat-deploy-dashboard'],
                                     ['pip_uninstall', 'heat-deploy-runner']]


@pytest.mark.parametrize('phase', [('stack', 'install'), ('stack', 'post-config'),
                                   ('stack', 'extra'), ('unstack',), ('clean',)])
def test_a_disabled_plugin_does_nothing(devstack, phase):
    assert devstack.run(*phase, enabled=[s for s in ALL if s != 'heat-deploy-dashboard'],
                        running=MISTRAL) == []
    assert devstack.ours_in_horizon() == (['_50_mistral.py'],
                                          ['_1699_orchestration_settings.py'])
