# expect: 17 CTX103
"""Kind: the token is bound to a local nothing reads and the `finally` that clears the flag
starts only after an unguarded await (crawl4ai's deep-crawl decorator): when that await
raises, the flag stays set and later crawls in the task skip the deep crawl."""
import contextvars


class DeepCrawl:
    active = contextvars.ContextVar("deep_crawl_active", default=False)

    def __init__(self, crawler):
        self.crawler = crawler

    def __call__(self, arun):
        async def wrapped(url, config=None):
            if config and config.strategy and not self.active.get():
                token = self.active.set(True)
                result = await config.strategy.arun(self.crawler, url)  # not under the try
                try:
                    return result
                finally:
                    self.active.set(False)
            return await arun(url, config=config)
        return wrapped
