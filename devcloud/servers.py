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

"""The local cloud's servers: each runs the stock agent chain of an operator's image.

What openstack/heat-agents puts on a server image, unmodified: os-collect-config polls the
server's metadata and runs os-refresh-config, whose configure.d runs os-apply-config (renders
the deployments into heat-config's file) and 55-heat-config, which runs the hook named by the
action's tool (`script`: hook-script; `ansible`; `json-file`) and then heat-config-notify,
which sends the result to the run's signal target. Beside heat-config-notify each server has
heat-deploy-notify (notify/ in this repository), as an operator adds it to an image for the
Zaqar transports: it posts Zaqar results with Zaqar's v2 API and passes every other result on.

heat-agents ships these as diskimage-builder elements in its sdist only (its wheel holds
release notes), so `make install` fetches the sdist (`fetch_elements`), and each server gets
a folder laid out as diskimage-builder lays an image out: `usr/libexec/os-refresh-config`,
`usr/libexec/os-apply-config/templates`, `usr/local/bin/heat-config-notify`,
`var/lib/heat-config/hooks`. Several servers share one machine here, so every path the stock
programs read is moved into the server's folder with the variables those programs define
for it (HEAT_CONFIG_HOOKS, HEAT_SHELL_CONFIG, HEAT_CONFIG_DEPLOYED, HEAT_SCRIPT_WORKING,
OS_REFRESH_CONFIG_BASE_DIR, OS_CONFIG_APPLIER_TEMPLATES...) and os-refresh-config's
--lockfile. os-apply-config writes under `/` with no variable to move it, so its stock
templates lie under the server's own path inside the templates folder: what it renders lands
in the server's folder.

Some servers (a choice of the demo: devcloud.demo.LIVE_HOOK_SERVERS) carry
heat-deploy-script-hook (notify/ too) over heat-agents' script hook, installed as an operator
installs it (notify/README.md): `hooks/script` is a link to the program, which sends a
running script's output to a live target when a run names one and is hook-script otherwise.
The other servers are stock.

What differs from a stock image is configuration, not code: the agent polls every second
(os-collect-config's default is 30 s), so a run starts within a second, and Horizon's
HEAT_DEPLOY_AGENT_POLLING_INTERVAL says so to the dashboard; and a UTF-8 locale is set, as
an image has one (ansible refuses to start without it).
"""

import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

from devcloud import layout as layout_mod

POLLING_INTERVAL = 1
ELEMENTS_ROOT = layout_mod.REPO_ROOT / 'build' / 'heat-agents'
# The hooks each server has, as their elements install them: `script` (inputs as environment
# variables: text), `ansible` (inputs in a variables file: typed; ansible-core is in the
# virtualenv) and `json-file` (writes its config's files).
HOOKS = {'script': 'heat-config-script/install.d/hook-script.py',
         'json-file': 'heat-config-json-file/install.d/hook-json-file.py',
         'ansible': 'heat-config-ansible/install.d/hook-ansible.py'}
LIVE_HOOK = 'heat-deploy-script-hook'


def pinned_version(name, constraints=layout_mod.REPO_ROOT / 'constraints.txt'):
    for line in constraints.read_text().splitlines():
        pinned, _, version = line.partition('===')
        if pinned.strip().lower() == name:
            return version.strip()
    raise LookupError(f'{name} is not pinned in {constraints}')


def elements_dir():
    return ELEMENTS_ROOT / f'heat_agents-{pinned_version("heat-agents")}'


def fetch_elements():
    """heat-agents' elements, from its sdist at the pinned version (once)."""
    target = elements_dir()
    if (target / 'heat-config').is_dir():
        return target
    ELEMENTS_ROOT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ELEMENTS_ROOT) as download:
        subprocess.run([sys.executable, '-m', 'pip', 'download', '--quiet', '--no-deps',
                        '--no-binary', ':all:', '--dest', download,
                        f'heat-agents=={pinned_version("heat-agents")}'], check=True)
        [sdist] = pathlib.Path(download).glob('heat_agents-*.tar.gz')
        with tarfile.open(sdist) as archive:
            archive.extractall(download, filter='data')
        shutil.move(pathlib.Path(download) / target.name, target)
    return target


def root(layout, name):
    """The server's folder: its image's files and everything its agent writes."""
    return layout.path('servers', name)


def deployed_marker(layout, name, config_id):
    """55-heat-config writes this before it runs a deployment (the config's id): once it
    exists the server has taken the run, and never runs it again."""
    return root(layout, name) / 'var/lib/heat-config/deployed' / f'{config_id}.json'


