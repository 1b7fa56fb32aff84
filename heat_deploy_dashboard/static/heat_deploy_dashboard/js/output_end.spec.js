(function () {
  'use strict';

  var LONG = Array.from({length: 200}, function (x, n) { return 'line ' + n; }).join('\n');

  describe('output_end.js', function () {
    function box(attributes) {
      return $('<pre class="hdd-output" style="height: 60px; overflow: auto">').attr(attributes)
        .text(LONG);
    }

    function atEnd(pre) {
      return pre.scrollTop > 0 && pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 1;
    }

    it('shows the end of each output box first', function () {
      var $fixture = hddSpec.fixture();
      var $first = box({'data-end-first': ''}).appendTo($fixture);
      var $second = box({'data-end-first': ''}).appendTo($fixture);
      var $plain = box({}).appendTo($fixture);
      hddSpec.init('output_end');
      expect(atEnd($first[0])).toBe(true);
      expect(atEnd($second[0])).toBe(true);
      expect($plain[0].scrollTop).toBe(0);
    });

    it('scrolls a box on a hidden tab when the tab is shown, once', function () {
      var $tab = $('<div style="display: none">').appendTo(hddSpec.fixture());
      var $pre = box({'data-end-first': ''}).appendTo($tab);
      hddSpec.init('output_end');
      $tab.show();
      expect($pre[0].scrollTop).toBe(0);
      $(document).trigger('shown.bs.tab');
      expect(atEnd($pre[0])).toBe(true);
      // A person scrolled back up: showing a tab again leaves it there.
      $pre[0].scrollTop = 0;
      $(document).trigger('shown.bs.tab');
      expect($pre[0].scrollTop).toBe(0);
    });

    it('leaves a box where a marked line put it (output_line.js)', function () {
      var $pre = box({'data-end-first': ''}).appendTo(hddSpec.fixture());
      $pre.data('hddAtEnd', true);
      hddSpec.init('output_end');
      expect($pre[0].scrollTop).toBe(0);
    });
  });
}());
