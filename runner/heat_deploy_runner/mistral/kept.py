# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

"""What Mistral's actions keep across their calls in one executor process, where Mistral makes
a new action object per call: the derived configs they read (kept_configs), and the runs a
wait saw ended, for the conclusion after it (ended_runs)."""

from heat_deploy_runner.mistral import ended_runs
from heat_deploy_runner.mistral import kept_configs

CONFIGS = kept_configs.KeptConfigs()
ENDED = ended_runs.EndedRuns()
