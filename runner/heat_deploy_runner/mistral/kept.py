"""What Mistral's actions keep across their calls in one executor process, where Mistral makes
a new action object per call: the derived configs they read (kept_configs), and the runs a
wait saw ended, for the conclusion after it (ended_runs)."""

from heat_deploy_runner import kept_configs
from heat_deploy_runner.mistral import ended_runs

CONFIGS = kept_configs.KeptConfigs()
ENDED = ended_runs.EndedRuns()
