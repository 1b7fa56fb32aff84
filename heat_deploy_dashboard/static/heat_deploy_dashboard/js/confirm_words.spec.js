(function () {
  'use strict';

  describe('confirm_words.js', function () {
    beforeEach(function () {
      jasmine.clock().install();
    });

    afterEach(function () {
      jasmine.clock().uninstall();
    });

    function page(button) {
      var $fixture = hddSpec.fixture(button + '<div id="modal_wrapper">' +
        '<div class="modal" id="older"><div class="modal-body"><p>older</p></div>' +
        '<div class="modal-footer"><a class="btn cancel">Cancel</a></div></div></div>');
      // Horizon's own click handler draws the dialog after this script's.
      $fixture.find('button').on('click', function () {
        $('#modal_wrapper').append('<div class="modal" id="confirm">' +
          '<div class="modal-body"><p>You have selected: <span>run-1</span></p></div>' +
          '<div class="modal-footer"><a class="btn cancel">Cancel</a>' +
          '<a class="btn btn-danger">Cancel Run</a></div></div>');
      });
      return $fixture.find('button');
    }

    it('names the dismiss button of the dialog the action opens', function () {
      page('<button type="button" data-dismiss-label="Keep running">Cancel Run</button>')
        .trigger('click');
      jasmine.clock().tick(0);
      expect($('#confirm .cancel').text()).toBe('Keep running');
      expect($('#confirm .btn-danger').text()).toBe('Cancel Run');
      expect($('#confirm .modal-body').text()).toBe('You have selected: run-1');
      expect($('#older .cancel').text()).toBe('Cancel');
    });

    it('says the action\'s own sentence instead of the ticked rows', function () {
      page('<button type="button" data-dismiss-label="Keep running" ' +
           'data-confirm-body="Cancel every running run of this operation?">Cancel All</button>')
        .trigger('click');
      jasmine.clock().tick(0);
      expect($('#confirm .modal-body').text()).toBe('Cancel every running run of this operation?');
      expect($('#confirm .modal-body p').length).toBe(0);
    });

    it('puts its words in as text', function () {
      var $button = page('<button type="button">Cancel Run</button>');
      $button.attr({'data-dismiss-label': '<i>Keep</i>', 'data-confirm-body': '<b>Sure?</b>'})
        .trigger('click');
      jasmine.clock().tick(0);
      expect($('#confirm .cancel').text()).toBe('<i>Keep</i>');
      expect($('#confirm .modal-body').text()).toBe('<b>Sure?</b>');
      expect($('#confirm i, #confirm b').length).toBe(0);
    });

    it('leaves the dialog of any other button as Horizon draws it', function () {
      page('<button type="button">Delete</button>').trigger('click');
      jasmine.clock().tick(0);
      expect($('#confirm .cancel').text()).toBe('Cancel');
      expect($('#confirm .modal-body').text()).toBe('You have selected: run-1');
    });
  });
}());
