PANEL = 'schedules'
PANEL_DASHBOARD = 'project'
PANEL_GROUP = 'software_deployments'

ADD_PANEL = 'heat_deploy_dashboard.content.schedules.panel.Schedules'
