from heat_deploy_dashboard.api import deploy
from heat_deploy_dashboard.api import heat
from heat_deploy_dashboard.api import keystone
from heat_deploy_dashboard.api import mistral
from heat_deploy_dashboard.api import swift
from heat_deploy_dashboard.api import zaqar

__all__ = [
    "deploy",
    "heat",
    "keystone",
    "mistral",
    "swift",
    "zaqar",
]
