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

"""User text shown exactly as typed, where a person copies it or sends it back.

Horizon's escape turns {$ $} into {% %} so that AngularJS, which Horizon runs over every page,
cannot evaluate user text. That is right for text to read, and wrong for a script, a command
or a form's value, which then change when copied or submitted (awk's {$1}, PHP's {$x}).
AngularJS compiles nothing inside an element marked ng-non-bindable, so there HTML escaping
alone is safe, and this filter gives exactly that. Use it only on such an element:
tests/unit/test_verbatim.py fails a template line that uses it without ng-non-bindable.
"""

import html

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


def verbatim_html(value):
    """The text HTML-escaped, without Horizon's {$ $} replacement, marked safe."""
    return mark_safe(html.escape(str(value), quote=True))


register.filter('verbatim', verbatim_html)
