"""Secret inputs of the runs Mistral starts, kept in the project's Object Storage rather than
in Mistral (heat_deploy_runner.secret_store says why and how): the dashboard's side of its
calls seam, through the API seam."""

from openstack_dashboard.api import base

from heat_deploy_dashboard import api


class SecretCalls:
    """secret_store.keep's and forget_kept's calls for one request (runner.secret_store's
    SwiftCalls is the command line's)."""

    def __init__(self, request):
        self.request = request

    @property
    def object_storage(self):
        return base.is_service_enabled(self.request, 'object-store')

    def secrets_put(self, ref, values, lifetime_seconds=None):
        api.swift.secrets_put(self.request, ref, values, lifetime_seconds)

    def secrets_forget(self, ref):
        api.swift.secrets_forget(self.request, ref)


def read(request, ref):
    """The secret values kept under ``ref``; {} for none."""
    return api.swift.secrets_get(request, ref) if ref else {}
