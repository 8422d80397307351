"""Games played by the rulesets' random players: seeded playouts through the real workflow
(:mod:`gmkit.sweeps.playout`), golden turn transcripts (:mod:`gmkit.sweeps.transcript`), and
balance sweeps over rule variants with their page (:mod:`gmkit.sweeps.sweep`,
:mod:`gmkit.sweeps.page`)."""
