(function () {
  'use strict';

  function page(silentAfter) {
    return '<div class="hdd-live" data-live-for="d-1" data-stdout-bytes="0" ' +
      'data-stderr-bytes="0" data-silent-after="' + silentAfter + '" ' +
      'data-live-text="Live." data-not-shown-text="… %(bytes)s bytes not shown live …" ' +
      'data-dropped-text="… earlier lines dropped …">' +
      '<p class="hdd-live-state">Waiting.</p>' +
      '<p class="hdd-live-silent hidden">Nothing came.</p>' +
      '<div class="hdd-live-follow"><label><input type="checkbox" checked> Follow</label></div>' +
      '<pre data-stream="stdout" style="height: 50px; overflow-y: auto"></pre>' +
      '<pre data-stream="stderr" style="height: 50px; overflow-y: auto"></pre></div>';
  }

  function snapshot(fields) {
    return $.extend({seq: 1, stdout: '', stderr: '', stdout_bytes: 0, stderr_bytes: 0,
                     stdout_not_shown: 0, stderr_not_shown: 0}, fields);
  }

  function send(got) {
    $('.hdd-live').trigger('hdd:live-output', [got]);
  }

  function box(stream) {
    return $('pre[data-stream="' + stream + '"]')[0];
  }

  function lines(count, from) {
    var text = '';
    for (var n = from || 0; n < (from || 0) + count; n += 1) {
      text += 'line ' + n + '\n';
    }
    return text;
  }

  function start(silentAfter) {
    hddSpec.fixture(page(silentAfter === undefined ? 3600 : silentAfter));
    hddSpec.init('live_output');
  }

  describe('live_output.js', function () {
    it('adds what is new as text, and keeps the totals for the next poll', function () {
      start();
      send(snapshot({stdout: '<b>{$ 7*7 $}</b>\n', stdout_bytes: 19, stderr: 'warn\n',
                     stderr_bytes: 5}));
      send(snapshot({seq: 2, stdout: 'two\n', stdout_bytes: 23, stderr_bytes: 5}));
      expect(box('stdout').textContent).toBe('<b>{$ 7*7 $}</b>\ntwo\n');
      expect($(box('stdout')).find('b').length).toBe(0);
      expect(box('stderr').textContent).toBe('warn\n');
      expect($('.hdd-live').attr('data-stdout-bytes')).toBe('23');
      expect($('.hdd-live').attr('data-stderr-bytes')).toBe('5');
      expect($('.hdd-live-state').text()).toBe('Live.');
    });

    it('shows ANSI escapes, NUL and markup as the characters they are', function () {
      start();
      var sent = '\u001b[31mred\u001b[0m \u0000 <img src=x onerror=alert(1)> {{ 1+1 }}\n';
      send(snapshot({stdout: sent, stdout_bytes: sent.length}));
      expect(box('stdout').textContent).toBe(sent);
      expect($(box('stdout')).children().length).toBe(0);
    });

    it('says how much the server no longer held, on a line of its own', function () {
      start();
      send(snapshot({stdout: 'half a line', stdout_bytes: 11}));
      send(snapshot({stdout: 'tail\n', stdout_bytes: 2016, stdout_not_shown: 2000}));
      expect(box('stdout').textContent).toBe(
        'half a line\n… ' + (2000).toLocaleString() + ' bytes not shown live …\ntail\n');
      expect($(box('stdout')).find('.hdd-live-gap').length).toBe(1);
      send(snapshot({stderr: 'e\n', stderr_bytes: 9, stderr_not_shown: 7}));
      expect(box('stderr').textContent).toBe('… 7 bytes not shown live …\ne\n');
    });

    it('keeps at most a million characters, the newest, and says so', function () {
      start();
      var chunk = new Array(300001).join('x') + '\n';
      for (var n = 1; n <= 4; n += 1) {
        send(snapshot({seq: n, stdout: chunk, stdout_bytes: n * chunk.length}));
      }
      var kept = box('stdout').textContent;
      expect(kept.length).toBeLessThan(1000000);
      expect(kept.indexOf('… earlier lines dropped …\n')).toBe(0);
      expect(kept.slice(-chunk.length)).toBe(chunk);
      expect($(box('stdout')).find('.hdd-live-dropped').length).toBe(1);
    });

    it('says the image may lack the hook once the server stays silent too long', function () {
      start(0);
      send(null);
      expect($('.hdd-live-silent').hasClass('hidden')).toBe(false);
      send(snapshot({stdout: 'at last\n', stdout_bytes: 8}));
      expect($('.hdd-live-silent').hasClass('hidden')).toBe(true);
    });

    it('says nothing of silence before then', function () {
      start(3600);
      send(null);
      expect($('.hdd-live-silent').hasClass('hidden')).toBe(true);
      expect($('.hdd-live-state').text()).toBe('Waiting.');
    });

    it('leaves all as it is when the poll could not tell', function () {
      start(0);
      send(undefined);
      expect($('.hdd-live-silent').hasClass('hidden')).toBe(true);
      expect($('.hdd-live-state').text()).toBe('Waiting.');
    });

    it('says a failed read as the reply says it, as text, until the next lines', function () {
      start();
      send({error: 'Could not <i>read</i>.'});
      expect($('.hdd-live-state').text()).toBe('Could not <i>read</i>.');
      expect($('.hdd-live-state').hasClass('text-danger')).toBe(true);
      send(snapshot({stdout: 'x\n', stdout_bytes: 2}));
      expect($('.hdd-live-state').text()).toBe('Live.');
      expect($('.hdd-live-state').hasClass('text-danger')).toBe(false);
    });

    describe('Follow', function () {
      function follow() {
        return $('.hdd-live-follow input').prop('checked');
      }

      function atEnd(element) {
        return element.scrollTop + element.clientHeight >= element.scrollHeight - 4;
      }

      it('keeps the newest lines in view', function () {
        start();
        send(snapshot({stdout: lines(40), stdout_bytes: 1}));
        expect(box('stdout').scrollTop).toBeGreaterThan(0);
        expect(atEnd(box('stdout'))).toBe(true);
      });

      it('stops when the reader scrolls up, and the view stays as new lines come', function () {
        start();
        send(snapshot({stdout: lines(40), stdout_bytes: 1}));
        box('stdout').scrollTop = 0;
        $(box('stdout')).trigger('scroll');
        expect(follow()).toBe(false);
        send(snapshot({stdout: lines(40, 40), stdout_bytes: 2}));
        expect(box('stdout').scrollTop).toBe(0);
      });

      it('starts again at the end, or when ticked', function () {
        start();
        send(snapshot({stdout: lines(40), stdout_bytes: 1, stderr: lines(40),
                       stderr_bytes: 1}));
        box('stdout').scrollTop = 0;
        $(box('stdout')).trigger('scroll');
        box('stdout').scrollTop = box('stdout').scrollHeight;
        $(box('stdout')).trigger('scroll');
        expect(follow()).toBe(true);

        box('stdout').scrollTop = 0;
        box('stderr').scrollTop = 0;
        $(box('stdout')).trigger('scroll');
        $('.hdd-live-follow input').prop('checked', true).trigger('change');
        expect(atEnd(box('stdout')) && atEnd(box('stderr'))).toBe(true);
        // Unticked, it leaves the boxes where they are.
        box('stdout').scrollTop = 0;
        $('.hdd-live-follow input').prop('checked', false).trigger('change');
        expect(box('stdout').scrollTop).toBe(0);
      });
    });
  });
}());
