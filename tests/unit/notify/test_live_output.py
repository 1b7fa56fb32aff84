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

"""What a send carries of a stream: the newest 64 KiB, secrets masked wherever the pieces
are cut, whole characters, and what was left out counted."""

import json

from heat_deploy_notify import live_output
from heat_deploy_runner import masking

SECRET = 'hunter2-s3cret'


def _sends(pieces, secrets=(SECRET,), limit=live_output.LIMIT):
    """The text each piece makes a send of (then the final one), and the skipped counts."""
    stream = live_output.StreamOutput(live_output.Scrubber(secrets), limit)
    sent = []
    for piece in [*pieces, None]:
        if piece is not None:
            stream.add(piece)
        out, skipped = stream.text(*stream.drain(), final=piece is None)
        sent.append((out.decode('utf-8', 'replace'), skipped))
    return sent


def test_the_mask_is_the_runners():
    assert live_output.MASK.decode() == masking.MASK
    assert live_output.SCRUBBED_LENGTH == masking.SCRUBBED_LENGTH


def test_a_secret_is_masked_also_when_written_in_pieces():
    pieces = [b'password: hun', b'ter2-s3', b'cret\nagain ' + SECRET.encode() + b'\n']
    sent = _sends(pieces)
    assert SECRET not in ''.join(text for text, _ in sent)
    assert ''.join(text for text, _ in sent) == 'password: ********\nagain ********\n'
    # Nothing that may begin the secret goes before the rest is known.
    assert [text for text, _ in sent] == ['password: ', '', '********\nagain ********\n', '']


def test_text_that_cannot_begin_a_secret_is_never_held():
    assert _sends([b'installing hu', b'ge packages\n'])[0] == ('installing ', 0)
    assert _sends([b'plain text\n'], secrets=())[0] == ('plain text\n', 0)


def test_the_start_of_a_secret_goes_at_the_end_unmasked_if_the_rest_never_comes():
    # It is no secret then: what the script wrote, as the result has it.
    assert _sends([b'hunter'])[-1] == ('hunter', 0)


def test_short_values_are_not_masked():
    assert _sends([b'on 1 abc'], secrets=('abc', 'on'))[0][0] == 'on 1 abc'


def test_overlapping_secrets_are_masked_together():
    sent = _sends([b'xabcdef!'], secrets=('xabc', 'abcdef'))
    assert ''.join(text for text, _ in sent) == '********!'


def test_a_character_is_never_split_between_sends():
    snowman = '\u2603'.encode()
    sent = _sends([b'a' + snowman[:1], snowman[1:2], snowman[2:] + b'b'], secrets=())
    assert [text for text, _ in sent] == ['a', '', '\u2603b', '']


def test_bytes_that_are_no_text_are_replaced():
    assert _sends([b'a\xffb\n'], secrets=())[0][0] == 'a\ufffdb\n'


def test_a_chatty_stream_keeps_its_newest_output_and_counts_the_rest():
    written = b''.join(b'%09d\n' % number for number in range(1_000_000))  # 10 MB
    stream = live_output.StreamOutput(live_output.Scrubber(()))
    for at in range(0, len(written), 65536):
        stream.add(written[at:at + 65536])
    out, skipped = stream.text(*stream.drain(), final=False)
    assert len(out) == live_output.LIMIT
    assert out == written[-live_output.LIMIT:]
    assert skipped + len(out) == len(written)


def test_a_secret_cut_by_the_limit_leaves_none_of_itself():
    # The limit cuts through the secret: its end is left out with what came before.
    tail = b'x' * (live_output.LIMIT - 6)
    stream = live_output.StreamOutput(live_output.Scrubber([SECRET]))
    stream.add(b'before ' + SECRET.encode() + tail)
    out, skipped = stream.text(*stream.drain(), final=False)
    assert out == tail
    assert skipped == len('before ' + SECRET)


def test_a_cut_never_begins_inside_a_character():
    stream = live_output.StreamOutput(live_output.Scrubber(()), limit=5)
    stream.add('\u2603\u2603\u2603'.encode())  # 9 bytes: the newest 5 begin mid-character
    out, skipped = stream.text(*stream.drain(), final=False)
    assert (out.decode(), skipped) == ('\u2603', 6)


def test_a_body_says_what_each_stream_carries():
    data, lost = live_output.body(4, False, None, {'stdout': (b'out\n', 0),
                                                   'stderr': (b'', 12)})
    assert json.loads(data) == {'seq': 4, 'final': False, 'status_code': None,
                                'stdout': 'out\n', 'stderr': '', 'skipped_stdout': 0,
                                'skipped_stderr': 12}
    assert lost == {'stdout': 4, 'stderr': 12}


def test_a_body_stays_within_a_zaqar_message_whatever_json_escapes():
    control = b'\x01' * live_output.LIMIT
    data, _lost = live_output.body(1, True, 0, {'stdout': (control, 0), 'stderr': (control, 0)})
    sent = json.loads(data)
    assert len(data) <= live_output.MAX_BODY
    assert sent['skipped_stdout'] + len(sent['stdout']) == live_output.LIMIT
    assert sent['stdout'] and sent['stdout'] == '\x01' * len(sent['stdout'])
