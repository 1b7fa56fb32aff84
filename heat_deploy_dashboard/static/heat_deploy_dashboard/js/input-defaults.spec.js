(function () {
  'use strict';

  var FORM = '<form>' +
    '<div class="form-group" id="g-text"><input type="text" value="5" data-hdd-default="5"></div>' +
    '<div class="form-group" id="g-box"><input type="checkbox" checked ' +
    'data-hdd-default="true"></div>' +
    '<div class="form-group" id="g-select"><select data-hdd-default="b">' +
    '<option>a</option><option selected>b</option></select></div>' +
    '<div class="form-group" id="g-plain"><input type="text" value="x"></div>' +
    '</form>';

  function changed() {
    return $('.form-group.hdd-changed').map(function () { return this.id; }).get();
  }

  describe('input-defaults.js', function () {
    it('marks nothing while every input has its default', function () {
      hddSpec.fixture(FORM);
      hddSpec.init('input-defaults');
      expect(changed()).toEqual([]);
    });

    it('marks an input drawn with another value', function () {
      hddSpec.fixture(FORM).find('#g-text input').attr('value', '7');
      hddSpec.init('input-defaults');
      expect(changed()).toEqual(['g-text']);
    });

    it('marks an input as it is changed, and unmarks it when set back', function () {
      hddSpec.fixture(FORM);
      hddSpec.init('input-defaults');
      $('#g-text input').val('6').trigger('input');
      expect(changed()).toEqual(['g-text']);
      $('#g-box input').prop('checked', false).trigger('change');
      $('#g-select select').val('a').trigger('change');
      expect(changed()).toEqual(['g-text', 'g-box', 'g-select']);
      $('#g-text input').val('5').trigger('input');
      $('#g-box input').prop('checked', true).trigger('change');
      expect(changed()).toEqual(['g-select']);
    });

    it('compares the text as it is, not as a number', function () {
      hddSpec.fixture(FORM);
      $('#g-text input').val('5.0').trigger('input');
      expect(changed()).toEqual(['g-text']);
    });

    it('marks the inputs of a form a modal loads', function () {
      var $fixture = hddSpec.fixture('<div class="modal">' + FORM + '</div>');
      $fixture.find('#g-select select').val('a');
      hddSpec.modalInit('input-defaults', $fixture.find('.modal')[0]);
      expect(changed()).toEqual(['g-select']);
    });
  });
}());
