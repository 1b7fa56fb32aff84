"""Heat (orchestration) API calls made by the dashboard.

One function per client call and nothing else: views catch the client's
exceptions, and unit tests mock these functions.
"""

from django.conf import settings
from heatclient import client as heat_client
from horizon.utils.memoized import memoized
from openstack_dashboard.api import base
from openstack_dashboard.contrib.developer.profiler import api as profiler


@memoized
def heatclient(request):
    return heat_client.Client(
        '1',
        endpoint=base.url_for(request, 'orchestration'),
        token=request.user.token.id,
        insecure=settings.OPENSTACK_SSL_NO_VERIFY,
        ca_file=settings.OPENSTACK_SSL_CACERT,
        # Without a timeout a hung Heat API hangs the page with it.
        timeout=getattr(settings, 'HEAT_DEPLOY_API_TIMEOUT', 30),
    )


@profiler.trace
def deployments_list(request, server_id=None):
    # heatclient puts every keyword into the query string, None included.
    filters = {'server_id': server_id} if server_id else {}
    return heatclient(request).software_deployments.list(**filters)


@profiler.trace
def deployment_get(request, deployment_id):
    return heatclient(request).software_deployments.get(deployment_id)


@profiler.trace
def config_get(request, config_id):
    return heatclient(request).software_configs.get(config_id)


@profiler.trace
def configs_list(request, limit=None, marker=None):
    # Summary rows (id, name, group, creation_time), newest first. heatclient
    # leaves out a limit or marker of None; without a limit Heat lists all.
    return heatclient(request).software_configs.list(limit=limit, marker=marker)


@profiler.trace
def config_create(request, **config):
    return heatclient(request).software_configs.create(**config)


@profiler.trace
def config_delete(request, config_id):
    return heatclient(request).software_configs.delete(config_id)


@profiler.trace
def stack_template(request, stack_name):
    return heatclient(request).stacks.template(stack_name)


@profiler.trace
def stacks_list(request):
    # Nested stacks too: a component in one is named after the nested stack.
    # heatclient returns a generator; the list makes the call happen here,
    # where the caller's error handling is.
    return list(heatclient(request).stacks.list(show_nested=True))


@profiler.trace
def server_metadata(request, server_id):
    return heatclient(request).software_deployments.metadata(server_id=server_id)
