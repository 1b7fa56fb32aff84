# After Servers: the configs themselves are what an operator reaches for
# least often; components and runs come first.
PANEL = 'configs'
PANEL_DASHBOARD = 'project'
PANEL_GROUP = 'software_deployments'

ADD_PANEL = 'heat_deploy_dashboard.content.configs.panel.Configs'
