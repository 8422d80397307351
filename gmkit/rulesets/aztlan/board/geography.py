"""The AZTLAN board (Ken St. Andre, 1977): empires, abbreviations and map checks.

No public map of AZTLAN survives, so gmkit ships its own digitisation,
``aztlan.geojson`` beside this module (package data), built once by
``maps/build_aztlan_board.py``.  The
board has 79 city supply centres (rule 1.4) at the real places of central
and southern Mexico, numbered non-supply sectors between them (rule 2.6),
the Chichimec Desert along the northern border (rules 7.x) and the Gulf and
Pacific coasts, drawn as two sea regions with no movement (rule 1.5).

Properties of the map's features, besides ``name`` and ``kind``:

* every land region: ``city`` (true for the 79 supply centres) and ``abbr``
  (the rule 2.6 designation: a city's three letters, a sector's number);
* cities: ``lon`` and ``lat`` of the real place; home centres (rule 2.5)
  also ``home`` and ``empire``, both the empire's name;
* the Chichimec Desert: ``desert`` true.

This module holds the board's facts from the rules and checks a map
against them; it knows nothing else of the game.
"""

from __future__ import annotations

import math
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from shapely.geometry import Point

from gmkit.core.boards.resources import load_package_map
from gmkit.core.boards.polygon import PolygonBoard

__all__ = [
    "ABBREVIATION_EXCEPTIONS",
    "BOARD_FILE",
    "BOARD_PACKAGE",
    "CITY_COUNT",
    "DEFAULT_MAP",
    "DESERT",
    "DESERT_ABBR",
    "EMPIRES",
    "FRAME",
    "SEAS",
    "abbreviation",
    "check_map",
    "home_centres",
    "load_map",
    "project",
]

#: The number of city supply centres on the board (rule 1.4).
CITY_COUNT = 79

#: The ten empires in rule 2.1's order of importance, with their home supply
#: centres (rule 2.5).  The Chichimecs have none: they start in the desert.
EMPIRES: dict[str, tuple[str, ...]] = {
    "Aztecs": ("Tenochtitlan", "Texcoco", "Tacuba"),
    "Tlaxcalans": ("Tlaxcala", "Huexotzingo", "Cholula"),
    "Chalcans": ("Chalco", "Coyoacan", "Amecameca"),
    "Tarascans": ("Tzintzuntzan", "Patzcuaro", "Apatzingan"),
    "Meztitlans": ("Meztitlan", "Zimapan", "Tototepectli"),
    "Yopis": ("Yopitzingo", "Acapulco", "Ayotlan"),
    "Totonacs": ("Tototepec", "Icpatepec", "Coatlan"),
    "Chichimecs": (),
    "Soconuscans": ("Soconusco", "Huixtlan", "Mazatlan", "Ayatlan"),
    "Hot Country": ("Veracruz", "Cotaxtla", "Mixtlan"),
}

#: The cities not designated by their first three letters (rule 2.6).
ABBREVIATION_EXCEPTIONS: dict[str, str] = {
    "Tototepec": "Tto",
    "Acaxochitlan": "Acx",
    "Tlapacoya": "Tlp",
    "Toltoltepec": "Ttl",
    "Oaxtepec": "Oxt",
    "Tlaxiaco": "Tlx",
    "Xalapa": "Xlp",
    "Quetzaltepec": "Qtz",
}

#: The Chichimec Desert, a single region with no sectors (rule 7.0).
DESERT = "Chichimec Desert"
#: Its designation on the board.
DESERT_ABBR = "Chi"

#: The two coasts of rule 1.5, drawn as seas (no movement or combat at sea).
SEAS: tuple[str, ...] = ("Gulf of Mexico", "Pacific Ocean")

#: The board's frame in degrees: west, south, east, north.
FRAME: tuple[float, float, float, float] = (-103.8, 14.3, -92.0, 23.4)
_KM_PER_DEGREE = 111.32
_KX = _KM_PER_DEGREE * math.cos(math.radians(19.0))

#: The package holding the board gmkit ships, and the board's file in it.
BOARD_PACKAGE = "gmkit.rulesets.aztlan.board"
BOARD_FILE = "aztlan.geojson"
#: The board gmkit ships, as a package resource.
DEFAULT_MAP: Traversable = files(BOARD_PACKAGE).joinpath(BOARD_FILE)


def abbreviation(name: str) -> str:
    """The rule 2.6 designation of city ``name``: its first three letters
    (``"Tenochtitlan"`` -> ``"Ten"``), or the listed exception."""
    if name in ABBREVIATION_EXCEPTIONS:
        return ABBREVIATION_EXCEPTIONS[name]
    return name[:3].capitalize()


def project(lon: float, lat: float) -> tuple[float, float]:
    """Map coordinates of a longitude and latitude: kilometres east and north
    of the frame's south-west corner, by an equirectangular projection true
    at 19 degrees north (rounded to 0.1 km, the map's grid)."""
    west, south, _, _ = FRAME
    return (round((lon - west) * _KX, 1), round((lat - south) * _KM_PER_DEGREE, 1))


