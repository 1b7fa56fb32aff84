(function () {
  'use strict';

  describe('use_value.js', function () {
    it('puts the newer value into its input, as text, and tells the form', function () {
      var value = '<b>10.0.0.5</b> & "x"';
      var $fixture = hddSpec.fixture('<input id="id_input_ip" value="10.0.0.4">' +
        '<button type="button" class="hdd-use-value" data-target="id_input_ip">Use</button>');
      $fixture.find('button').attr('data-value', value);
      var heard = jasmine.createSpy('input');
      $('#id_input_ip').on('input', heard);
      $fixture.find('button').trigger('click');
      expect($('#id_input_ip').val()).toBe(value);
      expect(heard).toHaveBeenCalledTimes(1);
      expect($fixture.find('b').length).toBe(0);
    });

    it('does nothing when its input is not on the page', function () {
      var $fixture = hddSpec.fixture('<input id="id_other" value="keep">' +
        '<button type="button" class="hdd-use-value" data-target="id_gone" data-value="new">' +
        'Use</button>');
      expect(function () { $fixture.find('button').trigger('click'); }).not.toThrow();
      expect($('#id_other').val()).toBe('keep');
    });

    it('marks the input as changed from its default (input-defaults.js)', function () {
      var $fixture = hddSpec.fixture('<div class="form-group"><input id="id_input_n" value="1" ' +
        'data-hdd-default="1"></div><button type="button" class="hdd-use-value" ' +
        'data-target="id_input_n" data-value="2">Use</button>');
      $fixture.find('button').trigger('click');
      expect($fixture.find('.form-group').hasClass('hdd-changed')).toBe(true);
    });
  });
}());
