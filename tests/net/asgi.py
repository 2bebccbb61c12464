"""Requests straight into the service's ASGI app: no server, no socket."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from unchrome.service.serve import create_app
from unchrome.service.settings import ServiceSettings


class InProcess:
    """The app made from ``settings``, called through httpx's ASGI transport."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.app = create_app(settings)

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://svc") as c:
                return await c.request(method, path, **kw)

        return asyncio.run(go())
