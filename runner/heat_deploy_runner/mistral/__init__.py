"""Mistral's side of a run: the actions a Mistral executor runs (heat_deploy.plan, .trigger,
.wait), on the same trigger, wait and cancel code as the dashboard's panels."""