def image_files(server_root, elements, live_hook=False):
    """{where on the server: the element's file}, as diskimage-builder installs the
    heat-config elements; with live_hook, without the script hook it replaces."""
    config = elements / 'heat-config'
    files = {server_root / 'usr/libexec/os-refresh-config/configure.d' / script.name: script
             for script in (config / 'os-refresh-config/configure.d').iterdir()}
    templates = config / 'os-apply-config'
    files.update({_templates(server_root) / str(server_root).lstrip('/')
                  / template.relative_to(templates): template
                  for template in templates.rglob('*') if template.is_file()})
    files[server_root / 'usr/local/bin/heat-config-notify'] = config / 'bin/heat-config-notify'
    files.update({hook_path(server_root, hook): elements / source
                  for hook, source in HOOKS.items() if not (live_hook and hook == 'script')})
    return files


def hook_path(server_root, hook):
    return server_root / 'var/lib/heat-config/hooks' / hook


def lay_out(server_root, elements, live_hook=False):
    for target, source in image_files(server_root, elements, live_hook).items():
        target.parent.mkdir(parents=True, exist_ok=True)
        # Never through a link a server laid out with live_hook left: it is the program's.
        target.unlink(missing_ok=True)
        shutil.copyfile(source, target)
        target.chmod(0o644 if _templates(server_root) in target.parents else 0o755)
    if live_hook:
        # As an operator's image build does: ln -sf "$(command -v ...)" .../hooks/script
        script = hook_path(server_root, 'script')
        script.unlink(missing_ok=True)
        script.symlink_to(layout_mod.venv_bin(LIVE_HOOK))


def _templates(server_root):
    return server_root / 'usr/libexec/os-apply-config/templates'


def environment(server_root):
    """The stock programs' own variables, pointing into the server's folder."""
    heat_config = server_root / 'var/lib/heat-config'
    run = server_root / 'var/run'
    return {
        'PATH': ':'.join([str(server_root / 'usr/local/bin'),
                          str(pathlib.Path(sys.executable).parent),
                          '/usr/local/bin:/usr/bin:/bin']),
        'HOME': str(server_root / 'root'),
        # A UTF-8 locale, as on an image: ansible refuses to run without one.
        'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'PYTHONUTF8': '1',
        'OS_REFRESH_CONFIG_BASE_DIR': str(server_root / 'usr/libexec/os-refresh-config'),
        'OS_CONFIG_APPLIER_TEMPLATES': str(_templates(server_root)),
        'OS_CONFIG_FILES_PATH': str(server_root
                                    / 'var/lib/os-collect-config/os_config_files.json'),
        'HEAT_CONFIG_HOOKS': str(heat_config / 'hooks'),
        'HEAT_SHELL_CONFIG': str(run / 'heat-config/heat-config'),
        'HEAT_CONFIG_DEPLOYED': str(heat_config / 'deployed'),
        'HEAT_CONFIG_DEPLOYED_OLD': str(run / 'heat-config/deployed'),
        # Zaqar results (the dashboard's signed URLs, Heat's ZAQAR_SIGNAL), which stock
        # heat-config-notify cannot send; it passes every other on to heat-config-notify.
        'HEAT_CONFIG_NOTIFY': 'heat-deploy-notify',
        'HEAT_SCRIPT_WORKING': str(heat_config / 'heat-config-script'),
        'HEAT_SCRIPT_OUTPUTS': str(run / 'heat-config/heat-config-script'),
        'HEAT_ANSIBLE_WORKING': str(heat_config / 'heat-config-ansible'),
        'HEAT_ANSIBLE_OUTPUTS': str(run / 'heat-config/heat-config-ansible'),
    }


def agent_command(server_root, collector):
    """os-collect-config as the image starts it, reading the server's metadata source."""
    cache = server_root / 'var/lib/os-collect-config'
    return [layout_mod.venv_bin('os-collect-config'), '--config-file', '/dev/null',
            '--command', f'os-refresh-config --lockfile {server_root}/var/run/'
                         f'os-refresh-config.lock',
            '--polling-interval', str(POLLING_INTERVAL),
            '--min-polling-interval', str(POLLING_INTERVAL),
            '--cachedir', str(cache), '--backup-cachedir', str(cache) + '-backup', *collector]


def start(layout, sup, name, collector, live_hook=False):
    """Start the server `name`'s agent, with heat-deploy-script-hook as its script hook when
    live_hook; returns its process."""
    server_root = root(layout, name)
    lay_out(server_root, fetch_elements(), live_hook)
    for folder in ('root', 'var/run', 'var/lib/os-collect-config'):
        (server_root / folder).mkdir(parents=True, exist_ok=True)
    return sup.start(f'agent-{name}', agent_command(server_root, collector),
                     env=environment(server_root), cwd=str(server_root / 'root'))


if __name__ == '__main__':
    if sys.argv[1:] != ['fetch']:
        raise SystemExit(f'usage: {sys.argv[0]} fetch')
    print(f'heat-agents elements in {fetch_elements()}')
