// The browser scripts' Jasmine specs, run by Karma in headless Chromium: npm ci, then npm test.
'use strict';

const fs = require('fs');
const path = require('path');

const SCRIPTS = 'heat_deploy_dashboard/static/heat_deploy_dashboard/js';

// The jQuery Horizon itself serves (XStatic-jQuery, in the project's venv, or in tox's npm
// environment, which tox names in VIRTUAL_ENV), so that the specs run against the version the
// pages get.
function horizonJquery() {
  const found = [process.env.VIRTUAL_ENV, path.join(__dirname, '.venv')]
    .filter(Boolean)
    .map((venv) => path.join(venv, 'lib'))
    .flatMap((lib) => (fs.existsSync(lib) ? fs.readdirSync(lib) : [])
      .filter((name) => /^python3/.test(name))
      .map((name) => path.join(lib, name, 'site-packages/xstatic/pkg/jquery/data/jquery.js')))
    .filter((file) => fs.existsSync(file));
  if (!found.length) {
    throw new Error('karma.conf.js: no jQuery at .venv/lib/python3*/site-packages/xstatic/pkg/' +
                    'jquery/data/jquery.js; install the project into .venv first (make install)');
  }
  return found[0];
}

// status_poll.js first, as in the pages, where it defines hdd.followRuns before the others run.
const scripts = fs.readdirSync(path.join(__dirname, SCRIPTS))
  .filter((name) => /\.js$/.test(name) && !/\.(spec|mock)\.js$/.test(name))
  .sort((a, b) => (b === 'status_poll.js') - (a === 'status_poll.js') || a.localeCompare(b))
  .map((name) => SCRIPTS + '/' + name);

// One closing line that a CI log reader recognises, as pytest ends its run.
function PassedFailed(baseReporterDecorator) {
  baseReporterDecorator(this);
  this.onRunComplete = (browsers, results) => {
    const passed = results.success;
    this.write('\n' + passed + ' passed, ' + results.failed + ' failed' +
               (results.skipped ? ', ' + results.skipped + ' skipped' : '') + '\n');
  };
}
PassedFailed.$inject = ['baseReporterDecorator'];

module.exports = function (config) {
  process.env.CHROME_BIN = process.env.CHROME_BIN || '/usr/bin/chromium';
  config.set({
    basePath: __dirname,
    frameworks: ['jasmine'],
    plugins: ['karma-jasmine', 'karma-chrome-launcher', 'karma-coverage',
              {'reporter:passed-failed': ['type', PassedFailed]}],
    files: [horizonJquery(), 'tests/js/*.js'].concat(scripts, [SCRIPTS + '/*.spec.js']),
    preprocessors: Object.fromEntries(scripts.map((file) => [file, ['coverage']])),
    reporters: ['dots', 'coverage', 'passed-failed'],
    coverageReporter: {
      dir: 'build/js-coverage',
      reporters: [{type: 'text'}, {type: 'text-summary'}, {type: 'html', subdir: 'html'}],
      // Just under what the specs reach (100% but for stack_map.js's two fallbacks for a node
      // drawn without a class or an aria-label, which _map.html never does), so that a script
      // whose specs go, or new code without specs, fails the run.
      check: {
        global: {statements: 99, branches: 97, functions: 99, lines: 99},
        each: {statements: 95, branches: 70, functions: 95, lines: 95},
      },
    },
    browsers: ['ChromiumHeadlessNoSandbox'],
    customLaunchers: {
      // Run as root in a container: Chromium's sandbox needs user namespaces it may not get.
      ChromiumHeadlessNoSandbox: {
        base: 'ChromeHeadless',
        flags: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      },
    },
    client: {jasmine: {random: true}},
    singleRun: true,
    browserNoActivityTimeout: 60000,
  });
};
