"""From a site to a corpus: discover its pages (``map_site``) and crawl them politely,
resumably (``crawl``). See docs/crawl.md."""
