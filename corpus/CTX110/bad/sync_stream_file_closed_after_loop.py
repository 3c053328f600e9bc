# expect: 12 CTX110 a sync streaming generator opens the transcript file before the first yield and closes it after the loop: a disconnect mid-download leaves the descriptor open
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import StreamingResponse

app = FastAPI()
TRANSCRIPTS = Path("/var/lib/asr/transcripts")


def iter_transcript(path: Path, chunk_size: int = 64 * 1024):
    fh = path.open("rb")
    while True:
        chunk = fh.read(chunk_size)
        if not chunk:
            break
        yield chunk
    fh.close()


@app.get("/v1/transcripts/{job_id}")
def download_transcript(job_id: str):
    path = TRANSCRIPTS / f"{job_id}.jsonl"
    if not path.is_file():
        raise HTTPException(status_code=404)
    return StreamingResponse(iter_transcript(path), media_type="application/x-ndjson")
