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

"""How a command says that a service could not do what it asked: the sentence the
dashboard's pages say (content/errors.py), naming the service, what did not happen, and
what to do; never a client's raw error."""

import contextlib
import logging

from heatclient import exc as heat_exc
from keystoneauth1 import exceptions as ks_exc
from osc_lib import exceptions as osc_exc

from heat_deploy_runner.messages import InputError

LOG = logging.getLogger(__name__)

# (the service as the sentence names it, the service's own name)
HEAT = ('the orchestration service', 'Heat')
KEYSTONE = ('the identity service (Keystone)', 'Keystone')
MISTRAL = ('the workflow service', 'Mistral')
SWIFT = ('Object Storage', 'Swift')


def sentence(doing, service, outcome=None):
    described, name = service
    said = [f'Unable to {doing}: {described} could not be reached or answered with an '
            'error.']
    if outcome:
        said.append(outcome)
    said.append(f'Try again later, or ask your cloud administrator to check {name}.')
    return ' '.join(said)


@contextlib.contextmanager
def calling(service, doing, outcome=None):
    """Within it, a service's failure becomes a CommandError with the sentence; a refused
    value (InputError) or a thing not found (LookupError) its own sentence. Heat's "not
    found" goes through, for the caller to say what is missing."""
    try:
        yield
    except osc_exc.CommandError:
        raise
    except LookupError as missing:
        raise osc_exc.CommandError(str(missing)) from None
    except InputError as refused:
        raise osc_exc.CommandError(str(refused.message)) from None
    except (ks_exc.AuthorizationFailure, ks_exc.Unauthorized) as error:
        LOG.debug('%s failed', doing, exc_info=True)
        raise osc_exc.CommandError(sentence(doing, KEYSTONE, outcome)) from error
    except heat_exc.HTTPNotFound:
        raise
    except Exception as error:
        LOG.debug('%s failed', doing, exc_info=True)
        raise osc_exc.CommandError(sentence(doing, service, outcome)) from error
