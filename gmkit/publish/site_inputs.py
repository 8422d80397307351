"""What each page of a published site was drawn from, so that publishing again into a site gmkit
wrote before redraws only the pages whose inputs changed.

A page's key is the sha256 of everything it is drawn from, by name:

* the game as a whole (:attr:`SiteInputs.game_key`): gmkit's own code (a new version, or a
  changed template, redraws everything), the viewer, ``game.toml`` (title, players, options),
  the recorded changes for coming turns, the board file and the set-up turn;
* a turn's page (:meth:`SiteInputs.turn_key`): the manifest hashes of the turn, the turn
  before (the state it started from) and the turn after (the next turn's commitment and
  deadline it announces, and its links), the turn's revealed seed, the dice records of the turn
  and the next (commitments, deadlines, seals), and, for the latest turn, the commitment made
  for the next;
* the state after a turn (:meth:`SiteInputs.state_key`): its manifest hash (the history page's
  map frame and standings rows of that turn are cached under it);
* the pages drawn from every turn (the index, the history, the dice checker):
  :meth:`SiteInputs.all_key`, the keys of every turn page together.

A manifest hash covers every file of a turn's revision (state, posts, rolls, events, rules,
players, board), so a re-resolved turn (a new revision), a rolled-back turn (a new commit in its
place) or a changed option can never leave a page drawn from what was there before. The site
keeps the keys in :data:`INDEX` (only hashes and the dice document's entries, which its pages
show anyway; no input itself)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.core.views import Viewer

if TYPE_CHECKING:
    from gmkit.game import Game

#: The file in a site listing what each of its pages was drawn from.
INDEX = ".gmkit-pages.json"
#: The folder in a site holding the parts of its history page kept for the next publish.
CACHE = ".gmkit-cache"
#: The record of the cached parts' content hashes, in :data:`CACHE`.
PARTS = "parts.json"
#: The layout of :data:`INDEX`; another is read as no index (every page drawn).
FORMAT = 2
#: Where a page names the key of what it was drawn from.
_STAMP = re.compile(r'<meta name="gmkit-inputs" content="([0-9a-f]{64})">')


def digest(*parts: Any) -> str:
    """The sha256 of ``parts`` written as JSON (a key)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str,
                                     ensure_ascii=False).encode("utf-8")).hexdigest()


def file_digest(path: Path) -> str | None:
    """The sha256 of a file's bytes; None when there is no such file."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A key of gmkit's installed code and templates (each file's path, size and time of last
    change): a new version, or any changed file, makes every page be drawn again."""
    import gmkit

    root = Path(gmkit.__file__).parent
    entries = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            st = os.stat(os.path.join(folder, name))
            entries.append((os.path.relpath(os.path.join(folder, name), root), st.st_size,
                            st.st_mtime_ns))
    return digest(gmkit.__version__, entries)


class SiteInputs:
    """The keys of every page of ``game``'s site for ``viewer`` (see the module's
    description), read once from the game folder."""

    def __init__(self, game: Game, viewer: Viewer):
        from gmkit.game.changes import CHANGES_FILE

        self.game = game
        self.viewer = viewer
        store = game.store
        self.turns = store.turns()
        self.hashes = {t: store.manifest_hash(t) for t in self.turns}
        board = game.board_path
        self.game_key = digest(
            "game", code_fingerprint(), str(viewer), file_digest(game.root / "game.toml"),
            file_digest(game.root / CHANGES_FILE),
            file_digest(board) if board is not None else None, game.first_turn)

    def state_key(self, turn: int) -> str:
        """The key of the state after ``turn`` as the viewer sees it."""
        return digest("state", self.game_key, turn, self.hashes[turn])

    @functools.cache
    def turn_key(self, turn: int) -> str:
        """The key of ``turn``'s page (and its entry in the dice checker)."""
        from gmkit.game.fairdice import announced, record_path

        store, root = self.game.store, self.game.root
        latest = turn == self.turns[-1]
        return digest(
            "turn", self.game_key, turn, self.hashes.get(turn - 1), self.hashes[turn],
            self.hashes.get(turn + 1), file_digest(store.seed_path(turn, revealed=True)),
            file_digest(record_path(root, turn)), file_digest(record_path(root, turn + 1)),
            announced(store, turn + 1) if latest else None)

    def all_key(self, turns: list[int]) -> str:
        """The key of the pages drawn from every turn (``turns``: the site's turn pages)."""
        return digest("all", self.game_key, [(t, self.state_key(t)) for t in self.turns],
                      [(t, self.turn_key(t)) for t in turns])


