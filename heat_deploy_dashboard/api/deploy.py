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

"""Running, cancelling and deleting actions, on the user's own clients.

Each function builds the clients a request needs and hands over to the
runner, which holds the logic. Views and forms call these, and
unit tests of the panels mock them.
"""

from collections import namedtuple
import functools

from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler

from heat_deploy_dashboard.api import heat
from heat_deploy_dashboard.api import mistral
from heat_deploy_dashboard.api import swift
from heat_deploy_dashboard.api import zaqar
import heat_deploy_runner as runner
from heat_deploy_runner.following import followers
from heat_deploy_runner.running import live_output as runner_live_output

_Need = namedtuple('_Need', 'service keyword client')

# What a signal transport needs beyond Heat: the service type that must be
# in the user's catalog, and the transport_for() keyword its client goes
# in. A transport needing nothing is absent.
_NEEDS = {
    # Looked up when called, so that tests can replace the client functions.
    'TEMP_URL_SIGNAL': _Need('object-store', 'swift',
                             lambda request: swift.swift_connection(request)),
    'ZAQAR_SIGNED_URL_SIGNAL': _Need(
        'messaging', 'zaqar', lambda request: zaqar.zaqar_client(request)),
}


def required_service(transport_name):
    """The catalog service type the transport needs, or None."""
    need = _NEEDS.get(transport_name)
    return need.service if need else None


def _transport_clients(request, transport_names):
    # Only clients whose service the user has: building one for a missing
    # service raises, and the transport then reports itself unavailable.
    clients = {}
    for name in transport_names:
        need = _NEEDS.get(name)
        if need and base.is_service_enabled(request, need.service):
            clients[need.keyword] = need.client(request)
    return clients


def _require_in_project(request, get, object_id):
    # The runner reads by id as Heat answers, which to an admin is any project's
    # object; api.heat's get answers HTTPNotFound for one outside the working project.
    if request.user.is_superuser:
        get(request, object_id)


@profiler.trace
def start_runs(request, run_request, source=None, server_names=None, link=None):
    """Start the runner.RunRequest now, one run per server, and have Mistral follow them
    where it is, and sweep what a start Heat left unanswered may yet make (runner
    followers.start_and_follow); a runner.Started, whose not_followed says Mistral did not
    take them. ``source``: its config as a dict, when the caller has it (else it is read);
    ``server_names``: what its sentences and notices name the servers by; ``link``: the
    operation's page, where a notice links to.

    Raises runner.InputError, before anything is created, for values the
    runner refuses (an unavailable transport among them), and
    heatclient's error when the config cannot be read.
    """
    _require_in_project(request, heat.config_get, run_request.config_id)
    return followers.start_and_follow(
        heat.heatclient(request),
        lambda name: runner.transport_for(name, **_transport_clients(request, [name])),
        mistral.mistralclient(request) if mistral.is_available(request) else None,
        request.user.project_id, run_request, request.user.username, source, server_names,
        link)


@profiler.trace
def cancel_deployment(request, deployment_id):
    _require_in_project(request, heat.deployment_get, deployment_id)
    return runner.cancel(heat.heatclient(request), deployment_id,
                         request.user.username, _find_transport(request))


def _find_transport(request):
    return functools.partial(
        runner.transport_for,
        **_transport_clients(request, runner.TRANSPORT_NAMES))


@profiler.trace
def delete_deployment(request, deployment_id):
    """Delete the deployment and what its run made; a list of runner.Message
    for leftovers that could not be removed."""
    _require_in_project(request, heat.deployment_get, deployment_id)
    return runner.delete(heat.heatclient(request), deployment_id,
                         _find_transport(request))


@profiler.trace
def late_result(request, run):
    """What the server of a cancelled run sent after the cancel, or None."""
    return runner.late_result(heat.heatclient(request), run, _find_transport(request))


@profiler.trace
def may_have_results(request, configs, map_=map):
    """The ids of the running deployments ({id: its derived config}) that may have a result
    (see runner.may_have_results); ``map_`` looks at several places side by side."""
    return runner.may_have_results(configs, _find_transport(request), map_)


@profiler.trace
def collect_result(request, run):
    """The run (with its derived config), with a result Heat does not read itself applied
    (see runner.collect)."""
    return runner.collect(heat.heatclient(request), run, _find_transport(request))


@profiler.trace
def expire_deployment(request, run):
    """The run (with its derived config), marked FAILED as timed out if it still runs past
    its deadline (see runner.expire)."""
    return runner.expire(heat.heatclient(request), run)


@profiler.trace
def live_output(request, config):
    """The latest live snapshot of the run whose derived config is ``config``; None before
    its server's first send, or without a live target (runner running.live_output.latest)."""
    return runner_live_output.latest(config, _find_transport(request))


@profiler.trace
def live_lines(request, configs):
    """{id: the last line its live output gave} of the running runs ({id: derived config})
    that gave one, each transport asked once (runner running.live_output.last_lines)."""
    return runner_live_output.last_lines(configs, _find_transport(request))
