"""Publishing a game: a committed turn as a report (:mod:`gmkit.publish.summary`), the whole
history as tables (:mod:`gmkit.publish.history`) and charts (:mod:`gmkit.publish.charts`), SQL
over the folder (:mod:`gmkit.publish.sql`), a turn's map as a file (:mod:`gmkit.publish.mapfile`),
and the static site with its dice checker (:mod:`gmkit.publish.site`,
:mod:`gmkit.publish.dicecheck`). Nothing is imported here: each module loads only what it draws
or queries with (altair, duckdb)."""
