"""Pages on the web: ``fetch`` (httpx behind the SSRF guard of ``netguard``),
``browser`` (headless Chromium for client-rendered pages, the [render] extra) and
``remote`` (``read`` / ``aread``: fetch, render when asked, extract)."""
