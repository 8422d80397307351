"""Drawing boards: a renderer-neutral :class:`~gmkit.core.drawing.scene.Scene` and the renderers
that turn a scene and a board into SVG (:mod:`~gmkit.core.drawing.hex_svg`,
:mod:`~gmkit.core.drawing.graph_svg`, :mod:`~gmkit.core.drawing.polygon_svg`), plus the Altair
chart of a polygon board (:mod:`~gmkit.core.drawing.polygon_chart`)."""
