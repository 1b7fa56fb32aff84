(function () {
  'use strict';

  function server(value, name, stacks, last) {
    var $box = $('<input type="checkbox" name="servers">').attr('value', value);
    if (stacks) {
      $box.attr('data-hdd-stacks', stacks);
    }
    if (last) {
      $box.attr('data-hdd-last', JSON.stringify(last));
    }
    return $('<div class="themable-radio">').append($('<label>').append($box, ' ' + name))
      .prop('outerHTML');
  }

  // As run_action/_servers_field.html and _server_choosers.html draw them.
  var FORM = '<form><select name="action"><option value="CREATE">CREATE</option>' +
    '<option value="check">check</option></select>' +
    '<div class="hdd-server-choosers" hidden>' +
    '<input type="search" class="hdd-choose-name">' +
    '<select class="hdd-choose-stack"><option value="">Any stack</option>' +
    '<option value="s1">s1</option><option value="s2">s2</option></select>' +
    '<select class="hdd-choose-last"><option value="">Any last run</option>' +
    '<option value="FAILED">Failed</option><option value="COMPLETE">Complete</option>' +
    '<option value="NEVER">Never run</option></select>' +
    '<button type="button" data-hdd-choose="shown">Choose those shown</button>' +
    '<button type="button" data-hdd-choose="all">Choose all</button>' +
    '<button type="button" data-hdd-choose="none">Choose none</button>' +
    '<p class="hdd-choose-count" data-counted="%(shown)s of %(all)s shown, %(chosen)s chosen" ' +
    'data-hidden-chosen="%(shown)s of %(all)s shown, %(chosen)s chosen ' +
    '(%(hidden)s of them not shown)"></p></div>' +
    '<div class="hdd-server-boxes">' +
    server('id-1', 'web-1 (id-1)', 's1', {CREATE: 'FAILED'}) +
    server('id-2', 'WEB-2 (id-2)', 's1 s2', {CREATE: 'COMPLETE', check: 'FAILED'}) +
    server('id-3', 'db-1 (id-3)', 's2', null) +
    '</div></form>';

  function shown() {
    return $('.hdd-server-boxes input').filter(function () {
      return !$(this).closest('.themable-radio').prop('hidden');
    }).map(function () { return this.value; }).get();
  }

  function chosen() {
    return $('.hdd-server-boxes input:checked').map(function () { return this.value; }).get();
  }

  function count() {
    return $('.hdd-choose-count').text();
  }

  function choose(which) {
    $('[data-hdd-choose="' + which + '"]').trigger('click');
  }

  describe('server_choice.js', function () {
    beforeEach(function () {
      hddSpec.fixture(FORM);
      hddSpec.init('server_choice');
    });

    it('shows its choosers, every server, and how many there are', function () {
      expect($('.hdd-server-choosers').prop('hidden')).toBe(false);
      expect(shown()).toEqual(['id-1', 'id-2', 'id-3']);
      expect(count()).toBe('3 of 3 shown, 0 chosen');
    });

    it('filters by name or id as typed, ignoring case and spaces around', function () {
      $('.hdd-choose-name').val('  Web ').trigger('input');
      expect(shown()).toEqual(['id-1', 'id-2']);
      expect(count()).toBe('2 of 3 shown, 0 chosen');
      $('.hdd-choose-name').val('id-3').trigger('input');
      expect(shown()).toEqual(['id-3']);
      $('.hdd-choose-name').val('.*').trigger('input');
      expect(shown()).toEqual([]);
      $('.hdd-choose-name').val('').trigger('input');
      expect(shown()).toEqual(['id-1', 'id-2', 'id-3']);
    });

    it('filters by stack, a server in several stacks in each', function () {
      $('.hdd-choose-stack').val('s2').trigger('change');
      expect(shown()).toEqual(['id-2', 'id-3']);
      $('.hdd-choose-stack').val('s1').trigger('change');
      expect(shown()).toEqual(['id-1', 'id-2']);
    });

    it('hides a server in no stack from any stack\'s filter', function () {
      $('.hdd-server-boxes input').last().removeAttr('data-hdd-stacks');
      $('.hdd-choose-stack').val('s2').trigger('change');
      expect(shown()).toEqual(['id-2']);
      $('.hdd-choose-stack').val('').trigger('change');
      expect(shown()).toEqual(['id-1', 'id-2', 'id-3']);
    });

    it('filters by how the chosen action last went, never run included', function () {
      $('.hdd-choose-last').val('FAILED').trigger('change');
      expect(shown()).toEqual(['id-1']);
      $('select[name="action"]').val('check').trigger('change');
      expect(shown()).toEqual(['id-2']);
      $('.hdd-choose-last').val('NEVER').trigger('change');
      expect(shown()).toEqual(['id-1', 'id-3']);
      $('select[name="action"]').val('CREATE').trigger('change');
      expect(shown()).toEqual(['id-3']);
    });

    it('combines the filters', function () {
      $('.hdd-choose-stack').val('s1').trigger('change');
      $('.hdd-choose-last').val('COMPLETE').trigger('change');
      $('.hdd-choose-name').val('web').trigger('input');
      expect(shown()).toEqual(['id-2']);
    });

    it('chooses exactly those shown, and says which chosen ones are not', function () {
      $('.hdd-server-boxes input').first().prop('checked', true);
      $('.hdd-choose-stack').val('s2').trigger('change');
      expect(count()).toBe('2 of 3 shown, 1 chosen (1 of them not shown)');
      choose('shown');
      expect(chosen()).toEqual(['id-2', 'id-3']);
      expect(count()).toBe('2 of 3 shown, 2 chosen');
    });

    it('chooses all, shown or not, and none', function () {
      $('.hdd-choose-name').val('db').trigger('input');
      choose('all');
      expect(chosen()).toEqual(['id-1', 'id-2', 'id-3']);
      expect(count()).toBe('1 of 3 shown, 3 chosen (2 of them not shown)');
      choose('none');
      expect(chosen()).toEqual([]);
      expect(count()).toBe('1 of 3 shown, 0 chosen');
    });

    it('counts a server ticked by hand', function () {
      $('.hdd-server-boxes input').eq(1).prop('checked', true).trigger('change');
      expect(count()).toBe('3 of 3 shown, 1 chosen');
    });

    it('puts the count in as text', function () {
      $('.hdd-choose-count').attr('data-counted', '<b>%(shown)s</b>');
      $('.hdd-choose-name').val('db').trigger('input');
      expect(count()).toBe('<b>1</b>');
      expect($('.hdd-choose-count b').length).toBe(0);
    });

    it('starts on a form a modal loads', function () {
      var $modal = $('<div class="modal">').append(FORM).appendTo('#hdd-fixture');
      hddSpec.modalInit('server_choice', $modal[0]);
      expect($modal.find('.hdd-server-choosers').prop('hidden')).toBe(false);
      expect($modal.find('.hdd-choose-count').text()).toBe('3 of 3 shown, 0 chosen');
    });

    it('leaves a server list without choosers alone', function () {
      var $other = $('<div class="hdd-server-boxes">' + server('x', 'x', 's1', null) + '</div>')
        .appendTo('#hdd-fixture');
      expect(function () {
        $other.find('input').prop('checked', true).trigger('change');
      }).not.toThrow();
      expect(count()).toBe('3 of 3 shown, 0 chosen');
    });
  });
}());