def home_centres() -> dict[str, str]:
    """Each home supply centre with the empire it belongs to at the start."""
    return {city: empire for empire, cities in EMPIRES.items() for city in cities}


def load_map(path: str | Path | None = None) -> PolygonBoard:
    """Load the AZTLAN board (by default the map gmkit ships)."""
    return load_package_map(BOARD_PACKAGE, BOARD_FILE) if path is None else \
        PolygonBoard.from_geojson(path)


def check_map(game_map: PolygonBoard) -> list[str]:
    """Every way ``game_map`` breaks the AZTLAN board's rules, in words.

    Checks: 79 cities (1.4); every home centre (2.5) and every city of the
    2.6 exceptions present, home centres marked with their empire and no
    other city marked; each city's region holding its ``lon``/``lat``; each city's ``abbr`` as rule 2.6 gives it and all
    designations unique; sectors numbered; the Chichimec Desert present
    and not a city; both seas present; adjacency symmetric; every land
    region reachable from every other over land; no overlapping regions.
    An empty list means the map is fine.
    """
    problems: list[str] = []
    regions = game_map.regions
    land = game_map.land()
    cities = [n for n in land if regions[n].props.get("city") is True]
    others = [n for n in land if regions[n].props.get("city") is not True]

    if len(cities) != CITY_COUNT:
        problems.append(f"expected {CITY_COUNT} cities, found {len(cities)}")
    homes = home_centres()
    for city, empire in homes.items():
        if city not in regions:
            problems.append(f"home centre {city} ({empire}) is missing")
        elif city not in cities:
            problems.append(f"home centre {city} ({empire}) is not a city")
    for city in ABBREVIATION_EXCEPTIONS:
        if city not in cities:
            problems.append(f"city {city} (a rule 2.6 exception) is missing")
    for name in cities:
        props = regions[name].props
        for key in ("home", "empire"):
            value = props.get(key)
            if value != homes.get(name):
                wanted = f"{homes[name]!r}" if name in homes else "absent"
                problems.append(f"city {name}: {key!r} is {value!r}, expected {wanted}")
        expected = abbreviation(name)
        if props.get("abbr") != expected:
            problems.append(
                f"city {name}: abbreviation {props.get('abbr')!r}, rule 2.6 gives {expected!r}"
            )
        lon, lat = props.get("lon"), props.get("lat")
        if not (isinstance(lon, (int, float)) and isinstance(lat, (int, float))) or any(
            isinstance(v, bool) for v in (lon, lat)
        ):
            problems.append(f"city {name}: missing or bad 'lon'/'lat'")
        elif not regions[name].geometry.contains(Point(project(lon, lat))):
            problems.append(f"city {name}: its region does not hold its real place "
                            f"({lon}, {lat})")
    for name in others:
        if name == DESERT:
            continue
        abbr = regions[name].props.get("abbr")
        if not name.isdigit() or abbr != name:
            problems.append(
                f"land region {name!r} is neither a city nor a numbered sector "
                f"(abbr {abbr!r})"
            )
    if DESERT not in regions:
        problems.append(f"the {DESERT} is missing")
    else:
        desert = regions[DESERT]
        if not desert.is_land:
            problems.append(f"the {DESERT} is not a land region")
        if desert.props.get("city") is True:
            problems.append(f"the {DESERT} is marked as a city")
        if desert.props.get("abbr") != DESERT_ABBR:
            problems.append(f"the {DESERT}: abbreviation {desert.props.get('abbr')!r}, "
                            f"expected {DESERT_ABBR!r}")
    seen: dict[str, str] = {}
    for name in land:
        abbr = regions[name].props.get("abbr")
        if not isinstance(abbr, str) or not abbr:
            problems.append(f"land region {name!r} has no abbreviation")
            continue
        key = abbr.casefold()
        if key in seen:
            problems.append(f"abbreviation {abbr!r} used by both {seen[key]} and {name}")
        else:
            seen[key] = name
    for sea in SEAS:
        if sea not in regions or not regions[sea].is_sea:
            problems.append(f"sea {sea!r} is missing")

    for a, neighbours in game_map.adjacency.items():
        for b in sorted(neighbours):
            if a not in game_map.adjacency.get(b, frozenset()):
                problems.append(f"asymmetric adjacency: {a} lists {b}, {b} does not list {a}")
    if land:
        reached = game_map.reachable(land[0], land_only=True)
        cut_off = [n for n in land if n not in reached]
        if cut_off:
            problems.append(
                f"land not connected over land: {', '.join(cut_off)} "
                f"cannot be reached from {land[0]}"
            )
    problems.extend(
        p for p in game_map.validate() if "overlap" in p or "has no neighbour" in p
    )
    return problems
