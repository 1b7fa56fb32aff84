(function () {
  'use strict';

  describe('rolling_refresh.js', function () {
    var source;
    var fakeWindow;
    var script;

    beforeAll(function () {
      return hddSpec.source('rolling_refresh').then(function (text) { source = text; });
    });

    // Its own window: a real reload would end the Karma run.
    beforeEach(function () {
      jasmine.clock().install();
      fakeWindow = {location: {reload: jasmine.createSpy('reload')}};
      script = hddSpec.evaluate(source, fakeWindow);
    });

    afterEach(function () {
      jasmine.clock().uninstall();
    });

    function page(extra) {
      return hddSpec.fixture('<div class="hdd-rolling" data-refresh-seconds="5">Batch 2 of 4' +
        '</div><table id="operation"><tbody><tr><td><input type="checkbox" ' +
        'class="table-row-multi-select"></td></tr></tbody></table>' + (extra || ''));
    }

    it('reloads the page every few seconds while a rolling run goes on', function () {
      page();
      script.init();
      jasmine.clock().tick(4999);
      expect(fakeWindow.location.reload).not.toHaveBeenCalled();
      jasmine.clock().tick(1);
      expect(fakeWindow.location.reload).toHaveBeenCalledTimes(1);
    });

    it('waits while a dialog is open', function () {
      page('<div class="modal in"></div>');
      script.init();
      jasmine.clock().tick(15000);
      expect(fakeWindow.location.reload).not.toHaveBeenCalled();
      $('.modal').removeClass('in');
      jasmine.clock().tick(5000);
      expect(fakeWindow.location.reload).toHaveBeenCalledTimes(1);
    });

    it('waits while a row is ticked', function () {
      page().find('input').prop('checked', true);
      script.init();
      jasmine.clock().tick(10000);
      expect(fakeWindow.location.reload).not.toHaveBeenCalled();
      $('#operation input').prop('checked', false);
      jasmine.clock().tick(5000);
      expect(fakeWindow.location.reload).toHaveBeenCalledTimes(1);
    });

    it('does not reload a page without a rolling run', function () {
      hddSpec.fixture('<table id="operation"><tbody></tbody></table>');
      script.init();
      jasmine.clock().tick(600000);
      expect(fakeWindow.location.reload).not.toHaveBeenCalled();
    });
  });
}());
