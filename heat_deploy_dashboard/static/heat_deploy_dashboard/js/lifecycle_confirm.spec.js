(function () {
  'use strict';

  var FORM = '<form><div class="form-group"><select name="action">' +
    '<option value="CREATE">CREATE</option><option value="DELETE">DELETE</option>' +
    '<option value="check_disk">check_disk</option></select></div>' +
    '<div class="form-group" id="confirm-group"><label><input type="checkbox" ' +
    'name="confirm_lifecycle" data-hdd-for-actions="CREATE DELETE UPDATE"> Yes</label></div>' +
    '</form>';

  describe('lifecycle_confirm.js', function () {
    function shown() {
      return $('#confirm-group').is(':visible');
    }

    it('shows the confirmation for a lifecycle action', function () {
      hddSpec.fixture(FORM);
      hddSpec.init('lifecycle_confirm');
      expect(shown()).toBe(true);
    });

    it('hides it for a custom action, and shows it again when one is chosen', function () {
      hddSpec.fixture(FORM).find('select').val('check_disk');
      hddSpec.init('lifecycle_confirm');
      expect(shown()).toBe(false);
      $('select[name="action"]').val('DELETE').trigger('change');
      expect(shown()).toBe(true);
      $('select[name="action"]').val('check_disk').trigger('change');
      expect(shown()).toBe(false);
    });

    it('matches whole action names only', function () {
      hddSpec.fixture(FORM).find('select').append('<option value="CREATE DELETE">both</option>')
        .val('CREATE DELETE');
      hddSpec.init('lifecycle_confirm');
      expect(shown()).toBe(false);
    });

    it('works on a form Horizon loads into a modal', function () {
      var $fixture = hddSpec.fixture('<div class="modal">' + FORM + '</div>');
      $fixture.find('select').val('check_disk');
      hddSpec.modalInit('lifecycle_confirm', $fixture.find('.modal')[0]);
      expect(shown()).toBe(false);
    });

    it('leaves a form without the field alone', function () {
      hddSpec.fixture('<form><select name="action"><option>check</option></select>' +
        '<div class="form-group" id="other"><input name="x"></div></form>');
      hddSpec.init('lifecycle_confirm');
      $('select[name="action"]').trigger('change');
      expect($('#other').is(':visible')).toBe(true);
    });
  });
}());
