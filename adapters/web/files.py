"""The page's files (``GET /static/…``), served from the list of them made when the server starts.

A name not on the list is answered 404 without reaching the file system: a name of 5,000
characters, a directory, ``..``, a NUL or a symbolic link are all simply not on it.
"""

from __future__ import annotations

from pathlib import Path

from aiohttp import web

__all__ = ["Files"]


class Files:
    """The regular files under ``root`` by their path below it (``cards/AH.svg``).

    Args:
        root: the folder of the page's files.
    """

    def __init__(self, root: Path) -> None:
        self._files = {p.relative_to(root).as_posix(): p for p in root.rglob("*")
                       if p.is_file() and not p.is_symlink()}

    async def handle(self, request: web.Request) -> web.FileResponse:
        """The file the route's ``name`` names; 404 for any other name."""
        path = self._files.get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(path)
