(function () {
  'use strict';

  function radio(value, checked) {
    return '<label><input type="radio" name="transport" value="' + value + '"' +
      (checked ? ' checked' : '') + '> ' + value + '</label>';
  }

  var FORM = '<form><div class="form-group">' + radio('TEMP_URL_SIGNAL', true) +
    radio('ZAQAR_SIGNED_URL_SIGNAL') + radio('NO_SIGNAL') + '</div>' +
    '<div class="form-group" id="live-group"><label><input type="checkbox" name="live" ' +
    'data-hdd-for-transports="TEMP_URL_SIGNAL ZAQAR_SIGNED_URL_SIGNAL"> Live</label></div>' +
    '</form>';

  function choose(value) {
    $('input[name="transport"]').filter(function () { return this.value === value; })
      .prop('checked', true).trigger('change');
  }

  describe('transport_fields.js', function () {
    function shown() {
      return $('#live-group').is(':visible');
    }

    it('offers live output while the run waits for its result', function () {
      hddSpec.fixture(FORM);
      hddSpec.init('transport_fields');
      expect(shown()).toBe(true);
      choose('ZAQAR_SIGNED_URL_SIGNAL');
      expect(shown()).toBe(true);
    });

    it('hides it while no result is waited for, and shows it again', function () {
      hddSpec.fixture(FORM);
      hddSpec.init('transport_fields');
      choose('NO_SIGNAL');
      expect(shown()).toBe(false);
      choose('TEMP_URL_SIGNAL');
      expect(shown()).toBe(true);
    });

    it('works on a form Horizon loads into a modal, opened with no result waited for',
       function () {
         var $fixture = hddSpec.fixture('<div class="modal">' + FORM + '</div>');
         $fixture.find('input[value="NO_SIGNAL"]').prop('checked', true);
         hddSpec.modalInit('transport_fields', $fixture.find('.modal')[0]);
         expect(shown()).toBe(false);
       });

    it('leaves a form without the field alone', function () {
      hddSpec.fixture('<form>' + radio('NO_SIGNAL', true) +
        '<div class="form-group" id="other"><input name="x"></div></form>');
      hddSpec.init('transport_fields');
      choose('NO_SIGNAL');
      expect($('#other').is(':visible')).toBe(true);
    });
  });
}());
