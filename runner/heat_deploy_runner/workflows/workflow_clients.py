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

"""The clients a run in batches (rolling.start) and a schedule's changes (schedules) are made
on, for one project and user: the command line makes them from its session (osc), the
dashboard from the request (its api.mistral), and both call the same functions with them."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class WorkflowClients:
    mistral: object  # python-mistralclient's v2 client
    swift: object  # a swiftclient Connection; None where the project has no Object Storage
    project_id: str
    username: str  # who starts, makes or changes: the runs and the schedules' history say
