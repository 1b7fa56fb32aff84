// ESLint for the plugin's browser scripts: npm ci, then npm run lint (or npx eslint ...).
// They run in Horizon's pages as classic scripts (not modules), next to the globals
// Horizon's own scripts define.
'use strict';

const js = require('@eslint/js');
const globals = require('globals');

module.exports = [
  {
    files: ['heat_deploy_dashboard/static/**/*.js'],
    ...js.configs.recommended,
  },
  {
    files: ['heat_deploy_dashboard/static/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'script',
      globals: {
        ...globals.browser,
        ...globals.jquery,
        // Horizon's: its namespace object, Django's JavaScript catalog, and AngularJS.
        horizon: 'readonly',
        gettext: 'readonly',
        ngettext: 'readonly',
        interpolate: 'readonly',
        angular: 'readonly',
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      'no-undef': 'error',
      'no-unused-vars': ['error', {args: 'after-used'}],
      strict: ['error', 'function'],
      eqeqeq: ['error', 'always'],
      'no-implicit-globals': 'error',
    },
  },
  // The Jasmine specs beside the scripts (*.spec.js, never loaded into a page) and their helper
  // (tests/js, loaded by karma.conf.js before the scripts, where it stands in for Horizon).
  {
    files: ['heat_deploy_dashboard/static/**/*.spec.js',
            'heat_deploy_dashboard/static/**/*.mock.js', 'tests/js/**/*.js'],
    languageOptions: {
      globals: {
        ...globals.jasmine,
        hddSpec: 'readonly',
      },
    },
  },
  {
    files: ['tests/js/**/*.js'],
    ...js.configs.recommended,
  },
  {
    files: ['tests/js/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'script',
      globals: {...globals.browser, ...globals.jquery, ...globals.jasmine},
    },
    rules: {
      'no-undef': 'error',
      strict: ['error', 'function'],
      eqeqeq: ['error', 'always'],
    },
  },
  // Karma's configuration, run by Node.
  {
    files: ['karma.conf.js'],
    ...js.configs.recommended,
  },
  {
    files: ['karma.conf.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'commonjs',
      globals: globals.node,
    },
    rules: {eqeqeq: ['error', 'always']},
  },
];
