from fastapi import FastAPI, Request

app = FastAPI()


class Upstream:
    _instance = None

    @classmethod
    def for_key(cls, api_key):
        cls._instance = cls(api_key)
        return cls._instance


class Handler:
    def for_key(self, key):
        return {"k": key}

    async def handle(self, request: Request):
        return self.for_key(request.headers["x-api-key"])


@app.get("/")
async def root():
    return Upstream.for_key("static-config-key")
