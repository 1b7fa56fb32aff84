# Numbered before the Deployments panel (_1720) so that Components, where an
# action is started, comes first in the group.
PANEL = 'components'
PANEL_DASHBOARD = 'project'
PANEL_GROUP = 'software_deployments'

ADD_PANEL = 'heat_deploy_dashboard.content.components.panel.Components'
