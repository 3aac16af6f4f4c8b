"""ClueLab's benchmark scripts, run from the repository root as `python -m bench.<script>`.

A package (rather than a folder of scripts run by path) so that each script imports the
repository's packages as themselves, with no `sys.path` edits; the scripts are named for what
they measure, never like a package they import. Figures and commands: docs/PERFORMANCE.md.
"""
