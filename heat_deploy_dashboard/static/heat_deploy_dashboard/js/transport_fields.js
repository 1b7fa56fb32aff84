/* A field marked data-hdd-for-transports (the run forms' "Send output live") shows only while
 * the way the result comes back is one of those listed: a run that waits for no result has no
 * live output. Without this script the field always shows, and the form leaves it out all the
 * same (RunForm.asks_live). */
(function () {
  'use strict';

  function update(form) {
    var transport = $(form).find('input[name="transport"]:checked').val();
    $(form).find('[data-hdd-for-transports]').each(function () {
      var transports = this.getAttribute('data-hdd-for-transports').split(' ');
      $(this).closest('.form-group').toggle(transports.indexOf(transport) !== -1);
    });
  }

  function updateAll(root) {
    $(root).find('form').has('[data-hdd-for-transports]').each(function () { update(this); });
  }

  $(document).on('change', 'input[name="transport"]', function () { update(this.form); });
  horizon.modals.addModalInitFunction(updateAll);
  horizon.addInitFunction(function () { updateAll(document); });
})();
