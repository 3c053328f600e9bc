# expect: none
"""The backend says what travels (its URL) and opens its own client on the other side,
so the job that carries it pickles cleanly."""
import httpx
import ray


class EmbeddingBackend:
    def __init__(self, base_url: str):
        self.base_url = base_url
        self.http = httpx.Client(base_url=base_url, timeout=30)

    def __reduce__(self):
        return (EmbeddingBackend, (self.base_url,))

    def embed(self, texts: list[str]) -> list[list[float]]:
        return self.http.post("/embed", json={"input": texts}).json()["data"]


class EmbeddingJob:
    def __init__(self, texts: list[str], backend: EmbeddingBackend):
        self.texts = texts
        self.backend = backend


@ray.remote
def run_job(job: EmbeddingJob) -> list[list[float]]:
    return job.backend.embed(job.texts)


def submit(chunks: list[list[str]], region_url: str) -> list:
    backend = EmbeddingBackend(region_url)
    return [run_job.remote(EmbeddingJob(texts, backend)) for texts in chunks]
