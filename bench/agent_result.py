"""A run's result sent the way the stock chain's heat-config-notify sends it for a TEMP_URL
run: its JSON PUT to the run's TempURL, read from the run's derived config."""

import json

import requests

from heat_deploy_runner import derived
from heat_deploy_runner import tempurl


def send(config, result):
    """PUT ``result`` to the TempURL in this derived config (a dict, derived.as_dict)."""
    url = derived.derived_input_values(config)[tempurl.SIGNAL_ID]
    requests.put(url, data=json.dumps(result), timeout=30).raise_for_status()
