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

"""Forms whose fields send back exactly what they were filled in with.

Horizon's escape turns {$ $} into {% %}, so a form filled in from stored data (a copied
config, a run's inputs) would save changed text, and a field named after an input with {$ in
its name would be posted under another name. These forms render their fields' names, and
their text fields' values, with HTML escaping alone (templatetags/hdd_verbatim.py), which is
safe because every template of these forms marks its <form> ng-non-bindable.
"""

from django import forms

from heat_deploy_dashboard.templatetags import hdd_verbatim


def _verbatim_context(widget):
    get_context = widget.get_context
    is_text = isinstance(widget, (forms.TextInput, forms.Textarea))

    def context(name, value, attrs):
        found = get_context(name, value, attrs)
        shown = found['widget']
        shown['name'] = hdd_verbatim.verbatim_html(shown['name'])
        if is_text and shown['value'] is not None:
            shown['value'] = hdd_verbatim.verbatim_html(shown['value'])
        return found

    context.verbatim = True
    return context


class VerbatimFieldsMixin:
    """For a form: its fields' names and text values render verbatim. Applied as each field
    is rendered, so fields added after the form's __init__ are covered too."""

    def __getitem__(self, name):
        bound = super().__getitem__(name)
        widget = bound.field.widget
        if not getattr(widget.get_context, 'verbatim', False):
            widget.get_context = _verbatim_context(widget)
        return bound
