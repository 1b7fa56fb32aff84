PANEL = 'servers'
PANEL_DASHBOARD = 'project'
PANEL_GROUP = 'software_deployments'

ADD_PANEL = 'heat_deploy_dashboard.content.servers.panel.Servers'
