/* The help text of this plugin's form fields, shown under each field and read out with it
   (aria-describedby), instead of only in the tooltip of Horizon's "?" icon, which a keyboard
   cannot reach. The text is Horizon's tooltip text (already escaped by the form), put in as
   text. */
(function () {
  'use strict';

  var FORMS = '#run_action_modal, #deploy_config_modal, #create_config_modal';

  function showHelp(root) {
    $(root).find(FORMS).addBack(FORMS).find('.form-group .help-icon').each(function (n) {
      var $icon = $(this);
      var $group = $icon.closest('.form-group');
      var text = $icon.attr('data-original-title') || $icon.attr('title');
      if (!text || $group.find('.hdd-help').length) {
        return;
      }
      var id = 'hdd-help-' + Date.now() + '-' + n;
      $('<p class="help-block hdd-help">').attr('id', id).text(text).appendTo($group);
      $group.find('input, select, textarea').first().attr('aria-describedby', id);
      $icon.addClass('hidden');
    });
  }

  horizon.modals.addModalInitFunction(showHelp);
  horizon.addInitFunction(function () { showHelp(document); });
}());
