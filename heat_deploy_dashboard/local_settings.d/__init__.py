"""Settings snippets for operators to copy into
openstack_dashboard/local/local_settings.d/, where Horizon exec()s every
*.py file inside its own settings module."""
