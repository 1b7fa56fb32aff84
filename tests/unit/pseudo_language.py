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

"""A pseudo-language for the translation tests (test_pseudo_translation): every msgstr of the
plugin's catalogue template its msgid wrapped in PSEUDO_OPEN ... PSEUDO_CLOSE, with Horizon's,
openstack_auth's and Django's sentences, and what of a rendered page is still English."""

import functools
import glob
import html.parser
import os
import re

from babel.messages import catalog as babel_catalog
from babel.messages import mofile
from babel.messages import pofile
import django
import horizon
import openstack_auth
import openstack_dashboard

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOCALE = os.path.join(REPO, 'heat_deploy_dashboard', 'locale')
EXTRACT = os.path.join(REPO, 'tools', 'extract_messages.sh')

PSEUDO = 'xx'
PSEUDO_OPEN, PSEUDO_CLOSE = '\u27e6', '\u27e7'


def pseudo(text):
    return PSEUDO_OPEN + text + PSEUDO_CLOSE if text else text


def read_catalogue(path):
    """A catalogue (.po or .pot) as Babel reads it."""
    with open(path, 'rb') as po:
        return pofile.read_po(po)


def _largest_catalogue(package, domain='django'):
    """The most complete translation of a package of Horizon's or Django's: its msgids."""
    found = glob.glob(os.path.join(package, 'locale', '*', 'LC_MESSAGES', domain + '.po'))
    return max(found, key=os.path.getsize) if found else None


@functools.lru_cache(maxsize=None)
def _others_messages():
    """Horizon's, openstack_auth's and Django's msgids (they translate themselves)."""
    ids = []
    for package in (horizon, openstack_dashboard, openstack_auth, django):
        path = _largest_catalogue(os.path.dirname(package.__file__)
                                  if package is not django
                                  else os.path.join(os.path.dirname(django.__file__),
                                                    'conf'))
        if path:
            ids += [(message.id, message.context) for message in read_catalogue(path)
                    if message.id]
    return ids


def build_pseudo_locale(directory):
    """directory/xx/LC_MESSAGES/django.mo: the plugin's catalogue template pseudo-translated,
    and the others' sentences with it."""
    ours = read_catalogue(os.path.join(LOCALE, 'django.pot'))
    # Babel takes English's plural rule: one, other.
    built = babel_catalog.Catalog(locale='en', domain='django')
    for msgid, context in _others_messages():
        built.add(msgid, _pseudo_string(msgid), context=context)
    for message in ours:
        if message.id:
            built.add(message.id, _pseudo_string(message.id), context=message.context)
    messages = os.path.join(directory, PSEUDO, 'LC_MESSAGES')
    os.makedirs(messages)
    with open(os.path.join(messages, 'django.mo'), 'wb') as mo:
        mofile.write_mo(mo, built)
    return ours


def _pseudo_string(msgid):
    if isinstance(msgid, (tuple, list)):
        return tuple(pseudo(each) for each in msgid)
    return pseudo(msgid)


# --- What is English --------------------------------------------------------------------

# The attributes a person reads (and those of the plugin's scripts' sentences).
_READ_ATTRIBUTES = {'title', 'placeholder', 'aria-label', 'alt', 'data-original-title',
                    'data-content', 'data-confirm-body', 'data-dismiss-label', 'data-label',
                    'data-counted', 'data-hidden-chosen'}
_READ_DATA_ATTRIBUTE = re.compile(r'^data-[a-z-]*-(text|link|label)$')
_VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
         'track', 'wbr'}
_BUTTON_TYPES = {'submit', 'button', 'reset'}
# Scripts' data; what servers wrote, config bodies and values (data, in <pre>); the values of
# text fields (the fixtures', or what the user typed); and the openstack client's commands
# (heat_deploy_dashboard/_cli.html), which are the command line's own words.
_SKIPPED_ELEMENTS = {'script', 'style', 'pre', 'textarea'}
_SKIPPED_CLASSES = {'hdd-cli-command'}
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
# A chunk of text with a digit or joined by these inside it is data: an id, a name such as
# mysql-BACKUP or demo-db-1, a path, a time, a file name, a duration's figures.
_DATA_CHUNK = re.compile(r"\d|\w[-_/.:@=#]+\w")


def english_words(text, data, depth=0):
    """The words of text outside the pseudo-translated parts (depth: the brackets open before
    it, as a sentence may hold an element) that are English left untranslated, not the
    fixtures' data; and the brackets open after it."""
    segments, outside = [], []
    for character in text + PSEUDO_OPEN:
        if character in (PSEUDO_OPEN, PSEUDO_CLOSE):
            if not depth:
                segments.append(''.join(outside))
            outside = []
            depth = depth + 1 if character == PSEUDO_OPEN else max(0, depth - 1)
        elif not depth:
            outside.append(character)
    depth -= 1
    found = []
    for segment in segments:
        if segment.strip() in data:
            continue
        for chunk in segment.split():
            chunk = chunk.strip('.,;:!?()[]{}"\u201c\u201d\u2018\u2019<>*\u2026\u00b7|')
            if not chunk or _DATA_CHUNK.search(chunk):
                continue
            found += [word for word in _WORD.findall(chunk)
                      if not word.isupper() and word.lower() not in data.words]
    return found, depth