def stamp(html: str, key: str) -> str:
    """A page naming the key of what it was drawn from (a ``<meta>`` in its head)."""
    mark = f'<meta name="gmkit-inputs" content="{key}">'
    head = re.search(r"<head>\s*(?:<meta charset=\"utf-8\">)?", html)
    if head is None:
        raise ValueError("a page without a <head> cannot be stamped")
    return html[:head.end()] + mark + html[head.end():]


def stamped_key(page: bytes) -> str | None:
    """The key a page names (None when it names none)."""
    found = _STAMP.search(page[:8192].decode("utf-8", "replace"))
    return found.group(1) if found else None


def _load(path: Path) -> Any:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


class OldSite:
    """What a site gmkit published before holds for reuse: its pages' keys and content
    hashes, its dice entries and its cached parts. A site without an index, of another layout
    or for another viewer offers nothing (every page is drawn)."""

    def __init__(self, out: Path, viewer: Viewer):
        self.out = out
        self.pages: dict[str, tuple[str, str]] = {}
        self.entries: dict[str, Any] = {}
        parts = _load(out / CACHE / PARTS)
        self.parts: dict[str, str] = {str(k): str(v) for k, v in parts.items()} \
            if isinstance(parts, dict) else {}
        index = _load(out / INDEX)
        if not isinstance(index, dict) or index.get("format") != FORMAT \
                or index.get("viewer") != str(viewer):
            return
        pages, entries = index.get("pages"), index.get("entries")
        if isinstance(pages, dict) and isinstance(entries, dict):
            self.pages = {str(k): (str(v.get("key")), str(v.get("sha256")))
                          for k, v in pages.items() if isinstance(v, dict)}
            self.entries = entries

    def page(self, name: str, key: str) -> Path | None:
        """The old page ``name`` when it was drawn from ``key``: the index says so, the page
        names that key itself, and its content is what the index recorded."""
        path = self.out / name
        recorded = self.pages.get(name)
        if recorded is None or recorded[0] != key or not path.is_file() or path.is_symlink():
            return None
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != recorded[1] or stamped_key(data) != key:
            return None
        return path

    def entry(self, turn: int, key: str) -> Mapping[str, Any] | None:
        """The dice checker's entry of ``turn`` when its page was drawn from ``key`` (to be
        checked against the turn's record before it is used)."""
        got = self.entries.get(str(turn))
        if isinstance(got, dict) and got.get("key") == key and isinstance(got.get("entry"),
                                                                          dict):
            return got["entry"]
        return None

    def part(self, name: str) -> Path | None:
        """A cached part of the old site (its name holds its key), if it is there with the
        content that was kept."""
        path = self.out / CACHE / name
        if name not in self.parts or not path.is_file() or path.is_symlink():
            return None
        return path if file_digest(path) == self.parts[name] else None


def carry(old: Path, new: Path) -> None:
    """Put the unchanged file ``old`` at ``new`` (a hard link, else a copy)."""
    new.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(old, new)
    except OSError:
        import shutil

        shutil.copyfile(old, new)


def write_index(staging: Path, viewer: Viewer, pages: Mapping[str, str],
                entries: Mapping[int, tuple[str, Mapping[str, Any]]]) -> None:
    """Write the site's :data:`INDEX`: each page's key and content hash, and each turn's dice
    entry with its key; and the content hash of every cached part (:data:`PARTS`)."""
    index = {"format": FORMAT, "viewer": str(viewer),
             "pages": {name: {"key": key, "sha256": file_digest(staging / name)}
                       for name, key in pages.items()},
             "entries": {str(t): {"key": key, "entry": entry}
                         for t, (key, entry) in entries.items()}}
    (staging / INDEX).write_text(json.dumps(index, ensure_ascii=False), "utf-8")
    cache = staging / CACHE
    if cache.is_dir():
        parts = {p.name: file_digest(p) for p in sorted(cache.iterdir())
                 if p.name != PARTS and p.is_file()}
        (cache / PARTS).write_text(json.dumps(parts), "utf-8")
