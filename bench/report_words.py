"""How bench/RESULTS.md writes a time and a goal met (report.markdown and the figures' rows)."""


def s(seconds):
    return f'{seconds:.3f} s'


def yes(met):
    return 'yes' if met else '**no**'
