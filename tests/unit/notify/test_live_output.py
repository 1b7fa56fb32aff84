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

"""What a snapshot carries of a stream: its end (64 KiB at most), masked wherever the reads
cut a secret, whole characters, and the stream's whole size."""

import json

from heat_deploy_notify import live_output
from heat_deploy_runner import masking
from heat_deploy_runner.signalling import live

SECRET = 'hunter2-s3cret'


def _snapshots(pieces, secrets=(SECRET,), tail=live_output.TAIL):
    """The (text, size) a stream holds after each piece is read, then after the script's
    exit."""
    stream = live_output.StreamTail(live_output.Scrubber(secrets), tail)
    taken = []
    for piece in [*pieces, None]:
        if piece is None:
            stream.close()
        else:
            stream.add(piece)
        text, size = stream.snapshot()
        taken.append((text.decode('utf-8'), size))
    return taken


def _texts(pieces, **kwargs):
    return [text for text, _size in _snapshots(pieces, **kwargs)]


def test_the_mask_and_the_tail_are_the_runners():
    assert live_output.MASK.decode() == masking.MASK
    assert live_output.SCRUBBED_LENGTH == masking.SCRUBBED_LENGTH
    assert live_output.TAIL == live.TAIL_BYTES


def test_a_secret_is_masked_also_when_written_in_pieces():
    pieces = [b'password: hun', b'ter2-s3', b'cret\nagain ' + SECRET.encode() + b'\n']
    # Nothing that may begin the secret shows before the rest is known.
    assert _texts(pieces) == ['password: ', 'password: ', 'password: ********\nagain ********\n',
                              'password: ********\nagain ********\n']


def test_the_size_counts_the_masked_stream():
    assert _snapshots([b'a ' + SECRET.encode() + b'\n'])[0] == ('a ********\n', 11)


def test_text_that_cannot_begin_a_secret_is_never_held():
    assert _texts([b'installing hu', b'ge packages\n'])[0] == 'installing '
    assert _texts([b'plain text\n'], secrets=())[0] == 'plain text\n'


def test_the_start_of_a_secret_shows_at_the_end_unmasked_if_the_rest_never_comes():
    # It is no secret then: what the script wrote, as the result has it.
    assert _snapshots([b'hunter'])[-2:] == [('', 0), ('hunter', 6)]


def test_short_values_are_not_masked():
    assert _texts([b'on 1 abc'], secrets=('abc', 'on'))[0] == 'on 1 abc'


def test_overlapping_secrets_are_masked_together():
    assert _texts([b'xabcdef!'], secrets=('xabc', 'abcdef'))[-1] == '********!'


def test_a_character_is_never_split():
    snowman = '\u2603'.encode()
    assert _texts([b'a' + snowman[:1], snowman[1:2], snowman[2:] + b'b'], secrets=()) == [
        'a', 'a', 'a\u2603b', 'a\u2603b']


def test_bytes_that_are_no_text_count_as_the_character_that_replaces_them():
    # The sizes tell a reader how much of the text is new: they count the text's bytes.
    assert _snapshots([b'a\xffb\n'], secrets=()) == [('a\ufffdb\n', 6)] * 2
    assert _snapshots([b'a\xe2\x98'], secrets=())[-1] == ('a\ufffd', 4)


def test_a_chatty_stream_keeps_its_end_and_counts_all_of_it():
    written = b''.join(b'%09d\n' % number for number in range(1_000_000))  # 10 MB
    stream = live_output.StreamTail(live_output.Scrubber(()))
    for at in range(0, len(written), 65536):
        stream.add(written[at:at + 65536])
    assert stream.snapshot() == (written[-live_output.TAIL:], len(written))


def test_a_secret_cut_by_the_tail_shows_none_of_itself():
    # Masked before the tail is cut: its mask scrolls away, never its end.
    stream = live_output.StreamTail(live_output.Scrubber([SECRET]), tail=20)
    stream.add(b'before ' + SECRET.encode())
    stream.add(b' and after it')
    text, size = stream.snapshot()
    assert (text, size) == (b'*' * 7 + b' and after it', len(b'before ******** and after it'))


def test_a_tail_never_begins_inside_a_character():
    stream = live_output.StreamTail(live_output.Scrubber(()), tail=5)
    stream.add('\u2603\u2603\u2603'.encode())  # 9 bytes: the last 5 begin mid-character
    assert stream.snapshot() == ('\u2603'.encode(), 9)


def test_a_body_is_a_snapshot_of_both_streams():
    data = live_output.body(4, False, None, {'stdout': (b'out\n', 1000),
                                             'stderr': (b'', 12)})
    assert json.loads(data) == {'seq': 4, 'final': False, 'status_code': None,
                                'stdout': 'out\n', 'stderr': '', 'stdout_bytes': 1000,
                                'stderr_bytes': 12}


def test_the_runner_reads_a_body_as_the_snapshot_it_is():
    data = live_output.body(2, True, 0, {'stdout': (b'\xc3\xa9t\xc3\xa9\n', 7),
                                         'stderr': (b'err\n', 4)})
    assert live.Snapshot.of(data) == live.Snapshot(seq=2, stdout='\u00e9t\u00e9\n',
                                                   stderr='err\n', stdout_bytes=7,
                                                   stderr_bytes=4, final=True)


def test_a_body_stays_within_a_zaqar_message_whatever_json_escapes():
    control = b'\x01' * live_output.TAIL
    data = live_output.body(1, True, 0, {'stdout': (control, 10 ** 6),
                                         'stderr': (control, 70000)})
    sent = json.loads(data)
    assert len(data) <= live_output.MAX_BODY
    assert (sent['stdout_bytes'], sent['stderr_bytes']) == (10 ** 6, 70000)
    assert sent['stdout'] and sent['stdout'] == '\x01' * len(sent['stdout'])


def test_the_last_line_is_the_first_tails_last_line_that_is_not_blank():
    assert live_output.last_line([b'one\ntwo\n  \n', b'err\n']) == 'two'
    assert live_output.last_line([b'\n', b'err\r']) == 'err'
    assert live_output.last_line([b'', b'']) == ''


def test_the_last_line_is_cut_to_its_bytes_before_a_whole_character():
    line = live_output.last_line([('x' + '\u00e9' * 150).encode()])
    assert line == 'x' + '\u00e9' * 99
    assert len(line.encode()) == 199
