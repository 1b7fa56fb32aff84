/* Marks the input overrides of the "Run an Action" form whose value differs
 * from the input's default (data-hdd-default), so that the user sees at a
 * glance what this run changes. The form works the same without it. */
(function () {
  'use strict';

  function currentValue(field) {
    return field.type === 'checkbox' ? String(field.checked) : field.value;
  }

  function mark(field) {
    $(field).closest('.form-group').toggleClass(
      'hdd-changed',
      currentValue(field) !== field.getAttribute('data-hdd-default'));
  }

  function markAll(root) {
    $(root).find('[data-hdd-default]').each(function () { mark(this); });
  }

  $(document).on('input change', '[data-hdd-default]', function () {
    mark(this);
  });
  horizon.modals.addModalInitFunction(markAll);
  horizon.addInitFunction(function () { markAll(document); });
})();
