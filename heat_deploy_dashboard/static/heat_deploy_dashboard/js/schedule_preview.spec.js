(function () {
  'use strict';

  describe('schedule_preview.js', function () {
    var calls;
    var $field;

    beforeEach(function () {
      jasmine.clock().install();
      calls = hddSpec.fakeAjax();
      $field = hddSpec.fixture('<div class="form-group"><input type="text" name="schedule" ' +
        'data-hdd-preview-url="/preview/"><span class="help-block">UTC</span></div>')
        .find('input');
    });

    afterEach(function () {
      jasmine.clock().uninstall();
    });

    function type(value) {
      $field.val(value).trigger('input');
    }

    function shown() {
      return $field.siblings('ul.hdd-schedule-preview').find('li').map(function () {
        return $(this).text();
      }).get();
    }

    it('asks for the next times once typing pauses, the pattern trimmed', function () {
      type('0 *');
      jasmine.clock().tick(200);
      type('  0 * * * *  ');
      jasmine.clock().tick(299);
      expect(calls.length).toBe(0);
      jasmine.clock().tick(1);
      expect(calls.length).toBe(1);
      expect(calls[0].options.url).toBe('/preview/');
      expect(calls[0].options.data).toEqual({pattern: '0 * * * *'});
      expect(calls[0].options.dataType).toBe('json');
    });

    it('lists the times under the field, in one list however often it asks', function () {
      type('0 * * * *');
      jasmine.clock().tick(300);
      calls[0].reply({times: ['Mon 1 Jan 10:00', 'Mon 1 Jan 11:00']});
      expect(shown()).toEqual(['Mon 1 Jan 10:00', 'Mon 1 Jan 11:00']);
      expect($field.next().is('ul.hdd-schedule-preview')).toBe(true);
      expect($field.next().attr('aria-live')).toBe('polite');

      type('30 * * * *');
      jasmine.clock().tick(300);
      calls[1].reply({times: ['Mon 1 Jan 10:30']});
      expect(shown()).toEqual(['Mon 1 Jan 10:30']);
      expect($('ul.hdd-schedule-preview').length).toBe(1);
    });

    it('says what is wrong with the pattern, as text', function () {
      type('61 * * * *');
      jasmine.clock().tick(300);
      var error = 'Invalid minute <script>window.hddInjected = true</script>';
      calls[0].reply({error: error});
      var $item = $('ul.hdd-schedule-preview li');
      expect($item.length).toBe(1);
      expect($item.hasClass('text-danger')).toBe(true);
      expect($item.text()).toBe(error);
      expect($item.find('script').length).toBe(0);
    });

    it('puts times in as text', function () {
      type('0 * * * *');
      jasmine.clock().tick(300);
      calls[0].reply({times: ['<b>10:00</b>']});
      expect(shown()).toEqual(['<b>10:00</b>']);
      expect($('ul.hdd-schedule-preview b').length).toBe(0);
    });

    it('ignores a reply about a pattern since changed', function () {
      type('0 * * * *');
      jasmine.clock().tick(300);
      calls[0].reply({times: ['first']});
      type('5 * * * *');
      jasmine.clock().tick(300);
      $field.val('7 * * * *');
      calls[1].reply({times: ['stale']});
      expect(shown()).toEqual(['first']);
    });

    it('clears the list, asking nothing, when the field is emptied', function () {
      type('0 * * * *');
      jasmine.clock().tick(300);
      calls[0].reply({times: ['10:00']});
      type('   ');
      jasmine.clock().tick(300);
      expect(calls.length).toBe(1);
      expect(shown()).toEqual([]);
    });

    it('leaves other fields alone', function () {
      $('<input type="text" name="other">').appendTo('#hdd-fixture').val('0 * * * *')
        .trigger('input');
      jasmine.clock().tick(1000);
      expect(calls.length).toBe(0);
      expect($('ul.hdd-schedule-preview').length).toBe(0);
    });
  });
}());
