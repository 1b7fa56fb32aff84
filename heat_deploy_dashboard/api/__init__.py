from heat_deploy_dashboard.api import deploy
from heat_deploy_dashboard.api import heat
from heat_deploy_dashboard.api import swift

__all__ = [
    "deploy",
    "heat",
    "swift",
]
