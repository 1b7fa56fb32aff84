(function () {
  'use strict';

  function row(id, live) {
    return $('<tr>').attr('data-object-id', id).append($('<td>').append(
      live ? '<span class="hdd-last-line"></span>' : '')).prop('outerHTML');
  }

  function cell(id) {
    return $('#operation tbody tr').filter(function () {
      return this.getAttribute('data-object-id') === id;
    }).find('.hdd-last-line');
  }

  describe('last_lines.js', function () {
    beforeEach(function () {
      hddSpec.fixture('<table id="operation"><tbody>' + row('a', true) + row('b', true) +
        row('c"d', true) + row('e', false) + '</tbody></table>');
    });

    it('puts each running row\'s last line in its cell, as text, whole in its title',
       function () {
         $('#operation').trigger('hdd:rows-replaced', [{
           lines: {a: '<b>{$ 7*7 $}</b>', 'c"d': 'step 3 of 9', e: 'no cell'}}]);
         expect(cell('a').text()).toBe('<b>{$ 7*7 $}</b>');
         expect(cell('a').attr('title')).toBe('<b>{$ 7*7 $}</b>');
         expect(cell('a').find('b').length).toBe(0);
         expect(cell('c"d').text()).toBe('step 3 of 9');
         expect(cell('b').text()).toBe('');
       });

    it('leaves the rows as they are when a reply carries no lines', function () {
      cell('b').text('kept');
      $('#operation').trigger('hdd:rows-replaced', [{rows: {}}]);
      $('#operation').trigger('hdd:rows-replaced');
      expect(cell('b').text()).toBe('kept');
    });
  });
}());
