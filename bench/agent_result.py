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

"""A run's result sent the way the stock chain's heat-config-notify sends it for a TEMP_URL
run: its JSON PUT to the run's TempURL, read from the run's derived config."""

import json

import requests

from heat_deploy_runner.configs import derived
from heat_deploy_runner.signalling import tempurl


def send(config, result):
    """PUT ``result`` to the TempURL in this derived config (a dict, derived.as_dict)."""
    url = derived.derived_input_values(config)[tempurl.SIGNAL_ID]
    requests.put(url, data=json.dumps(result), timeout=30).raise_for_status()
