/* Run Action's "Use the new value": puts a source component's newer output into the input the
   stack fed from it. The value is the button's attribute, set as text, never as markup. */
(function () {
  'use strict';

  $(document).on('click', '.hdd-use-value', function () {
    var field = document.getElementById(this.getAttribute('data-target'));
    if (field) {
      $(field).val(this.getAttribute('data-value')).trigger('input');
    }
  });
}());
