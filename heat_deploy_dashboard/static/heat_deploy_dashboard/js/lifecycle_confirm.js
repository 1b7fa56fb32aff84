/* A field marked data-hdd-for-actions (the Run Action form's "Yes, run a lifecycle action")
 * shows only while the form's action is one of those listed: a custom action needs no such
 * confirmation. Without this script the field always shows, and the form checks it all the
 * same. */
(function () {
  'use strict';

  function update(form) {
    var action = $(form).find('select[name="action"]').val();
    $(form).find('[data-hdd-for-actions]').each(function () {
      var actions = this.getAttribute('data-hdd-for-actions').split(' ');
      $(this).closest('.form-group').toggle(actions.indexOf(action) !== -1);
    });
  }

  function updateAll(root) {
    $(root).find('form').has('[data-hdd-for-actions]').each(function () { update(this); });
  }

  $(document).on('change', 'select[name="action"]', function () { update(this.form); });
  horizon.modals.addModalInitFunction(updateAll);
  horizon.addInitFunction(function () { updateAll(document); });
})();
