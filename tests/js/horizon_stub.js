/* What the plugin's scripts use of Horizon's pages, for their Jasmine specs (karma.conf.js loads
   this before them), and the few tools the specs share (window.hddSpec). Kept out of the static
   folder: Horizon bundles every script there into every page. */
(function () {
  'use strict';

  var SCRIPTS = '/base/heat_deploy_dashboard/static/heat_deploy_dashboard/js/';

  // Init functions by the script that registered them: a spec runs its own script's, after
  // drawing its fixture, as Horizon runs them all once the page is drawn.
  var inits = {};
  var modalInits = {};
  // Where a script evaluated by hddSpec.evaluate puts its init functions instead.
  var capturing = null;

  function register(kind) {
    return function (fn) {
      if (capturing) {
        capturing[kind].push(fn);
        return;
      }
      var src = (document.currentScript && document.currentScript.src) || '';
      var name = src.replace(/\?.*$/, '').replace(/^.*\//, '').replace(/\.js$/, '');
      var table = kind === 'init' ? inits : modalInits;
      (table[name] = table[name] || []).push(fn);
    };
  }

  window.horizon = {
    addInitFunction: register('init'),
    modals: {addModalInitFunction: register('modal')}
  };

  function run(fns, name, root) {
    if (!fns || !fns.length) {
      throw new Error('no init function registered by ' + name);
    }
    fns.forEach(function (fn) { fn(root); });
  }

  var $fixture = null;

  window.hddSpec = {
    // The script's init functions, as Horizon runs them when the page is drawn.
    init: function (name) { run(inits[name], name); },
    // The script's modal init functions, as Horizon runs them on a modal form it loaded.
    modalInit: function (name, root) { run(modalInits[name], name, root); },

    // The HTML a spec works on, in the page (some behaviour needs it laid out): one container
    // a spec adds to, removed after each spec.
    fixture: function (html) {
      if (!$fixture) {
        $fixture = $('<div id="hdd-fixture">').appendTo(document.body);
      }
      return $fixture.append(html || '');
    },

    // A script's source as Karma serves it (instrumented for coverage), for hddSpec.evaluate.
    source: function (name) {
      return fetch(SCRIPTS + name + '.js').then(function (reply) {
        if (!reply.ok) {
          throw new Error('no script ' + name + ': ' + reply.status);
        }
        return reply.text();
      });
    },

    /* Runs a script's source again, with its own "window": a browser's window.location cannot
       be replaced, and a page reload would end the Karma run. Also for a script that starts a
       timer when it loads, to start it under jasmine.clock(). Returns the init functions it
       registered, to be run as hddSpec.init runs them. */
    evaluate: function (source, fakeWindow) {
      capturing = {init: [], modal: []};
      try {
        new Function('window', source)(fakeWindow || window);
        var got = capturing;
        return {
          init: function () { run(got.init, 'the evaluated script'); },
          modalInit: function (root) { run(got.modal, 'the evaluated script', root); }
        };
      } finally {
        capturing = null;
      }
    },

    // $.ajax replaced by a fake whose requests a spec answers: calls[n].reply(json) or
    // calls[n].fail(status, json, headers). jQuery's deferreds run done/fail callbacks at once.
    fakeAjax: function () {
      var calls = [];
      spyOn($, 'ajax').and.callFake(function (options) {
        var deferred = $.Deferred();
        calls.push({
          options: options,
          reply: function (json) { deferred.resolve(json, 'success', {status: 200}); },
          fail: function (status, json, headers) {
            deferred.reject({
              status: status,
              responseJSON: json,
              getResponseHeader: function (header) {
                return (headers && headers[header]) || null;
              }
            }, 'error', '');
          }
        });
        return deferred.promise();
      });
      return calls;
    }
  };

  afterEach(function () {
    if ($fixture) {
      $fixture.remove();
      $fixture = null;
    }
  });
}());
