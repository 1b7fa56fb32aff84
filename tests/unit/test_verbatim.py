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

"""Text shown verbatim (templatetags/hdd_verbatim.py) only where AngularJS compiles nothing."""

import pathlib
import re
import unittest

from django import forms
from django import template

from heat_deploy_dashboard.content import verbatim_forms
from heat_deploy_dashboard.templatetags import hdd_verbatim

PACKAGE = pathlib.Path(hdd_verbatim.__file__).parent.parent


class VerbatimTests(unittest.TestCase):

    def test_markup_is_escaped_and_angular_braces_are_kept(self):
        shown = hdd_verbatim.verbatim_html('{$7*7$} <script>x</script> "q" \'a\' &')

        self.assertEqual('{$7*7$} &lt;script&gt;x&lt;/script&gt; &quot;q&quot; &#x27;a&#x27; '
                         '&amp;', shown)

    def test_every_use_is_on_an_element_angularjs_does_not_compile(self):
        uses = 0
        for path in PACKAGE.rglob('*.html'):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if '|verbatim' in line:
                    uses += 1
                    with self.subTest(f'{path.relative_to(PACKAGE)}:{number}'):
                        self.assertIn('ng-non-bindable', line)
        self.assertGreater(uses, 0)

    def test_every_form_with_verbatim_fields_is_not_compiled(self):
        forms = [path for path in PACKAGE.rglob('*.html')
                 if re.search(r'\{% block form_attrs %\}ng-non-bindable', path.read_text())]

        self.assertEqual({'_run_modal_form.html', '_create.html'},
                         {path.name for path in forms})
        # The run forms (Run Action, Deploy) are drawn by that one.
        runs = [path for path in PACKAGE.rglob('*.html') if path.name in
                ('_run_action.html', '_deploy.html')]
        self.assertEqual(2, len(runs))
        for path in runs:
            self.assertTrue(path.read_text().startswith(
                "{% extends 'heat_deploy_dashboard/_run_modal_form.html' %}"), path)

    def test_the_filter_is_loaded_by_name(self):
        rendered = template.Template('{% load hdd_verbatim %}{{ text|verbatim }}').render(
            template.Context({'text': '{$1}'}))

        self.assertEqual('{$1}', rendered)


class _Form(verbatim_forms.VerbatimFieldsMixin, forms.Form):
    pass


class VerbatimFieldsTests(unittest.TestCase):

    def test_names_and_text_values_render_as_stored_and_escaped(self):
        form = _Form(initial={'input__{$n$}': '{$7*7$} <b>', 'flag': True})
        # Added after __init__, as the run forms add a config's inputs.
        form.fields['input__{$n$}'] = forms.CharField()
        form.fields['body'] = forms.CharField(widget=forms.Textarea, initial='{$1}"')
        form.fields['flag'] = forms.BooleanField()

        text, body, flag = (str(form[name]) for name in ('input__{$n$}', 'body', 'flag'))

        self.assertIn('name="input__{$n$}"', text)
        self.assertIn('value="{$7*7$} &lt;b&gt;"', text)
        self.assertIn('>\n{$1}&quot;</textarea>', body)
        self.assertIn('name="flag"', flag)
        self.assertIn('checked', flag)

    def test_a_posted_form_reads_the_fields_under_their_own_names(self):
        form = _Form(data={'input__{$n$}': '{$x$}'})
        form.fields['input__{$n$}'] = forms.CharField()

        self.assertTrue(form.is_valid())
        self.assertEqual({'input__{$n$}': '{$x$}'}, form.cleaned_data)
