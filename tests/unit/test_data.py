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

"""Heat test data, shaped like what python-heatclient returns.

Loaded onto the test case next to Horizon's own test data.
"""

import copy

from heatclient.v1 import software_configs
from heatclient.v1 import software_deployments
from openstack_dashboard.test.test_data import utils

from heat_deploy_runner import Run

# Horizon's test service catalog has no orchestration service, and the
# panel requires one.
ORCHESTRATION_SERVICE = {
    "type": "orchestration",
    "name": "heat",
    "endpoints_links": [],
    "endpoints": [
        {"region": "RegionOne",
         "interface": "admin",
         "url": "http://admin.heat.example.com:8004/v1/1"},
        {"region": "RegionOne",
         "interface": "internal",
         "url": "http://int.heat.example.com:8004/v1/1"},
        {"region": "RegionOne",
         "interface": "public",
         "url": "http://public.heat.example.com:8004/v1/1"},
    ],
}

# Horizon's test service catalog has no messaging service either; tests of
# ZAQAR_SIGNED_URL_SIGNAL add this one (with_messaging) where they need it.
MESSAGING_SERVICE = {
    "type": "messaging",
    "name": "zaqar",
    "endpoints_links": [],
    "endpoints": [
        {"region": "RegionOne",
         "interface": "admin",
         "url": "http://admin.zaqar.example.com:8888"},
        {"region": "RegionOne",
         "interface": "internal",
         "url": "http://int.zaqar.example.com:8888"},
        {"region": "RegionOne",
         "interface": "public",
         "url": "http://public.zaqar.example.com:8888"},
    ],
}


# Mistral, for rolling runs: absent from Horizon's test catalog too (with_workflows adds it).
WORKFLOW_SERVICE = {
    "type": "workflowv2",
    "name": "mistral",
    "endpoints_links": [],
    "endpoints": [
        {"region": "RegionOne",
         "interface": "public",
         "url": "http://public.mistral.example.com:8989/v2"},
    ],
}


def with_workflows(TEST):
    """Add the workflow service (Mistral) to the logged-in user's catalog."""
    TEST.service_catalog.append(copy.deepcopy(WORKFLOW_SERVICE))


def with_messaging(TEST):
    """Add the messaging service to the logged-in user's catalog."""
    TEST.service_catalog.append(copy.deepcopy(MESSAGING_SERVICE))


# Heat's REST bodies (heat.engine.api.format_software_deployment): times are
# UTC in '%Y-%m-%dT%H:%M:%SZ', and updated_time is absent, not null, until
# the deployment is first updated.
DEPLOYMENTS = [
    {
        "id": "0b5f1bd8-2f2c-4dd5-9a8e-3c1d4a4e0c01",
        "config_id": "6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a101",
        "server_id": "8a5a1f3e-4b7e-4c1f-9e1a-2f6d0c3b7a11",
        "input_values": {"backup_target": "swift"},
        "output_values": {"deploy_stdout": "backed up 3 volumes\n",
                          "deploy_stderr": "",
                          "deploy_status_code": 0},
        "action": "BACKUP",
        "status": "COMPLETE",
        "status_reason": "Outputs received",
        "creation_time": "2025-03-01T09:00:00Z",
        "updated_time": "2025-03-01T09:02:10Z",
    },
    {
        "id": "4c2d9e77-8a1b-4f3e-b0d2-7e9f1a2b3c02",
        "config_id": "6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a102",
        "server_id": "8a5a1f3e-4b7e-4c1f-9e1a-2f6d0c3b7a11",
        "input_values": {},
        "output_values": {"deploy_stdout": "",
                          "deploy_stderr": "pg_dump: connection refused\n",
                          "deploy_status_code": 2},
        "action": "CREATE",
        "status": "FAILED",
        "status_reason": ("deploy_status_code : Deployment exited with "
                          "non-zero status code: 2"),
        "creation_time": "2025-03-03T14:30:00Z",
        "updated_time": "2025-03-03T14:31:05Z",
    },
    {
        "id": "9e8f7a6b-5c4d-4e3f-a2b1-0c9d8e7f6a03",
        "config_id": "6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a103",
        "server_id": "1d2c3b4a-5f6e-4a7b-8c9d-0e1f2a3b4c22",
        "input_values": {"rotate_users": "app"},
        "output_values": None,
        "action": "ROTATE_KEYS",
        "status": "IN_PROGRESS",
        "status_reason": "Deploy data available",
        "creation_time": "2025-03-02T11:15:00Z",
    },
]


def deployment(info):
    """The run api.heat answers for this deployment Heat sent."""
    return Run.from_heat(software_deployments.SoftwareDeployment(
        None, copy.deepcopy(info), loaded=True))


# The derived config of each deployment above: its name is the run's name.
RUN_NAMES = {
    "6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a101": "mysql-BACKUP",
    "6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a102": "postgres-CREATE",
    "6a1e36c2-6d2f-4d0b-8d3e-5cc2a3b0a103": "wordpress-ROTATE_KEYS",
}


def run_config(request, config_id):
    """A stand-in for api.heat.config_get over the configs named in RUN_NAMES: runs of
    components, as Run Action derives them."""
    return software_configs.SoftwareConfig(None, {
        'id': config_id, 'name': RUN_NAMES[config_id], 'group': 'component',
        'config': '', 'inputs': [], 'outputs': [], 'options': {}}, loaded=True)


def data(TEST):
    TEST.service_catalog.append(copy.deepcopy(ORCHESTRATION_SERVICE))

    TEST.software_deployments = utils.TestDataContainer()
    for info in DEPLOYMENTS:
        TEST.software_deployments.add(deployment(info))


def named_config(request, config_id):
    """config_get for any id: a run config of RUN_NAMES, else a script named after its id."""
    return run_config(request, config_id) if config_id in RUN_NAMES \
        else software_configs.SoftwareConfig(None, {
            'id': config_id, 'name': f'name-of-{config_id}', 'group': 'component',
            'config': '', 'inputs': [], 'outputs': [], 'options': {}}, loaded=True)
