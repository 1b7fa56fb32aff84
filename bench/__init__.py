"""Benchmarks of the plugin against the raw APIs and the CLI, on a local cloud of their own.

`make bench` (python -m bench) writes bench/RESULTS.md and bench/results.json.
"""
