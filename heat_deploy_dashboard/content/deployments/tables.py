from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from horizon import tables
from horizon.utils import filters

STATUS_CHOICES = (
    ("COMPLETE", True),
    ("FAILED", False),
    ("IN_PROGRESS", None),
)

STATUS_DISPLAY_CHOICES = (
    ("COMPLETE",
     pgettext_lazy("Current status of a software deployment", "Complete")),
    ("FAILED",
     pgettext_lazy("Current status of a software deployment", "Failed")),
    ("IN_PROGRESS",
     pgettext_lazy("Current status of a software deployment", "In Progress")),
)


class DeploymentRow(tables.Row):
    def load_cells(self, datum=None):
        super().load_cells(datum)
        # What the live poller looks for: Horizon's status classes are generic CSS.
        self.attrs['data-status'] = self.datum.status


class DeploymentsTable(tables.DataTable):
    server = tables.Column("server_id", verbose_name=_("Server"))
    # Not translated: besides Heat's lifecycle actions this holds the custom
    # action names (BACKUP, ROTATE_KEYS...) that template authors chose.
    action = tables.Column("action", verbose_name=_("Action"),
                           link="horizon:project:deployments:detail")
    status = tables.Column("status",
                           verbose_name=_("Status"),
                           status=True,
                           status_choices=STATUS_CHOICES,
                           display_choices=STATUS_DISPLAY_CHOICES)
    status_reason = tables.Column("status_reason",
                                  verbose_name=_("Status Reason"),
                                  classes=("hdd-status-reason",))
    created = tables.Column("creation_time",
                            verbose_name=_("Created"),
                            filters=(filters.parse_isotime,
                                     filters.timesince_sortable),
                            attrs={'data-type': 'timesince'})
    updated = tables.Column("updated_time",
                            verbose_name=_("Updated"),
                            filters=(filters.parse_isotime,
                                     filters.timesince_or_never))

    class Meta:
        name = "deployments"
        row_class = DeploymentRow
        verbose_name = _("Software Deployments")
        status_columns = ["status"]
        no_data_message = _(
            "No software deployments yet. Deployments appear here once a "
            "stack applies a software config to a server, or an action is "
            "run on one.")
