# expect: 34 CTX407
"""An embedding job handed to a Ray task carries its backend, and the backend holds an
open HTTP client: the job itself looks like plain data, the client is one object deeper."""
import httpx
import ray


class EmbeddingBackend:
    """Talks to the embedding server of one region."""

    def __init__(self, base_url: str):
        session = httpx.Client(base_url=base_url, timeout=30)
        self.http = session

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
    refs = []
    for texts in chunks:
        refs.append(run_job.remote(EmbeddingJob(texts, backend)))
    return refs
