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

"""What the tests of Mistral's actions share besides their fixtures (conftest.py)."""

EXECUTION_ID = '7d3a63a5-4a7e-4ad4-9d54-0b5b1f3a6c11'


def ended(heat, run_id, status, code=0, stderr='', reason='Outputs received'):
    """The in-memory run as Heat holds it once its server reported."""
    heat.deployments[run_id].update(status=status, status_reason=reason, output_values={
        'deploy_stdout': '', 'deploy_stderr': stderr, 'deploy_status_code': code})
