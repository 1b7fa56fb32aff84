(function () {
  'use strict';

  describe('elapsed.js', function () {
    var source;

    beforeAll(function () {
      return hddSpec.source('elapsed').then(function (text) { source = text; });
    });

    // Its once-a-second tick, started under the fake clock.
    beforeEach(function () {
      jasmine.clock().install();
      jasmine.clock().mockDate(new Date(Date.UTC(2024, 0, 1)));
      hddSpec.evaluate(source);
    });

    afterEach(function () {
      jasmine.clock().uninstall();
    });

    function cell(attributes) {
      return $('<span class="hdd-elapsed">').attr(attributes).text('as drawn')
        .appendTo(hddSpec.fixture());
    }

    it('counts up from the seconds the server measured, as the server writes them', function () {
      var $cell = cell({'data-seconds': '3725'});
      jasmine.clock().tick(999);
      expect($cell.text()).toBe('as drawn');
      jasmine.clock().tick(1);
      expect($cell.text()).toBe('1h 02m 05s');
      jasmine.clock().tick(1000);
      expect($cell.text()).toBe('1h 02m 06s');
      jasmine.clock().tick(60000);
      expect($cell.text()).toBe('1h 03m 06s');
    });

    it('writes minutes and seconds, and seconds alone', function () {
      var $minutes = cell({'data-seconds': '60'});
      var $seconds = cell({'data-seconds': '4'});
      jasmine.clock().tick(1000);
      expect($minutes.text()).toBe('1m 00s');
      expect($seconds.text()).toBe('4s');
      jasmine.clock().tick(6000);
      expect($minutes.text()).toBe('1m 06s');
      expect($seconds.text()).toBe('10s');
    });

    it('counts a time left down to zero, and no further', function () {
      var $cell = cell({'data-seconds': '65', 'data-count': 'down'});
      jasmine.clock().tick(1000);
      expect($cell.text()).toBe('1m 05s');
      jasmine.clock().tick(6000);
      expect($cell.text()).toBe('59s');
      jasmine.clock().tick(120000);
      expect($cell.text()).toBe('0s');
    });

    it('counts from zero when the figure is not a number', function () {
      var $cell = cell({'data-seconds': 'soon'});
      jasmine.clock().tick(3000);
      expect($cell.text()).toBe('2s');
    });

    it('starts again from the new figure of a row the poller replaced', function () {
      var $cell = cell({'data-seconds': '10'});
      jasmine.clock().tick(6000);
      expect($cell.text()).toBe('15s');
      var $fresh = $('<span class="hdd-elapsed" data-seconds="100">');
      $cell.replaceWith($fresh);
      jasmine.clock().tick(1000);
      expect($fresh.text()).toBe('1m 40s');
      jasmine.clock().tick(2000);
      expect($fresh.text()).toBe('1m 42s');
    });

    it('leaves a cell without a figure as drawn', function () {
      var $cell = $('<span class="hdd-elapsed">').text('3s').appendTo(hddSpec.fixture());
      jasmine.clock().tick(5000);
      expect($cell.text()).toBe('3s');
    });
  });
}());
