"""The `openstack software component ...` commands: an OpenStackClient plugin that runs on any
machine with python-openstackclient and this distribution, without Horizon."""