def _strings_in(value, seen=None):
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, each in value.items():
            yield from _strings_in(key, seen)
            yield from _strings_in(each, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for each in value:
            yield from _strings_in(each, seen)
    elif hasattr(value, '__dict__') and not isinstance(value, type) and \
            type(value).__module__.startswith(('heat_deploy_runner', 'heatclient',
                                               'mistralclient')):
        yield from _strings_in(vars(value), seen)


# Words in what the pages show that are neither English nor ours: data of Horizon's test user
# and of the fixtures, and the names of things (services, formats) that are not translated.
NOT_ENGLISH = {
    'heat', 'mistral', 'zaqar', 'swift', 'keystone', 'nova', 'openstack', 'yaml', 'json',
    'csv', 'cron', 'utc', 'ssh', 'http', 'https', 'test', 'user', 'admin', 'demo',
    # Values as a template writes them (a Boolean input's).
    'true', 'false',
}


@functools.lru_cache(maxsize=None)
def fixture_data(*modules):
    """The strings of the fixtures in these modules (their upper-case names: the pages show
    them, or parts of them, as they are) and the words of those that are one word (names,
    values)."""
    texts, words = set(), set(NOT_ENGLISH)
    for module in modules:
        for name, value in vars(module).items():
            if name.isupper():
                for text in _strings_in(value):
                    texts.add(text.strip())
                    texts.update(line.strip() for line in text.splitlines())
                    if len(text.split()) == 1:
                        words.update(word.lower() for word in _WORD.findall(text))
    return Data(frozenset(texts), frozenset(words))


class Data:

    def __init__(self, texts, words):
        self.texts, self.words = texts, words

    def __contains__(self, text):
        """Whether text is all the fixtures' own: one of their strings or lines, or a long
        enough part of one (an output's end, a name in a sentence)."""
        text = text.strip()
        return not text or text in self.texts or (
            len(text) >= 16 and any(text in each for each in self.texts))


class _PluginPart(html.parser.HTMLParser):
    """The text and read attributes of a page's content region (#content_body, Horizon's
    messages and the title), or of all of a part (a modal, a tab)."""

    def __init__(self, whole, data):
        super().__init__(convert_charrefs=True)
        self.whole = whole
        self.depth = 0  # Open divs inside #content_body; 0: outside.
        self.in_title = False
        self.in_messages = 0
        self.found = []  # (where, text, words)
        self.path = []
        self.data = data
        self.depth_of_brackets = 0
        self.skipped = []  # The tags of the skipped elements open.

    def _inside(self):
        return self.whole or self.depth > 0 or self.in_title or self.in_messages > 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == 'div':
            if self.depth:
                self.depth += 1
            elif attrs.get('id') == 'content_body':
                self.depth = 1
            if self.in_messages:
                self.in_messages += 1
            elif 'messages' in (attrs.get('class') or '').split():
                self.in_messages = 1
        if tag == 'title':
            self.in_title = True
        if tag in _SKIPPED_ELEMENTS or self.skipped or \
                _SKIPPED_CLASSES & set((attrs.get('class') or '').split()):
            if tag not in _VOID:
                self.skipped.append(tag)
        if not self._inside():
            return
        where = '<%s%s>' % (tag, ''.join(
            ' %s="%s"' % (name, attrs[name]) for name in ('id', 'class', 'name')
            if attrs.get(name)))
        for name, value in attrs.items():
            if not value:
                continue
            if name in _READ_ATTRIBUTES or _READ_DATA_ATTRIBUTE.match(name) or (
                    name == 'value' and tag == 'input'
                    and attrs.get('type') in _BUTTON_TYPES):
                words = english_words(value, self.data)[0]
                if words:
                    self.found.append(('%s %s=' % (where, name), value, words))
        if tag not in _VOID:
            self.path.append(where)

    def handle_endtag(self, tag):
        if tag == 'div':
            if self.depth:
                self.depth -= 1
            if self.in_messages:
                self.in_messages -= 1
        if tag == 'title':
            self.in_title = False
        if self.skipped and self.skipped[-1] == tag:
            self.skipped.pop()
        if self.path and self.path[-1].startswith('<%s' % tag):
            self.path.pop()

    def handle_data(self, text):
        if self.skipped or not self._inside():
            return
        words, self.depth_of_brackets = english_words(text, self.data, self.depth_of_brackets)
        if words:
            self.found.append((self.path[-1] if self.path else '(text)', text.strip(), words))


def english_in(content, whole, data):
    part = _PluginPart(whole, data)
    part.feed(content)
    part.close()
    return part.found
