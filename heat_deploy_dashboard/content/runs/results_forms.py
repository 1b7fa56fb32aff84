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

"""The filters of an operation's results (results_views): a GET form, so a search is a link
a person can share and the downloads take the same query."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from heat_deploy_dashboard.content.runs import tables as run_tables
from heat_deploy_runner.outputs import output_search

STREAMS = ('deploy_stdout', 'deploy_stderr')


class ResultsFilterForm(forms.Form):
    q = forms.CharField(label=_("Search the outputs for"), required=False, max_length=200,
                        strip=False, help_text=_("Plain text, any case."))
    status = forms.ChoiceField(label=_("Status"), required=False,
                               choices=(('', _("Any")),) + run_tables.STATUS_DISPLAY_CHOICES)
    exit_code = forms.IntegerField(label=_("Exit Code"), required=False)
    output = forms.ChoiceField(label=_("Output"), required=False,
                               help_text=_("Grouped by what it said; filtered by its value."))
    value = forms.CharField(label=_("Its value"), required=False, max_length=1000)

    def __init__(self, data, output_names):
        super().__init__(data)
        self.fields['output'].choices = [(name, name) for name in (*STREAMS, *output_names)]
        for field in self.fields.values():
            field.widget.attrs['class'] = 'form-control'

    def clean_q(self):
        text = self.cleaned_data['q']
        if text and len(text.strip()) < output_search.MIN_TEXT:
            raise forms.ValidationError(ngettext(
                "Search for at least %(count)d character.",
                "Search for at least %(count)d characters.",
                output_search.MIN_TEXT) % {'count': output_search.MIN_TEXT})
        return text

    @property
    def chosen_output(self):
        return (self.cleaned_data.get('output') if self.is_valid() else None) \
            or STREAMS[0]
